#!/bin/sh
# A UCI engine that answers every search with a move no position allows: for tests/uci/match.sh.
while read -r line; do
  case "$line" in
    uci) echo "id name bad engine"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) echo "bestmove a1a1" ;;
    quit) exit 0 ;;
  esac
done

#!/bin/sh
# tests/web/run-page.sh MKTB TABLES OUT_DIR - starts `mktb serve` on a free port and drives its
# page in headless chromium (page.mjs); the screenshots land in OUT_DIR.
set -u
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$3"
log=$(mktemp)
# The tables served: the test's Makruk tables and Xiangqi's KRvKA (with KRvK) beside them, in a
# directory of their own (links to the Makruk files; the Xiangqi ones made here).
served=$(mktemp -d)
trap 'rm -rf "$served" "${none:-}"' EXIT
for f in "$2"/*.mktb "$2"/*.json; do ln -s "$f" "$served/"; done
"$1" gen --game xiangqi KRvKA KRvKN --tables "$served" > /dev/null 2>&1 || { echo "FAILED: mktb gen --game xiangqi KRvKA KRvKN"; exit 1; }
# And KRvKN under the rule set none in a directory of its own, served beside (the rules panel).
none=$(mktemp -d)
"$1" gen --game xiangqi --rules none KRvKN --tables "$none" > /dev/null 2>&1 || { echo "FAILED: mktb gen --game xiangqi --rules none KRvKN"; exit 1; }
set -- "$1" "$served" "$3"
# With the reference engine where it is installed: the page shows its word beyond the tables.
engine=$(command -v fairy-stockfish || command -v /usr/games/fairy-stockfish || true)
if [ -n "$engine" ]; then
  export MKTB_PAGE_ENGINE=1
  "$1" serve --tables "$2" --tables "$none" --port 0 --engine-time 100 --engine "$engine" > "$log" 2>&1 &
else
  "$1" serve --tables "$2" --tables "$none" --port 0 > "$log" 2>&1 &
fi
server=$!
trap 'kill $server 2>/dev/null; rm -f "$log"; rm -rf "$served" "$none"' EXIT
for _ in $(seq 100); do grep -q "http://" "$log" && break; sleep 0.1; done
url=$(sed -n 's|.*\(http://[^/]*\)/.*|\1|p' "$log")
[ -n "$url" ] || { echo "FAILED: mktb serve did not start:"; cat "$log"; exit 1; }
[ -d "$here/node_modules/playwright-core" ] || { echo "FAILED: run scripts/setup (npm ci in tests/web)"; exit 1; }
node "$here/page.mjs" "$url" "$3"

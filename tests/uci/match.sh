#!/bin/sh
# tests/uci/match.sh MKTB TABLES - `mktb positions` and `mktb match` on a small sample:
#  - positions chosen by the stated rules (won within the count with at most 2 moves to spare;
#    drawn by the count with a losing move to avoid) carry what the rule says;
#  - `mktb uci` as the attacker converts the won ones against Fairy-Stockfish, and as the
#    defender holds the drawn one;
#  - the adjudication: a start position that is mate (1-0 at once), stalemate (a draw), a count
#    that runs out before any mate (a draw after two plies); an engine playing an illegal move
#    loses;
#  - --both-colours and the Elo summary, --jobs; --kind quiet checked by Fairy-Stockfish's move generator;
#  - bad input: exit codes and messages;
#  - Xiangqi: `mktb positions --game xiangqi` (won, hold, convert) re-checked through mktb probe
#    and mktb uci; mktb uci converts the won ones against Fairy-Stockfish's xiangqi (PGN with
#    WXF moves); mate and stalemate (a loss) adjudicated; a match of both games refused.
set -u
mktb=$1
tables=$2
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
expect() { grep -qF -- "$2" "$3" || { fail "$1: no '$2' in:"; cat "$3"; }; }

"$mktb" positions KSSvK --kind won --number 2 --slack 1 --seed 7 --tables "$tables" > "$scratch/won" || fail "positions won"
"$mktb" positions KRvKS --kind hold --number 1 --slack 2 --seed 7 --tables "$tables" > "$scratch/hold" || fail "positions hold"
[ "$(wc -l < "$scratch/won")" -eq 2 ] || fail "two won positions"
expect "won rule" "KSSvK won: White wins within the count" "$scratch/won"
expect "hold rule" "KRvKS hold: Draw under the count" "$scratch/hold"
# The rule, re-checked through mktb probe: won with at most one move to spare.
while IFS=';' read -r fen _; do
  "$mktb" probe "$fen" --json --tables "$tables" | python3 -c '
import json, sys
a = json.load(sys.stdin)["counted"]
sys.exit(0 if a["category"] == "win" and 0 <= a["moves_available"] - a["moves_needed"] <= 1 else 1)' \
    || fail "position $fen does not fit the rule"
done < "$scratch/won"

# --kind convert: won within the count only by a conversion, some conversion throwing the win
# away; --kind exchange: a counted draw that some capture loses. Re-checked through mktb probe
# (its moves' values are the opponent's after the move: "loss" is the mover's win).
"$mktb" positions KRvKN --kind convert --number 2 --min-moves 3 --seed 7 --tables "$tables" > "$scratch/convert" || fail "positions convert"
"$mktb" positions KRvKP --kind exchange --number 2 --seed 7 --tables "$tables" > "$scratch/exchange" || fail "positions exchange"
[ "$(wc -l < "$scratch/convert")" -eq 2 ] && [ "$(wc -l < "$scratch/exchange")" -eq 2 ] || fail "two convert and two exchange positions"
for kind in convert exchange; do
  while IFS=';' read -r fen _; do
    "$mktb" probe "$fen" --json --tables "$tables" | python3 -c '
import json, sys
a = json.load(sys.stdin)
moves = a["moves"]
wins = [m for m in moves if m["counted"]["category"] == "loss"]
if sys.argv[1] == "convert":
    ok = (a["counted"]["category"] == "win" and wins and all(m["conversion"] for m in wins)
          and any(not m["conversion"] for m in moves)
          and any(m["conversion"] and m["counted"]["category"] != "loss" for m in moves))
else:
    ok = (a["counted"]["category"] == "draw"
          and any(m["conversion"] and m["counted"]["category"] == "win" for m in moves))
sys.exit(0 if ok else 1)' "$kind" || fail "$kind position $fen does not fit the rule"
  done < "$scratch/$kind"
done
"$mktb" positions KRvKN --kind swap --tables "$tables" > "$scratch/out" 2>&1; code=$?
[ $code -eq 2 ] && grep -q "kind won, hold, convert, exchange or quiet" "$scratch/out" || fail "--kind swap: $code $(cat "$scratch/out")"

cat "$scratch/won" "$scratch/hold" > "$scratch/both"
"$mktb" match --first "$mktb uci --tables $tables" --second fairy-stockfish --positions "$scratch/both" \
  --movetime 50 --pgn "$scratch/games.pgn" > "$scratch/match" 2>&1 || fail "match exit code"
expect "attacker converts" "game 1: " "$scratch/match"
[ "$(grep -c 'first engine wins' "$scratch/match")" -eq 2 ] || { fail "mktb uci did not convert both"; cat "$scratch/match"; }
grep -q "game 3: .*first engine loses" "$scratch/match" && { fail "mktb uci lost a counted draw"; cat "$scratch/match"; }
[ "$(grep -c '^\[Event ' "$scratch/games.pgn")" -eq 3 ] || fail "three games in the PGN"
expect "PGN count comments" "{count " "$scratch/games.pgn"
expect "PGN variant" '[Variant "makruk"]' "$scratch/games.pgn"

# --first-option / --second-option: UCI options after UCI_Variant (Fairy-Stockfish's Hash here).
"$mktb" match --first fairy-stockfish --first-option Hash=8 --second fairy-stockfish \
  --second-option Threads=1 --positions "$scratch/convert" --movetime 20 > "$scratch/opt" 2>&1 || fail "match with options"
expect "options: games played" "game 2: " "$scratch/opt"

cat > "$scratch/adjudicate" <<'POSITIONS'
# mate at once, stalemate, a count with one attacker move left and no mate in one
k6R/8/1K6/8/8/8/8/8 b - - 0 1
k7/1R6/1K6/8/8/8/8/8 b - - 0 1
k7/8/8/8/8/8/8/1R2K3 w - 32 31 1
POSITIONS
"$mktb" match --first fairy-stockfish --second fairy-stockfish --positions "$scratch/adjudicate" \
  --movetime 20 > "$scratch/adj" 2>&1 || fail "adjudication match"
expect "checkmate" "game 1: k6R/8/1K6/8/8/8/8/8 b - - 0 1: first engine loses 1-0 (checkmate, 0 plies)" "$scratch/adj"
expect "stalemate" "game 2: k7/1R6/1K6/8/8/8/8/8 b - - 0 1: draw 1/2-1/2 (stalemate, 0 plies)" "$scratch/adj"
expect "count runs out" "game 3: k7/8/8/8/8/8/8/1R2K3 w - 32 31 1: draw 1/2-1/2 (the count ran out, 2 plies)" "$scratch/adj"
# The PGN ends where the count ends the game: its last comment says so, the result is a draw.
"$mktb" match --first fairy-stockfish --second fairy-stockfish --positions "$scratch/adjudicate" \
  --movetime 20 --pgn "$scratch/adj.pgn" > /dev/null 2>&1 || fail "adjudication match with PGN"
expect "the count's end in the PGN" "{count 17 of 16: the count has run out} 1/2-1/2" "$scratch/adj.pgn"

# --both-colours: each position twice, the first engine on each side; the summary's Elo. From a
# mate, the first engine loses as the side mated and wins as the mating side: 50 %, +0 Elo.
printf 'k6R/8/1K6/8/8/8/8/8 b - - 0 1\n' > "$scratch/mate"
"$mktb" match --first fairy-stockfish --second fairy-stockfish --positions "$scratch/mate" \
  --movetime 20 --both-colours > "$scratch/both" 2>&1 || fail "match --both-colours"
expect "both colours: as the side mated" "game 1: k6R/8/1K6/8/8/8/8/8 b - - 0 1: first engine loses" "$scratch/both"
expect "both colours: as the mating side" "game 2: k6R/8/1K6/8/8/8/8/8 b - - 0 1: first engine wins" "$scratch/both"
expect "both colours: Elo" "1 wins, 0 draws, 1 losses in 2 games; score 50.0 %, Elo +0" "$scratch/both"
# --jobs 2: two pairs of engines at once; every game played once, the PGN in game order.
printf 'k6R/8/1K6/8/8/8/8/8 b - - 0 1\nk7/1R6/1K6/8/8/8/8/8 b - - 0 1\n' > "$scratch/two"
"$mktb" match --first fairy-stockfish --second fairy-stockfish --positions "$scratch/two" \
  --movetime 20 --both-colours --jobs 2 --pgn "$scratch/two.pgn" > "$scratch/jobs" 2>&1 || fail "match --jobs 2"
expect "jobs: every game" "1 wins, 2 draws, 1 losses in 4 games" "$scratch/jobs"
[ "$(grep '^\[Round' "$scratch/two.pgn" | tr -d '\n')" = '[Round "1"][Round "2"][Round "3"][Round "4"]' ] \
  || fail "jobs: the PGN's games out of order"
expect "jobs: game 3 a stalemate" "[Result \"1/2-1/2\"]" "$scratch/two.pgn"

# --kind quiet (any ending, no table): neither side in check nor able to capture, as
# Fairy-Stockfish's own move generator sees it (perft 1 lists every legal move of either side).
"$mktb" positions KRNPPvKRNP --kind quiet --number 3 --seed 7 > "$scratch/quiet" || fail "positions quiet"
[ "$(wc -l < "$scratch/quiet")" -eq 3 ] || fail "three quiet positions"
expect "quiet rule" "KRNPPvKRNP quiet" "$scratch/quiet"
python3 - "$scratch/quiet" <<'PY' || fail "a quiet position has a check or a capture"
import shutil, subprocess, sys
fsf = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
for line in open(sys.argv[1]):
    fen = line.split(";")[0].strip()
    board, stm = fen.split()[0], fen.split()[1]
    squares = {}
    for r, row in enumerate(board.split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                squares["abcdefgh"[f] + str(8 - r)] = ch
                f += 1
    for side in (stm, "b" if stm == "w" else "w"):
        flipped = " ".join([board, side] + fen.split()[2:])
        out = subprocess.run([fsf], input="setoption name UCI_Variant value makruk\n"
                             f"position fen {flipped}\ngo perft 1\nd\nquit\n",
                             capture_output=True, text=True).stdout
        moves = [l.split(":")[0] for l in out.splitlines() if l[:1] in "abcdefgh" and ":" in l]
        assert moves, (flipped, out)
        captures = [m for m in moves if m[2:4] in squares]
        checkers = [l for l in out.splitlines() if l.startswith("Checkers:")]
        assert not captures, (flipped, captures)
        assert checkers and checkers[0].strip() == "Checkers:", (flipped, checkers)
PY

echo "k7/8/1K6/8/8/8/8/7R w - - 0 1" > "$scratch/one"
"$mktb" match --first "sh $here/bad-engine.sh" --second fairy-stockfish --positions "$scratch/one" \
  --movetime 20 > "$scratch/bad" 2>&1
expect "illegal move loses" "first engine loses 0-1 (bad engine played an illegal move: bestmove a1a1" "$scratch/bad"

"$mktb" match --first fairy-stockfish --second fairy-stockfish --positions "$scratch/missing" > "$scratch/err" 2>&1
[ $? -eq 2 ] || fail "missing positions file: exit 2"
expect "missing positions file" "cannot read" "$scratch/err"
printf 'k7/8/1K6/8/8/8/8/7R w - - 0 1\nnot a fen\n' > "$scratch/badfen"
"$mktb" match --first fairy-stockfish --second fairy-stockfish --positions "$scratch/badfen" > "$scratch/err" 2>&1
[ $? -eq 2 ] || fail "bad FEN: exit 2"
expect "bad FEN" "line 2: bad FEN" "$scratch/err"
"$mktb" match --first /nonexistent/engine --second fairy-stockfish --positions "$scratch/one" > "$scratch/err" 2>&1
[ $? -eq 1 ] || fail "engine that does not start: exit 1"
expect "engine that does not start" "cannot start /nonexistent/engine" "$scratch/err"
"$mktb" positions KXvK --kind won --tables "$tables" > "$scratch/err" 2>&1
[ $? -eq 2 ] || fail "bad ending: exit 2"
"$mktb" positions KRRSvK --kind won --tables "$tables" > "$scratch/err" 2>&1
[ $? -eq 3 ] || fail "no table: exit 3"
expect "no table" "no table for KRRSvK" "$scratch/err"

# Xiangqi: tables of KNvKA (the horse against an advisor), KRvKCA (both armed: the rule's table)
# and KRvKAA (what KRvKCAA reduces into by capturing the cannon).
xq="$scratch/xq"
MKTB_NO_PROGRESS=1 "$mktb" gen --game xiangqi KNvKA KRvKCA KRvKAA --tables "$xq" > /dev/null || fail "xiangqi gen"
"$mktb" positions --game xiangqi KNvKA --kind won --number 2 --min-moves 10 --seed 7 --tables "$xq" > "$scratch/xwon" || fail "xiangqi positions won"
"$mktb" positions --game xiangqi KRvKCA --kind hold --number 2 --seed 7 --tables "$xq" > "$scratch/xhold" || fail "xiangqi positions hold"
"$mktb" positions --game xiangqi KRvKCAA --kind convert --number 2 --min-moves 8 --seed 7 --tables "$xq" > "$scratch/xconvert" || fail "xiangqi positions convert"
for kind in xwon xhold; do
  [ "$(wc -l < "$scratch/$kind")" -eq 2 ] || fail "two $kind positions"
  while IFS=';' read -r fen _; do
    "$mktb" probe "$fen" --json --tables "$xq" | python3 -c '
import json, sys
a = json.load(sys.stdin)
moves = a["moves"]
# A move's category and rule_result are the opponent's after it ("loss": the mover wins).
if sys.argv[1] == "xwon":
    ok = (a["category"] == "win" and a["mate_in"] >= 10
          and any(m["category"] != "loss" for m in moves))
else:
    ok = (a["category"] == "draw" and "rule_result" not in a
          and any(m["category"] == "win" or m.get("rule_result") == "win" for m in moves))
sys.exit(0 if ok else 1)' "$kind" || fail "$kind position $fen does not fit the rule"
  done < "$scratch/$kind"
done
# convert: the capture named leads to a KRvKAA position mktb uci scores as Black mated.
[ "$(wc -l < "$scratch/xconvert")" -eq 2 ] || fail "two convert positions"
expect "xiangqi convert rule" "KRvKCAA convert: Red mates in" "$scratch/xconvert"
while IFS=';' read -r fen comment; do
  mv=$(echo "$comment" | sed -E 's/.*\(([a-i][0-9]+[a-i][0-9]+)\).*/\1/')
  n=$(echo "$comment" | sed -E 's/.*mates in ([0-9]+).*/\1/')
  printf 'uci\nsetoption name UCI_Variant value xiangqi\nposition fen %s moves %s\ngo depth 1\n' "$fen" "$mv" |
    timeout 20 "$mktb" uci --tables "$xq" > "$scratch/xuci" 2>&1
  grep -q "score mate -$((n - 1)) " "$scratch/xuci" || { fail "convert $fen: after $mv not mate -$((n - 1))"; cat "$scratch/xuci"; }
done < "$scratch/xconvert"
"$mktb" match --first "$mktb uci --tables $xq" --second fairy-stockfish --positions "$scratch/xwon" \
  --movetime 50 --pgn "$scratch/xgames.pgn" > "$scratch/xmatch" 2>&1 || fail "xiangqi match exit code"
[ "$(grep -c 'first engine wins 1-0 (checkmate\|first engine wins 0-1 (checkmate\|first engine wins .* (stalemate' "$scratch/xmatch")" -eq 2 ] \
  || { fail "mktb uci did not mate in both Xiangqi games"; cat "$scratch/xmatch"; }
expect "xiangqi PGN variant" '[Variant "xiangqi"]' "$scratch/xgames.pgn"
grep -Eq '} 1\. H[1-9][+-][1-9] ' "$scratch/xgames.pgn" || { fail "WXF moves in the PGN"; cat "$scratch/xgames.pgn"; }
cat > "$scratch/xadjudicate" <<'POSITIONS'
# mate at once (two chariots), stalemate (no move: a loss in Xiangqi)
R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1
3k5/R8/9/9/9/9/9/9/4R4/5K3 b - - 0 1
POSITIONS
"$mktb" match --first fairy-stockfish --second fairy-stockfish --positions "$scratch/xadjudicate" \
  --movetime 20 > "$scratch/xadj" 2>&1 || fail "xiangqi adjudication match"
expect "xiangqi checkmate" "game 1: R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1: first engine loses 1-0 (checkmate, 0 plies)" "$scratch/xadj"
expect "xiangqi stalemate" "game 2: 3k5/R8/9/9/9/9/9/9/4R4/5K3 b - - 0 1: first engine loses 1-0 (stalemate, 0 plies)" "$scratch/xadj"
printf 'R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1\nk7/8/1K6/8/8/8/8/7R w - - 0 1\n' > "$scratch/mixed"
"$mktb" match --first fairy-stockfish --second fairy-stockfish --positions "$scratch/mixed" > "$scratch/err" 2>&1
[ $? -eq 2 ] || fail "a match of both games: exit 2"
expect "a match of both games" "line 2: a makruk position among xiangqi ones" "$scratch/err"
"$mktb" positions --game xiangqi KNvKA --kind quiet --tables "$xq" > "$scratch/err" 2>&1
[ $? -eq 2 ] && grep -q "kind won, hold, convert or any" "$scratch/err" || fail "xiangqi --kind quiet: $(cat "$scratch/err")"
"$mktb" positions --game xiangqi KCvKN --kind won --tables "$xq" > "$scratch/err" 2>&1
[ $? -eq 3 ] || fail "xiangqi no table: exit 3"
expect "xiangqi no table" "no Xiangqi table for KCvKN" "$scratch/err"
"$mktb" positions --game xiangqi KRvKCA --kind convert --tables "$xq" > "$scratch/err" 2>&1
[ $? -eq 2 ] || fail "xiangqi convert of a table: exit 2"
expect "xiangqi convert of a table" "KRvKCA has a table" "$scratch/err"

[ $failures -eq 0 ] && echo "all match checks passed"
exit $failures

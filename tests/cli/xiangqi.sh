#!/bin/sh
# tests/cli/xiangqi.sh MKTB - the program's Xiangqi: perft of a ten-rank FEN (published counts),
# gen/verify --game xiangqi (a table, its statistics, the set's names and their errors), probe of
# a Xiangqi FEN (a mate in one checked by hand, --json, --line, --epd beside a Makruk line), the
# two games' tables kept apart, and a damaged Xiangqi table reported, never answered. Both sides
# armed: the perpetual-check rule's result where only it decides (KRvKN, a position checked by
# hand: test_xiangqi_tables.cpp), the same bytes on 1 and 2 threads, digests; the rule sets
# none, check and asian side by side.
set -u
mktb=$1
dir=$(mktemp -d /tmp/mktb-xiangqi-test.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export MKTB_NO_PROGRESS=1
start="rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

# perft: chessprogramming.org's Chinese chess perft (1: 44, 3: 79,666).
[ "$("$mktb" perft "$start" 1)" = 44 ] || fail "perft 1"
[ "$("$mktb" perft "$start" 3)" = 79666 ] || fail "perft 3"
out=$("$mktb" perft "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1" 1 2>&1); rc=$?
[ $rc -eq 2 ] || fail "perft of facing kings: exit $rc"
echo "$out" | grep -q "bad Xiangqi FEN: the kings face each other" || fail "perft error: $out"

# gen and verify.
"$mktb" gen --game xiangqi KRvKA --tables "$dir/x" > "$dir/gen.out" || fail "gen KRvKA"
for t in KRvKA KRvK KAvK KvK; do
  [ -f "$dir/x/$t.xq.mktb" ] || fail "no $t.xq.mktb"
  [ -f "$dir/x/$t.xq.json" ] || fail "no $t.xq.json"
done
grep -q "^KRvKA " "$dir/gen.out" || fail "no statistics row for KRvKA"
"$mktb" gen --game xiangqi KvKRA --tables "$dir/x" > "$dir/again.out" || fail "gen again"
grep -q "^KRvKA " "$dir/again.out" && fail "a table on disk was made again"
"$mktb" verify --game xiangqi KRvKA KAvK --tables "$dir/x" | grep -c ": ok$" | grep -q 2 || fail "verify"
"$mktb" gen --game xiangqi --set one-attacker --list --tables "$dir/x" > "$dir/list" 2> "$dir/list.err" \
  || fail "--list"
grep -q "^369 Xiangqi endings" "$dir/list.err" || fail "the one-attacker set: $(cat "$dir/list.err")"
grep -q "^KRAABBvKAABB " "$dir/list" || fail "KRAABBvKAABB not listed"
# The sets by their sizes: Felicity's 810 two-attacker endings, the rule's 486 armed ones.
"$mktb" gen --game xiangqi --set two-attackers --list --tables "$dir/x" > /dev/null 2> "$dir/list2.err" || fail "--list two"
grep -q "^1179 Xiangqi endings" "$dir/list2.err" || fail "two-attackers: $(cat "$dir/list2.err")"

# Both sides armed: the perpetual-check pass, whatever the thread count.
"$mktb" gen --game xiangqi KRvKN --threads 1 --tables "$dir/t1" > /dev/null || fail "gen KRvKN 1 thread"
"$mktb" gen --game xiangqi KRvKN --threads 2 --tables "$dir/t2" > /dev/null || fail "gen KRvKN 2 threads"
cmp -s "$dir/t1/KRvKN.xq.mktb" "$dir/t2/KRvKN.xq.mktb" || fail "KRvKN differs between 1 and 2 threads"
# A damaged table on disk is made again, never taken as done (its checksum read through).
printf 'x' | dd of="$dir/t2/KRvKN.xq.mktb" bs=1 seek=5000 conv=notrunc 2>/dev/null
"$mktb" gen --game xiangqi KRvKN --tables "$dir/t2" > /dev/null 2> "$dir/damaged.err" || fail "gen over a damaged table"
grep -q "^mktb gen: KRvKN in .* is damaged (its checksum does not hold); generating it again$" "$dir/damaged.err" \
  || fail "a damaged table named: $(cat "$dir/damaged.err")"
cmp -s "$dir/t1/KRvKN.xq.mktb" "$dir/t2/KRvKN.xq.mktb" || fail "KRvKN made again differs"
"$mktb" verify --game xiangqi KRvKN --tables "$dir/t1" | grep -q "^KRvKN (Xiangqi): ok$" || fail "verify KRvKN"
hold="9/4k4/9/9/8R/9/9/5n3/9/5K3 b - - 0 1"
out=$("$mktb" probe "$hold" --tables "$dir/t1") || fail "probe the hold"
echo "$out" | grep -q "Black to move: Red wins: Black can hold only by checking or chasing for ever, which the rules forbid, and has no other way left (without the rule: a draw)" \
  || fail "the rule's result in words: $out"
out=$("$mktb" probe "$hold" --json --tables "$dir/t1") || fail "probe --json the hold"
echo "$out" | grep -q '"category":"draw","dtm":0' || fail "plain draw in JSON: $out"
echo "$out" | grep -q '"rule_result":"loss"' || fail "rule_result in JSON: $out"
echo "$out" | grep -q 'perpetual_check=loss' || fail "the rule named in JSON: $out"
# The rule's distance (docs/rules-xiangqi.md §5c), by hand: Black can only check (Nh2+) or lose
# now (0); after Nh2+ Red's one move Kf2 brings it back (1). The line: the checks until the
# position repeats, Black checking on every move between.
"$mktb" probe "$hold" --json --line --tables "$dir/t1" | python3 -c '
import json, sys
j = json.load(sys.stdin)
m = {x["uci"]: x for x in j["moves"]}["f3h2"]
ok = (j["rule_distance"] == 0 and m["rule_distance"] == 1 and j["line"][:2] == ["f3h2", "f1f2"]
      and j["line_note"].endswith("Black checked on every move between, and loses by the rule")
      and "line_none" not in j)
sys.exit(0 if ok else 1)' || fail "a rule win's distance and line"
"$mktb" probe "$hold" --line --tables "$dir/t1" | grep -q "^The position after ply [0-9]* repeats the one after ply [0-9]*: Black checked on every move between" \
  || fail "a rule win's line in text"
# A move's rule_result reads from the side to move after it, as its category does (docs/api.md):
# after Nh2+, the check that keeps Black going, Red is to move and wins by the rule.
echo "$out" | python3 -c '
import json, sys
m = {x["uci"]: x for x in json.load(sys.stdin)["moves"]}["f3h2"]
sys.exit(0 if m["category"] == "draw" and m["rule_result"] == "win" else 1)' \
  || fail "a move's rule_result from the side to move after it: $out"
d1=$("$mktb" digest --game xiangqi KRvKN --tables "$dir/t1") || fail "digest"
echo "$d1" | grep -q "^KRvKN dtm=[0-9a-f]\{16\} rule=[0-9a-f]\{16\}$" || fail "digest: $d1"
[ "$d1" = "$("$mktb" digest --game xiangqi KNvKR --tables "$dir/t2")" ] || fail "digests differ"
# pack: one side kept; the other answered by a one-ply search, to the same values and words.
"$mktb" pack --game xiangqi KRvKN --tables "$dir/t1" --out "$dir/packed" > "$dir/pack.out" || fail "pack"
# An armed table keeps both sides: a loser's rule distance needs its cycle, not one ply.
grep -q "^KRvKN  *both sides kept (the rule's distances)" "$dir/pack.out" || fail "pack output: $(cat "$dir/pack.out")"
grep -q "^KRvK  *Red to move kept" "$dir/pack.out" || fail "pack output: $(cat "$dir/pack.out")"
[ "$d1" = "$("$mktb" digest --game xiangqi KRvKN --tables "$dir/packed")" ] || fail "packed digest differs"
[ "$("$mktb" probe "$hold" --json --tables "$dir/packed")" = "$out" ] || fail "packed probe differs"

expect_error() { # expected exit code, text, then the command
  code=$1 text=$2; shift 2
  out=$("$@" 2>&1); rc=$?
  [ $rc -eq "$code" ] || fail "$* exited $rc, not $code: $out"
  echo "$out" | grep -q "$text" || fail "$*: no '$text' in: $out"
}
expect_error 2 "'Q' is not a Xiangqi man" "$mktb" gen --game xiangqi KQvK --tables "$dir/x"
expect_error 2 "exactly one K" "$mktb" gen --game xiangqi KRvA --tables "$dir/x"
expect_error 2 "takes makruk or xiangqi" "$mktb" gen --game chess KRvK --tables "$dir/x"
expect_error 2 "one-attacker, two-attackers, armed or armless" "$mktb" gen --game xiangqi --set two --tables "$dir/x"
expect_error 2 "is Makruk's" "$mktb" gen --game xiangqi --men 4 --tables "$dir/x"
expect_error 2 "is the directory of the tables" "$mktb" pack --game xiangqi KRvKN --tables "$dir/t1" --out "$dir/t1"
expect_error 2 "is Xiangqi's" "$mktb" gen --set one-attacker --tables "$dir/x"
expect_error 2 "is Xiangqi's" "$mktb" gen KRvK --rules none --tables "$dir/x"
expect_error 2 "takes none, check or asian, not 'chinese'" "$mktb" gen --game xiangqi --rules chinese KRvK --tables "$dir/x"

# Rule sets (docs/rules-xiangqi.md §5): under none the same plain distance, no rule cells, and
# the hold a draw; a table of one set never answers for the other; gen into a directory of
# the other set makes it again (saying so), or refuses with --keep-other-rules.
"$mktb" gen --game xiangqi --rules none KRvKN --tables "$dir/none" > /dev/null || fail "gen --rules none"
[ "$("$mktb" digest --game xiangqi KRvKN --tables "$dir/none")" = "${d1% rule=*}" ] \
  || fail "the plain distance under none differs from check's"
grep -q '"rule": "none: every endless line a draw"' "$dir/none/KRvKN.xq.json" || fail "the set in the statistics"
out=$("$mktb" probe "$hold" --rules none --tables "$dir/none") || fail "probe --rules none"
echo "$out" | grep -q "^Black to move: draw (Xiangqi; rules none: every endless line a draw)" || fail "none's answer: $out"
"$mktb" probe "$hold" --rules none --json --tables "$dir/none" | grep -q '"rule_set":"none"' || fail "rule_set in JSON"
expect_error 1 "follows the rules none, not asian" "$mktb" probe "$hold" --tables "$dir/none"
expect_error 1 "follows the rules asian, not none" "$mktb" probe "$hold" --rules none --tables "$dir/t1"
"$mktb" probe "9/9/4k4/9/9/9/9/9/9/R2K5 w - - 0 1" --rules none --tables "$dir/t1" > /dev/null \
  || fail "an armless ending answers under every set"
expect_error 1 "follows the rules none; not replaced (--keep-other-rules)" \
  "$mktb" gen --game xiangqi KRvKN --keep-other-rules --tables "$dir/none"
out=$("$mktb" gen --game xiangqi KRvKN --tables "$dir/none" 2>&1 >/dev/null) || fail "gen over none"
echo "$out" | grep -q "KRvKN in $dir/none follows the rules none; generating it again under asian" || fail "no note: $out"
[ "$("$mktb" digest --game xiangqi KRvKN --tables "$dir/none")" = "$d1" ] || fail "made again under asian (on KRvKN the same values as check)"
# asian: perpetual chase loses too. The position of xiangqitb's check-and-chase build that its
# check-only build (and mktb's check) draws: Black's horse holds only by chasing.
"$mktb" gen --game xiangqi --rules asian KNPvKN --tables "$dir/asian" > /dev/null || fail "gen --rules asian"
"$mktb" verify --game xiangqi KNPvKN --tables "$dir/asian" | grep -q "^KNPvKN (Xiangqi): ok$" || fail "verify asian"
out=$("$mktb" probe "9/4k1P2/9/9/8n/9/9/9/N8/3K5 w - - 0 1" --rules asian --tables "$dir/asian") || fail "probe asian"
echo "$out" | grep -q "^Red to move: Red wins: Black can hold only by checking or chasing for ever" || fail "the chase: $out"
expect_error 1 "follows the rules asian, not check" "$mktb" probe "9/4k1P2/9/9/8n/9/9/9/N8/3K5 w - - 0 1" --tables "$dir/asian" --rules check
expect_error 1 "needs about" "$mktb" gen --game xiangqi KRAABBvKAABB --memory 1000000 --tables "$dir/y"
[ -e "$dir/y" ] && [ -n "$(ls "$dir/y")" ] && fail "a refused run wrote something"

# probe: two moves win at once, checked by hand: Rd2 mates (e2d2: the king cannot leave the d
# file, e10 faces Red's king) and Re9 stalemates (e2e9: Black has no move, not in check: a loss).
mate="3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"
out=$("$mktb" probe "$mate" --tables "$dir/x") || fail "probe: $out"
echo "$out" | grep -q "Red to move: Red mates in 1" || fail "probe text: $out"
# Each move in WXF, in Chinese notation and in UCI, as the page shows them (e2 is Red's 5th
# file: to d2 is "R5=6" 俥五平六, seven ranks up to e9 "R5+7" 俥五進七).
echo "$out" | grep -q "^  \* R5=6   俥五平六  e2d2 " || fail "the mating move: $out"
echo "$out" | grep -q "^  \* R5+7   俥五進七  e2e9 " || fail "the stalemating move: $out"
"$mktb" probe "$mate" --json --line --tables "$dir/x" > "$dir/p.json" || fail "probe --json"
python3 - "$dir/p.json" <<'PY' || fail "probe --json's answer"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["game"] == "xiangqi" and j["material"] == "KRvK" and j["side_to_move"] == "red", j
assert j["category"] == "win" and j["mate_in"] == 1 and j["dtm"] == 1, j
assert j["line"] in (["e2d2"], ["e2e9"]), j["line"]
best = {m["uci"]: m for m in j["moves"] if m["best"]}
assert sorted(best) == ["e2d2", "e2e9"], best
assert best["e2d2"]["checkmate"] and best["e2e9"]["stalemate"], best
assert all(m["category"] == "loss" and m["dtm"] == 0 for m in best.values()), best
PY
expect_error 2 "Xiangqi has no count" "$mktb" probe "$mate" --count pieces:3 --tables "$dir/x"
expect_error 2 "bad Xiangqi FEN" "$mktb" probe "3k5/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1" --tables "$dir/x"
expect_error 3 "no Xiangqi table for KNvK" "$mktb" probe "3k5/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1" --tables "$dir/x"
# --epd: a Xiangqi line and a Makruk one, each answered by its own game's tables.
printf '%s\n%s\n' "$mate" "8/3k4/8/8/8/8/8/R3K3 w - - 0 1" > "$dir/mixed.epd"
out=$("$mktb" probe --epd "$dir/mixed.epd" --tables "$dir/x"); rc=$?
[ $rc -eq 3 ] || fail "--epd exit $rc (the Makruk line has no table here)"
echo "$out" | grep -qE "^1: .*mate in 1 \(Xiangqi\); best e2(d2|e9)" || fail "--epd Xiangqi line: $out"
echo "$out" | grep -q "^2: .*no table for KRvK" || fail "--epd Makruk line: $out"

# The games apart: a Xiangqi table named as a Makruk one is refused by its header.
cp "$dir/x/KRvK.xq.mktb" "$dir/x/KRvK.mktb"
out=$("$mktb" probe "8/3k4/8/8/8/8/8/R3K3 w - - 0 1" --tables "$dir/x" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "a Xiangqi file as Makruk's KRvK: exit $rc: $out"
echo "$out" | grep -q "a table of Xiangqi, not of Makruk" || fail "games apart: $out"
rm "$dir/x/KRvK.mktb"

# A damaged Xiangqi table: reported, never answered.
size=$(stat -c %s "$dir/x/KRvKA.xq.mktb")
truncate -s $((size - 100)) "$dir/x/KRvKA.xq.mktb"
out=$("$mktb" probe "3k5/4a4/9/9/9/9/9/9/4R4/4K4 w - - 0 1" --tables "$dir/x" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "a damaged table: exit $rc: $out"
echo "$out" | grep -q "KRvKA.xq.mktb" || fail "the damaged file not named: $out"
echo "passed"

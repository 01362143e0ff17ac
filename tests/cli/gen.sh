#!/bin/sh
# tests/cli/gen.sh MKTB GOLDEN - `mktb gen` when things go wrong:
#  - killed (SIGKILL) in the middle of a 4-men run, a second run loses at most the ending that was
#    in progress: the tables finished before are kept as they are, and every table then has the
#    golden values of the first generator (tests/golden/digests.txt);
#  - a full disk (a file size limit: the same failed write, and it needs no root) stops with a
#    message naming the file and leaves no table and no temporary file behind (a small tmpfs:
#    tests/cli/tmpfs.sh);
#  - a tables directory that cannot be created is named in the message, exit code 2;
#  - a table built under other counting options is generated again (or, with
#    --keep-other-rules, refused with exit code 1); endings written as players do (KvKR, KNSvK)
#    are accepted; every subcommand answers --help;
#  - two runs at once into one directory take turns (a lock): the table is whole, verified and
#    the golden one; a damaged table (a byte more) or one without its statistics file is made
#    again; a FIFO of a table's name is refused by gen and probe, left out by serve, never
#    waited on;
#  - verify and digest refuse, by name, the options of gen they would ignore;
#  - mktb pack writes tables that answer every probe as the full ones (mktb probe's whole output
#    compared), and refuses a missing --out, --out equal to --tables, a missing table, bad
#    --block-cells and --level; on a full disk it leaves no table; verify refuses a packed table
#    by name, and gen makes a packed table again in full.
set -u
mktb=$1
golden=$2
dir=$(mktemp -d /tmp/mktb-gen-test.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export MKTB_NO_PROGRESS=1

# 1. Kill in the middle, run again.
"$mktb" gen --men 4 --tables "$dir/t" > /dev/null 2>&1 &
pid=$!
# Wait until a third of the endings are on disk, then kill without warning.
while [ "$(ls "$dir/t" 2>/dev/null | grep -c '\.mktb$')" -lt 12 ]; do
  kill -0 $pid 2>/dev/null || fail "gen ended before it could be killed"
  sleep 0.05
done
kill -9 $pid
wait $pid 2>/dev/null
before=$(ls "$dir/t" | grep -c '\.mktb$')
[ "$before" -lt 35 ] || fail "the run was not interrupted"
# A table whose statistics file the kill prevented is made again (it lacks them): not "kept".
for t in "$dir"/t/*.mktb; do [ -e "${t%.mktb}.json" ] && echo "$t"; done | xargs stat -c '%n %Y %s' > "$dir/kept"
"$mktb" gen --men 4 --tables "$dir/t" > "$dir/second.txt" || fail "the second run failed"
stat -c '%n %Y %s' $(cut -d' ' -f1 "$dir/kept") | diff "$dir/kept" - \
  || fail "tables finished before the kill were generated again"
ls "$dir/t" | grep -q '\.tmp$' && fail "temporary files left behind"
"$mktb" digest --men 4 --tables "$dir/t" | sed 's/^/default /' > "$dir/digests"
[ "$(wc -l < "$dir/digests")" -eq 35 ] || fail "not every 4-men table is there"
while read -r line; do
  grep -qxF "$line" "$golden" || fail "after the interrupted run, not the golden values: $line"
done < "$dir/digests"
echo "killed with $before of 35 tables on disk; the second run kept them and finished the rest"

# 2. A full disk: the table of KRvKR (about 1 MB) does not fit under a 100 KB file size limit.
mkdir -p "$dir/full"
for t in KRvK; do cp "$dir/t/$t.mktb" "$dir/full/"; done
# No `trap '' XFSZ` here: mktb itself must turn the limit into a failed write, not die of it.
out=$( (ulimit -f 100; "$mktb" gen KRvKR --tables "$dir/full") 2>&1 >/dev/null)
code=$?
[ $code -eq 1 ] || fail "full disk: exit code $code, expected 1 ($out)"
echo "$out" | grep -q "cannot write .*KRvKR.mktb.tmp: File too large; no table was written" \
  || fail "full disk: unclear message: $out"
[ ! -e "$dir/full/KRvKR.mktb" ] && [ ! -e "$dir/full/KRvKR.mktb.tmp" ] \
  || fail "full disk: a partial table was left"
echo "full disk: $out"
# (A small tmpfs, where this user may mount one: tests/cli/tmpfs.sh, its own CTest test.)

# 3. A tables directory that cannot be created (its parent is a file).
touch "$dir/file"
out=$("$mktb" gen KRvK --tables "$dir/file/tables" 2>&1)
code=$?
[ $code -eq 2 ] || fail "bad directory: exit code $code, expected 2"
echo "$out" | grep -q "cannot create $dir/file/tables" || fail "bad directory: unclear message: $out"
echo "bad directory: $out"

# 3b. Two runs at once into one directory, five times: each table whole (verified, golden).
for round in 1 2 3 4 5; do
  rm -rf "$dir/race"; mkdir -p "$dir/race"
  "$mktb" gen KRvKM --tables "$dir/race" > "$dir/race1.txt" 2>&1 &
  a=$!
  "$mktb" gen KRvKM --tables "$dir/race" > "$dir/race2.txt" 2>&1 &
  b=$!
  wait $a || fail "concurrent gen (round $round): the first run failed: $(cat "$dir/race1.txt")"
  wait $b || fail "concurrent gen (round $round): the second run failed: $(cat "$dir/race2.txt")"
  cmp -s "$dir/race/KRvKM.mktb" "$dir/t/KRvKM.mktb" || fail "concurrent gen (round $round): KRvKM differs"
  ls "$dir/race" | grep -q '\.tmp$' && fail "concurrent gen: temporary files left"
done
"$mktb" verify KRvKM --tables "$dir/race" > /dev/null || fail "concurrent gen: verify"
echo "two runs at once: the table whole, 5 of 5"
# A damaged table (8 bytes more, as two writers of one file left it) is made again, not kept.
printf '12345678' >> "$dir/race/KRvKM.mktb"
out=$("$mktb" gen KRvKM --tables "$dir/race" 2>&1 >/dev/null) || fail "gen over a damaged table: $out"
echo "$out" | grep -q "KRvKM in .* is damaged (its checksum does not hold); generating it again" \
  || fail "gen over a damaged table: no note: $out"
cmp -s "$dir/race/KRvKM.mktb" "$dir/t/KRvKM.mktb" || fail "the damaged table was not made again"
# A table without its statistics file (a disk that filled while it was written) gets them.
rm "$dir/race/KRvKM.json"
out=$("$mktb" gen KRvKM --tables "$dir/race" 2>&1 >/dev/null) || fail "gen without statistics: $out"
echo "$out" | grep -q "KRvKM in .* has no statistics file; generating it again" || fail "no statistics: $out"
python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for s in (a, b): s.pop("seconds"), s.pop("phase_seconds")
sys.exit(a != b)' "$dir/race/KRvKM.json" "$dir/t/KRvKM.json" || fail "the statistics written again differ"
echo "damaged table and missing statistics: made again"
# A damaged table to be made again is held to --memory too (KRvKM: about 75 MB).
printf 'x' >> "$dir/race/KRvKM.mktb"
out=$("$mktb" gen KRvKM --memory 60M --tables "$dir/race" 2>&1 >/dev/null); code=$?
[ $code -eq 1 ] && echo "$out" | grep -q "KRvKM needs about 0\.[0-9]* GB .*more than the 0\.06 GB allowed (--memory); not generated" \
  || fail "a damaged table beyond --memory: $code $out"
# A FIFO with a table's name: refused at once by gen, probe and serve.
mkdir -p "$dir/fifo"; cp "$dir/t/KRvK.mktb" "$dir/t/KRvK.json" "$dir/fifo/"; mkfifo "$dir/fifo/KRvKR.mktb"
out=$(timeout 20 "$mktb" gen KRvKR --tables "$dir/fifo" 2>&1); code=$?
[ $code -eq 1 ] && echo "$out" | grep -q "KRvKR.mktb is not a regular file" || fail "gen and a FIFO: $code $out"
out=$(timeout 20 "$mktb" probe "8/8/8/3k4/8/8/r7/R3K3 w - - 0 1" --tables "$dir/fifo" 2>&1); code=$?
[ $code -eq 1 ] && echo "$out" | grep -q "KRvKR.mktb: not a regular file" || fail "probe and a FIFO: $code $out"
# serve leaves it out, reported, and serves the other tables (stopped by timeout after 3 s).
out=$(timeout 3 "$mktb" serve --tables "$dir/fifo" --port 0 2>&1); code=$?
[ $code -eq 124 ] && echo "$out" | grep -q "left out .*KRvKR.mktb: not a regular file" \
  && echo "$out" | grep -q "http://127.0.0.1:" || fail "serve and a FIFO: $code $out"
echo "a FIFO of a table's name: refused by gen and probe, left out by serve"

# 3c. Memory known before it is spent: an ending that needs more than --memory is refused with
#     the figure before anything is started; --list prints each ending's cells and memory. The
#     cell counts, by hand: 462 king pairs (8-fold symmetry) x 64 squares per man x metrics x 2
#     sides to move: KRvK 462 x 64 x 1 x 2 = 59,136; KRMvKN 462 x 64^3 x 2 x 2 = 0.484 G;
#     KMMMvKM 462 x 64 x 2^16 (the three Met ranked: C(64,3) = 41,664 in 16 bits) x 2 x 2
#     = 7.75 G (with a 6-bit field a Met, 31.00 G: about 39 GB, it killed a 24 GiB machine).
out=$("$mktb" gen KRMvKN --memory 100M --tables "$dir/mem" 2>&1); code=$?
[ $code -eq 1 ] && echo "$out" | grep -q "KRMvKN needs about 0\.[0-9]* GB (0\.48 G cells.*more than the 0\.10 GB allowed (--memory); nothing was started" \
  || fail "--memory: $code $out"
[ ! -e "$dir/mem" ] || [ -z "$(ls "$dir/mem")" ] || fail "--memory: something was generated: $(ls "$dir/mem")"
out=$("$mktb" gen KMMMvKM --memory 5G --tables "$dir/mem" 2>&1); code=$?
[ $code -eq 1 ] && echo "$out" | grep -q "KMMMvKM needs about [0-9.]* GB (7\.75 G cells" || fail "KMMMvKM: $code $out"
out=$("$mktb" gen KRvK --memory lots --tables "$dir/mem" 2>&1); code=$?
[ $code -eq 2 ] && echo "$out" | grep -q "\-\-memory needs a whole number of bytes" || fail "--memory lots: $code $out"
# Hexadecimal, an exponent (1e19 once passed as 10^19 bytes), a fraction of a byte, and a value
# beyond 2^64 - 1 are refused; a fraction of a unit that is whole bytes is taken.
for bad in 0x10G 1e19 1.5 0.3K 18446744073709551616 16777216T; do
  out=$("$mktb" gen KRvK --memory "$bad" --list --tables "$dir/mem" 2>&1); code=$?
  [ $code -eq 2 ] && echo "$out" | grep -q "whole number of bytes" || fail "--memory $bad: $code $out"
done
out=$("$mktb" gen KRvK --men 3 --list --tables "$dir/mem" 2>&1); code=$?
[ $code -eq 2 ] && echo "$out" | grep -q "give endings or --men N, not both" || fail "ENDING with --men: $code $out"
"$mktb" gen KRvK --memory 1.5K --list --tables "$dir/mem" > /dev/null 2>&1 || fail "--memory 1.5K refused"
"$mktb" gen KRvK --memory 18446744073709551615 --list --tables "$dir/mem" > /dev/null 2>&1 || fail "--memory 2^64-1 refused"
"$mktb" gen KRvK --list 2>/dev/null | grep -q "^KRvK  *59136 cells  *0\.[0-9]* GB" || fail "gen --list: $("$mktb" gen KRvK --list 2>&1)"
# --men 6: every 6-men ending listed, those over the memory allowed marked (KSNvKMM: 1806 king
# pairs x 64^2 x 2^11 for the two Met x 2 x 2 = 60.6 G cells), those under it not (KMMMvKM 7.75 G);
# a run leaves out, by name, what does not fit and what converts into it, and makes the rest.
"$mktb" gen --men 6 --list --memory 20G --tables "$dir/mem" > "$dir/list6" 2>"$dir/list6.err" || fail "--men 6 --list"
grep -q "^KSNvKMM  *60599304192 cells .*does not fit" "$dir/list6" || fail "--men 6 --list: KSNvKMM $(grep KSNvKMM "$dir/list6")"
grep "^KMMMvKM " "$dir/list6" | grep -q "does not fit" && fail "--men 6 --list: KMMMvKM marked"
# KRRPPvK fits by itself (7.57 G cells, 20.96 GB) but its Bia promotes into KRRMPvK, which does not.
grep -q "^KRRPPvK .*left out: converts into KRRMPvK, which does not fit" "$dir/list6" || fail "--men 6 --list: KRRPPvK $(grep KRRPPvK "$dir/list6")"
grep -q "endings, [0-9]* of them do not fit in the 21.47 GB allowed" "$dir/list6.err" || fail "--men 6 --list: $(cat "$dir/list6.err")"
out=$("$mktb" gen --men 3 --memory 1M --tables "$dir/men3" 2>&1); code=$?
[ $code -eq 0 ] && echo "$out" | grep -q "left out: KRvK needs about" && echo "$out" | grep -q "5 endings left out, 0 to make" \
  || fail "--men 3 under 1M: $code $out"
[ ! -e "$dir/men3/KRvK.mktb" ] || fail "--men 3 under 1M: KRvK was made"
# verify likewise: KRMvKN's table resident (a byte per cell: 0.48 GB) with the block cache of its
# children does not fit in 100 MB; nothing is started, and within the default it runs.
out=$("$mktb" verify KRMvKN --memory 100M --tables "$dir/t" 2>&1); code=$?
[ $code -eq 1 ] && echo "$out" | grep -q "KRMvKN needs about [0-9.]* GB (0\.48 G cells.*more than the 0\.10 GB allowed (--memory) to verify; nothing was started" \
  || fail "verify --memory: $code $out"
out=$("$mktb" verify KRvKM --memory 1 --tables "$dir/t" 2>&1); code=$?
[ $code -eq 1 ] || fail "verify --memory 1: $code $out"
echo "memory: $(echo "$out" | head -1); refused before anything was started"

# 4. Other counting options: generated again, or refused with --keep-other-rules.
"$mktb" gen KvKR --tables "$dir/rules" > /dev/null || fail "KvKR refused"
[ -e "$dir/rules/KRvK.mktb" ] || fail "KvKR did not make KRvK"
out=$("$mktb" gen KRvK --counter-mate draw --keep-other-rules --tables "$dir/rules" 2>&1 >/dev/null)
[ $? -eq 1 ] || fail "--keep-other-rules: exit code, expected 1"
echo "$out" | grep -q "KRvK in .* was built with .*counter_mate=win.*not replaced" \
  || fail "--keep-other-rules: unclear message: $out"
out=$("$mktb" gen KRvK --counter-mate draw --tables "$dir/rules" 2>&1 >/dev/null) || fail "regeneration failed"
echo "$out" | grep -q "generating it again with .*counter_mate=draw" || fail "no note of the regeneration: $out"
"$mktb" probe "8/8/8/4k3/8/8/8/R3K3 w - - 0 1" --counter-mate draw --tables "$dir/rules" > /dev/null \
  || fail "the regenerated table does not answer under its options"
"$mktb" gen KNSvK --tables "$dir/rules" > /dev/null && [ -e "$dir/rules/KSNvK.mktb" ] || fail "KSNvK"
echo "other rules: $out"
# 4b. More men of one kind than a table's index holds (five Met can occur, after promotions): a
#     clear error and exit 2, never an abort (it once ended in an uncaught exception, exit 134).
for args in "gen KMMMMMvK" "gen --list KPPPPPvK" "verify KMMMMMvK"; do
  out=$("$mktb" $args --tables "$dir/t" 2>&1 >/dev/null)
  code=$?
  [ $code -eq 2 ] || fail "mktb $args: exit code $code, expected 2"
  echo "$out" | grep -q "a table holds at most 4 men of one kind and colour" \
    || fail "mktb $args: unclear message: $out"
done
# 4c. verify of endings without tables: one line naming how many, the first few and the command
#     that makes them (it was a line per ending), the others verified, exit 1; endings and --men
#     together refused as gen refuses them.
out=$("$mktb" verify --men 4 KRRvKM --tables "$dir/t" 2>&1); code=$?
[ $code -eq 2 ] && echo "$out" | grep -q "give endings or --men N, not both" || fail "verify endings and --men: $code $out"
out=$("$mktb" verify KRvK KRRvKM KRSvKN --tables "$dir/t" 2>&1); code=$?
[ $code -eq 1 ] && [ "$(echo "$out" | grep -c 'mktb verify')" -eq 1 ] \
  && echo "$out" | grep -q "mktb verify: 2 of the 3 endings have no table in $dir/t: KRRvKM KRSvKN (make them: mktb gen --tables $dir/t ENDING...)" \
  && echo "$out" | grep -q "^KRvK: ok" || fail "verify without tables: $code $out"
out=$("$mktb" verify --game xiangqi KRvKN --tables "$dir/t" 2>&1); code=$?
[ $code -eq 1 ] && echo "$out" | grep -q "no table of KRvKN in $dir/t (make it: mktb gen --game xiangqi --tables $dir/t KRvKN)" \
  || fail "verify --game xiangqi without its table: $code $out"
# 5. An option of another command is refused by name, not ignored (verify once took gen's --list
#    and verified all 142 endings).
for args in "verify --list --men 3" "verify --counter-mate draw KRvK" "digest --threads 2 KRvK" \
    "digest --list KRvK" "verify --keep-other-rules KRvK" "pack --threads 2 KRvK" \
    "verify --out x KRvK"; do
  opt=$(echo "$args" | awk '{print $2}')
  out=$("$mktb" $args --tables "$dir/t" 2>&1 >/dev/null)
  code=$?
  [ $code -eq 2 ] || fail "mktb $args: exit code $code, expected 2"
  echo "$out" | grep -q "'$opt' is not an option of mktb" || fail "mktb $args: unclear message: $out"
done
echo "options of other commands: refused ($out)"
for cmd in perft gen verify digest probe pack; do
  "$mktb" $cmd --help | grep -q "^usage: mktb $cmd" || fail "mktb $cmd --help"
done
# Each command's --help lists its options from the same table the parser reads.
for pair in "gen --keep-other-rules" "pack --block-cells" "serve --request-deadline" "uci --engine" \
    "positions --min-moves" "teach --per-theme" "match --max-plies" "probe --epd" "perft --divide"; do
  set -- $pair
  "$mktb" $1 --help | grep -q "^  $2 " || fail "mktb $1 --help does not list $2"
  "$mktb" --help | grep -q "^  $1 " || fail "mktb --help does not list $1"
done
# The RULES block only where the options apply.
for cmd in perft verify digest pack serve uci; do
  "$mktb" $cmd --help | grep -q "RULES" && fail "mktb $cmd --help shows the counting options it does not take"
done
for cmd in gen probe teach positions match; do
  "$mktb" $cmd --help | grep -q "^RULES: the counting options" || fail "mktb $cmd --help lacks its RULES"
done

# 6. Packed tables: one side to move, the other searched one ply deep at probe time.
"$mktb" pack KRvKM KSPvK KRvKP --tables "$dir/t" --out "$dir/packed" > "$dir/pack.txt" \
  || fail "pack failed"
# Each ending with those it converts into: KRvKM, KRvK, KMvK, KSPvK, KSMvK, KSvK, KPvK, ...
tail -1 "$dir/pack.txt" | grep -q "^[0-9]* tables: .* bytes (0\.[0-9]*)$" \
  || fail "pack: no summary: $(tail -1 "$dir/pack.txt")"
[ -e "$dir/packed/KSMvK.mktb" ] && [ -e "$dir/packed/KRvK.json" ] \
  || fail "pack: the children or the statistics were not packed along"
for fen in "k7/8/8/8/8/8/m7/R3K3 w - 128 128 1" "k7/8/8/8/8/8/m7/R3K3 b - - 0 1" \
    "8/8/8/3k4/8/2P5/8/3K1S2 b - - 0 1" "8/8/8/3k4/8/2P5/8/3K1S2 w - - 0 1" \
    "8/8/3k4/8/2p5/8/8/R2K4 w - - 0 1" "8/8/3k4/8/2p5/8/8/R2K4 b - - 0 1"; do
  a=$("$mktb" probe "$fen" --json --tables "$dir/t") || fail "probe $fen (full)"
  b=$("$mktb" probe "$fen" --json --tables "$dir/packed") || fail "probe $fen (packed)"
  [ "$a" = "$b" ] || fail "packed and full tables answer $fen differently"
done
out=$("$mktb" pack KRvK --tables "$dir/t" 2>&1); code=$?
[ $code -eq 2 ] && echo "$out" | grep -q "usage: mktb pack" || fail "pack without --out: $code $out"
for bad in "--block-cells 1000" "--block-cells 32768" "--level 0" "--level x"; do
  out=$("$mktb" pack KRvK --tables "$dir/t" --out "$dir/p2" $bad 2>&1); code=$?
  [ $code -eq 2 ] && echo "$out" | grep -q -- "--[a-z-]* takes .*, not" || fail "pack $bad: $code $out"
done
out=$("$mktb" pack KRvK --tables "$dir/t" --out "$dir/t" 2>&1); code=$?
[ $code -eq 2 ] && echo "$out" | grep -q "is the directory of the tables" \
  || fail "pack into its own directory: $code $out"
out=$("$mktb" pack KRvKR --tables "$dir/packed" --out "$dir/p2" 2>&1); code=$?
[ $code -eq 1 ] && echo "$out" | grep -q "no table of KRvKR in $dir/packed" \
  || fail "pack of a missing table: $code $out"
out=$("$mktb" pack KRvK --tables "$dir/packed" --out "$dir/p2" 2>&1); code=$?
[ $code -eq 1 ] && echo "$out" | grep -q "packed already" || fail "pack of a packed table: $code $out"
out=$( (ulimit -f 20; "$mktb" pack KRvKR --tables "$dir/t" --out "$dir/p3") 2>&1 >/dev/null)
code=$?
[ $code -eq 1 ] && echo "$out" | grep -q "cannot write .*\.mktb\.tmp: File too large; no table was written" \
  || fail "pack on a full disk: $code $out"
ls "$dir/p3" | grep -q '\.tmp$' && fail "pack on a full disk: a temporary file was left"
out=$("$mktb" verify KRvKM --tables "$dir/packed" 2>&1); code=$?
[ $code -eq 1 ] && echo "$out" | grep -q "KRvKM.mktb: a packed table" \
  || fail "verify of a packed table: $code $out"
out=$("$mktb" gen KRvK --tables "$dir/packed" 2>&1 >/dev/null) || fail "gen over a packed table: $out"
echo "$out" | grep -q "KRvK in .* is packed (one side to move); generating it again" \
  || fail "gen over a packed table: no note: $out"
"$mktb" verify KRvK --tables "$dir/packed" > /dev/null || fail "the table made again is not full"
echo "pack: $(tail -1 "$dir/pack.txt")"
echo "ok"

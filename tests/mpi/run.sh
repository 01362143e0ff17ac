#!/bin/sh
# tests/mpi/run.sh MKTB MKTB_MPI MPIEXEC - mktb-mpi against one process (issues 35, 59): the tables
# that 1, 2 and 3 ranks write on this machine (--oversubscribe: more ranks than cores) are the
# one-process files byte for byte, with the same statistics; the bytes exchanged are printed per
# level; an ending that one process refuses under --memory M is made by 2 ranks under less than
# M each; a refusal or a bad request ends every rank with the error, and so does one rank's
# failure alone (no hang). Exit 77 (skipped) where mktb-mpi was not built (no MPI found).
set -eu
mktb=$1 mpi=$2 mpiexec=$3
if [ ! -x "$mpi" ] || ! command -v "$mpiexec" >/dev/null; then
  echo "skipped: mktb-mpi not built (install openmpi-bin and libopenmpi-dev: scripts/setup)"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export MKTB_NO_PROGRESS=1
# Shared memory between ranks without cross-memory attach (process_vm_readv), which a container
# without ptrace rights refuses: a copy more, and no dependence on the machine's settings.
export OMPI_MCA_btl_vader_single_copy_mechanism=none
ranks() { n=$1; shift; timeout 600 "$mpiexec" --oversubscribe --allow-run-as-root -np "$n" "$mpi" "$@"; }

# What each covers: two men under the 8-fold symmetry (KRvKS), a Bia and the Bia-phase metric
# stored against DTM (KMPvK), Bia on both sides (KPvKP), twins (KMMvK), a ranked group of three
# Met written through the scatter plan (KMMMvK); with them their 3- and 4-men children: 11 tables.
endings="KRvKS KMPvK KPvKP KMMvK KMMMvK"
"$mktb" gen $endings --tables "$dir/one" --threads 1 >"$dir/one.log" 2>&1 || fail "mktb gen"
# The statistics without what a run's timing or split changes.
figures() {
  python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
for k in ("seconds", "phase_seconds", "file_bytes", "ranks", "exchanged_bytes"): j.pop(k, None)
print(json.dumps(j, sort_keys=True))' "$1"
}
# same ONE MANY EXT N: each of the N tables ONE/*EXT (.mktb, or Xiangqi's .xq.mktb) is in MANY
# byte for byte, and the figures of its statistics (.json, .xq.json) are the same.
same() {
  count=0
  for f in "$1"/*"$3"; do
    e=$(basename "$f" "$3") stats=${3%mktb}json
    cmp -s "$f" "$2/$e$3" || fail "$2: $e$3 differs from one process's"
    [ "$(figures "$1/$e$stats")" = "$(figures "$2/$e$stats")" ] \
      || fail "$2: $e$stats's figures differ from one process's"
    count=$((count + 1))
  done
  [ "$count" -eq "$4" ] || fail "$2: expected $4 tables, found $count"
}
# exchanged LOG STATS N: the bytes N ranks exchanged, printed per level in LOG and kept in STATS.
exchanged() {
  grep -q "level   1: [0-9.]* MB exchanged by $3 ranks" "$1" || fail "$1: no bytes exchanged printed"
  python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
assert j["ranks"] == int(sys.argv[2]) and len(j["exchanged_bytes"]) == j["levels"] and sum(j["exchanged_bytes"]) > 0, j' \
    "$2" "$3" || fail "$2: no exchanged_bytes per level"
}
for n in 1 2 3; do
  ranks "$n" gen $endings --tables "$dir/r$n" --threads 1 >"$dir/r$n.log" 2>&1 \
    || { cat "$dir/r$n.log"; fail "$n ranks: mktb-mpi gen"; }
  same "$dir/one" "$dir/r$n" .mktb 11
  echo "ok: $n ranks: 11 tables byte-identical to one process's, same statistics"
done
# The lists cross between ranks at every level of KRvKS.
exchanged "$dir/r2.log" "$dir/r2/KRvKS.json" 2
echo "ok: bytes exchanged printed per level and kept in the statistics"

# Memory per rank: under M (the one-process estimate less 1 MB) one process refuses KMMMvK;
# 2 ranks, each under its share's estimate M2 < M, make it, byte-identical.
mkdir "$dir/mem"
cp "$dir"/one/KMMvK.* "$dir"/one/KMvK.* "$dir/mem/"
gb() { awk -v e="$1" '$1 == e { print $4 }'; }
one=$("$mktb" gen KMMMvK --list --tables "$dir/mem" 2>/dev/null | gb KMMMvK)
two=$(ranks 2 gen KMMMvK --list --tables "$dir/mem" 2>/dev/null | gb KMMMvK)
m=$(awk -v g="$one" 'BEGIN { printf "%d", g * 1e9 - 1e6 }')
m2=$(awk -v g="$two" 'BEGIN { printf "%d", g * 1e9 + 5e5 }')
[ "$m2" -lt "$m" ] || fail "2 ranks need $m2 bytes each, not less than one process's $m"
if "$mktb" gen KMMMvK --tables "$dir/mem" --memory "$m" >"$dir/mem1.log" 2>&1; then
  fail "one process made KMMMvK under --memory $m"
fi
grep -q "KMMMvK needs about" "$dir/mem1.log" || fail "no refusal message: $(cat "$dir/mem1.log")"
ranks 2 gen KMMMvK --tables "$dir/mem" --memory "$m2" --threads 1 >"$dir/mem2.log" 2>&1 \
  || { cat "$dir/mem2.log"; fail "2 ranks under --memory $m2 each"; }
cmp -s "$dir/mem/KMMMvK.mktb" "$dir/one/KMMMvK.mktb" || fail "KMMMvK under --memory differs"
echo "ok: KMMMvK refused by one process under $m bytes, made by 2 ranks under $m2 each"

# Refusals end every rank, with the reason, and a non-zero exit.
rm "$dir/mem/KMMMvK.mktb"
if ranks 2 gen KMMMvK --tables "$dir/mem" --memory 1M >"$dir/small.log" 2>&1; then
  fail "2 ranks made KMMMvK under 1 MiB each"
fi
grep -q "KMMMvK needs about .* per rank on 2 ranks" "$dir/small.log" \
  || fail "no per-rank refusal: $(cat "$dir/small.log")"
if ranks 2 gen KQvK --tables "$dir/mem" >"$dir/bad.log" 2>&1; then fail "KQvK accepted"; fi
grep -q "mktb gen: " "$dir/bad.log" || fail "no error for KQvK: $(cat "$dir/bad.log")"
if ranks 2 gen --set armed --tables "$dir/mem" >"$dir/set.log" 2>&1; then fail "--set without --game xiangqi accepted"; fi
grep -q "with --game xiangqi" "$dir/set.log" || fail "no reason for --set: $(cat "$dir/set.log")"
echo "ok: refusals and bad requests end every rank with the reason"

# Xiangqi (issue 59): KNPvKAB (7.8 M slots: each rank's share in several parts, the updates
# exchanged more than once a level) and its children over 2 and 3 ranks are the one process's
# files byte for byte, with the same statistics (1 rank: Makruk's runs above, and the Catch2
# case with threads as ranks); KRvKN (both sides armed: the perpetual-check pass) is made by
# rank 0 alone, the same file; never Makruk's KRvKN.
xq="KNPvKAB KRvKN"
"$mktb" gen --game xiangqi $xq --tables "$dir/xq-one" --threads 1 >"$dir/xq-one.log" 2>&1 \
  || { cat "$dir/xq-one.log"; fail "mktb gen --game xiangqi"; }
for n in 2 3; do
  ranks "$n" gen --game xiangqi $xq --tables "$dir/xq$n" --threads 1 >"$dir/xq$n.log" 2>&1 \
    || { cat "$dir/xq$n.log"; fail "$n ranks: mktb-mpi gen --game xiangqi"; }
  same "$dir/xq-one" "$dir/xq$n" .xq.mktb 18
  [ ! -e "$dir/xq$n/KRvKN.mktb" ] || fail "--game xiangqi wrote Makruk's KRvKN"
  echo "ok: Xiangqi over $n ranks: 18 tables byte-identical to one process's, same statistics"
done
exchanged "$dir/xq3.log" "$dir/xq3/KNPvKAB.xq.json" 3
ranks 2 gen --game xiangqi KNPvKAB KRvKN --list --tables "$dir/xq2" 2>/dev/null \
  | grep -q "^KRvKN .* on rank 0 alone" || fail "--list does not say KRvKN is made on rank 0 alone"
echo "ok: Xiangqi's bytes exchanged printed per level and kept; armed endings on rank 0 alone"

# Rank 0 failing alone (its table's path is a directory) while the others go on: every rank is
# stopped (MPI_Abort after 10 s without them), with rank 0's reason, not left waiting.
mkdir -p "$dir/alone/KRvK.mktb"
if ranks 2 gen KRvK --tables "$dir/alone" >"$dir/alone.log" 2>&1; then fail "KRvK made over a directory"; fi
grep -q "KRvK.mktb is not a regular file" "$dir/alone.log" || fail "no reason: $(cat "$dir/alone.log")"
echo "ok: a rank failing alone stops every rank"

#!/bin/sh
# tests/mpi/run.sh MKTB MKTB_MPI MPIEXEC - mktb-mpi against one process (issue 35): the tables
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
for n in 1 2 3; do
  ranks "$n" gen $endings --tables "$dir/r$n" --threads 1 >"$dir/r$n.log" 2>&1 \
    || { cat "$dir/r$n.log"; fail "$n ranks: mktb-mpi gen"; }
  count=0
  for f in "$dir"/one/*.mktb; do
    e=$(basename "$f" .mktb)
    cmp -s "$f" "$dir/r$n/$e.mktb" || fail "$n ranks: $e.mktb differs from one process's"
    [ "$(figures "$dir/one/$e.json")" = "$(figures "$dir/r$n/$e.json")" ] \
      || fail "$n ranks: $e.json's figures differ from one process's"
    count=$((count + 1))
  done
  [ "$count" -eq 11 ] || fail "expected 11 tables, found $count"
  echo "ok: $n ranks: $count tables byte-identical to one process's, same statistics"
done
# The lists cross between ranks at every level of KRvKS: printed, and in its statistics.
grep -q "level   1: [0-9.]* MB exchanged by 2 ranks" "$dir/r2.log" || fail "no bytes exchanged printed"
python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
assert j["ranks"] == 2 and len(j["exchanged_bytes"]) == j["levels"] and sum(j["exchanged_bytes"]) > 0, j' \
  "$dir/r2/KRvKS.json" || fail "KRvKS.json: no exchanged_bytes per level"
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
# Xiangqi is not generated over ranks yet: refused, never Makruk's KRvKN written instead.
if ranks 2 gen --game xiangqi KRvKN --tables "$dir/xq" >"$dir/xq.log" 2>&1; then fail "--game xiangqi accepted"; fi
grep -q "one process only" "$dir/xq.log" || fail "no reason for --game xiangqi: $(cat "$dir/xq.log")"
[ ! -e "$dir/xq/KRvKN.mktb" ] || fail "--game xiangqi wrote Makruk's KRvKN"
"$mpi" --help | grep -q -- "--game" && fail "mktb-mpi --help offers --game xiangqi, which it refuses"
echo "ok: refusals and bad requests end every rank with the reason"

# Rank 0 failing alone (its table's path is a directory) while the others go on: every rank is
# stopped (MPI_Abort after 10 s without them), with rank 0's reason, not left waiting.
mkdir -p "$dir/alone/KRvK.mktb"
if ranks 2 gen KRvK --tables "$dir/alone" >"$dir/alone.log" 2>&1; then fail "KRvK made over a directory"; fi
grep -q "KRvK.mktb is not a regular file" "$dir/alone.log" || fail "no reason: $(cat "$dir/alone.log")"
echo "ok: a rank failing alone stops every rank"

#!/bin/sh
# tests/cli/tmpfs.sh MKTB - `mktb gen` on a disk that is really full: a 200 KB tmpfs, where the
# table of KRvKR (about 1 MB) cannot fit. It stops with "No space left on device" naming the
# file, exit code 1, and leaves no table and no temporary file. Where this user may not mount a
# tmpfs the test says so and exits 77, which CTest reports as skipped (not passed).
set -u
mktb=$1
dir=$(mktemp -d /tmp/mktb-tmpfs-test.XXXXXX)
trap 'umount "$dir/small" 2>/dev/null; rm -rf "$dir"' EXIT
export MKTB_NO_PROGRESS=1
mkdir -p "$dir/small"
if ! mount -t tmpfs -o size=200k tmpfs "$dir/small" 2>/dev/null; then
  echo "skipped: this user cannot mount a tmpfs (the file-size limit case in gen.sh still runs)"
  exit 77
fi
"$mktb" gen KRvK --tables "$dir/small" > /dev/null || { echo "FAIL: KRvK on the tmpfs"; exit 1; }
out=$("$mktb" gen KRvKR --tables "$dir/small" 2>&1 >/dev/null)
code=$?
[ $code -eq 1 ] || { echo "FAIL: exit code $code, expected 1 ($out)"; exit 1; }
echo "$out" | grep -q "No space left on device" || { echo "FAIL: unclear message: $out"; exit 1; }
ls "$dir/small" | grep -q 'KRvKR' && { echo "FAIL: a partial table was left"; exit 1; }
echo "small tmpfs: $out"

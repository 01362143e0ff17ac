#!/bin/sh
# run.sh BUILD_DIR TABLES_DIR [SOURCE_DIR] - builds tests/consumer against mktb and runs it on the
# tables: without SOURCE_DIR against the build installed into a scratch prefix
# (find_package(mktb)), with it through add_subdirectory of the source tree.
set -eu
build=$1
tables=$2
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
if [ $# -ge 3 ]; then
  how="-DMKTB_SOURCE_DIR=$3"
else
  cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
  how="-DCMAKE_PREFIX_PATH=$scratch/prefix"
fi
cmake -S "$here" -B "$scratch/build" -G Ninja -DCMAKE_BUILD_TYPE=Release "$how" >/dev/null
cmake --build "$scratch/build" >/dev/null
"$scratch/build/consumer" "$tables"

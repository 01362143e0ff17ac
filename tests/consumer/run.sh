#!/bin/sh
# run.sh BUILD_DIR TABLES_DIR [SOURCE_DIR] - builds tests/consumer against mktb and runs it on the
# tables: without SOURCE_DIR against the build installed into a scratch prefix
# (find_package(mktb)), with it through add_subdirectory of the source tree. Either way oneTBB
# must not be needed: CMake may not find it, and the program may not load it.
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
cmake -S "$here" -B "$scratch/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_DISABLE_FIND_PACKAGE_TBB=ON --no-warn-unused-cli "$how" >/dev/null
cmake --build "$scratch/build" >/dev/null
if ldd "$scratch/build/consumer" | grep -q tbb; then
  echo "the consumer loads oneTBB: the probing library must not need it"
  exit 1
fi
"$scratch/build/consumer" "$tables"

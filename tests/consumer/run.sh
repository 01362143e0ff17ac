#!/bin/sh
# run.sh BUILD_DIR TABLES_DIR - installs the mktb build into a scratch prefix, configures and
# builds tests/consumer against it with find_package(mktb), and runs it on the tables.
set -eu
build=$1
tables=$2
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
cmake -S "$here" -B "$scratch/build" -G Ninja -DCMAKE_PREFIX_PATH="$scratch/prefix" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$scratch/build" >/dev/null
"$scratch/build/consumer" "$tables"

#!/bin/sh
# run.sh BUILD_DIR TABLES_DIR [SOURCE_DIR] - builds the consumers in tests/consumer against mktb
# and runs them on the tables: the C++ one and the one in C alone (c/), without SOURCE_DIR
# against the build installed into a scratch prefix (find_package(mktb), and for the C one also
# pkg-config with a plain `cc`), with it through add_subdirectory of the source tree. With
# SOURCE_DIR, mktb's probing libraries are also built shared (BUILD_SHARED_LIBS) and the C
# consumer linked to them through pkg-config. oneTBB must never be needed: CMake may not find
# it, and the programs may not load it.
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
for kind in cxx c; do
  src=$here
  [ $kind = c ] && src=$here/c
  cmake -S "$src" -B "$scratch/$kind" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_DISABLE_FIND_PACKAGE_TBB=ON --no-warn-unused-cli "$how" >/dev/null
  cmake --build "$scratch/$kind" >/dev/null
  if ldd "$scratch/$kind/consumer" | grep -q tbb; then
    echo "the $kind consumer loads oneTBB: the probing library must not need it"
    exit 1
  fi
  "$scratch/$kind/consumer" "$tables"
done
if [ $# -lt 3 ]; then
  # The installed headers are the promised ones (the table format, its reader and Index's fast
  # paths stay private), and each compiles on its own.
  installed=$(cd "$scratch/prefix/include/mktb" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | tr '\n' ' ')
  promised="counting.hpp errors.hpp index.hpp material.hpp movegen.hpp position.hpp probe.h probe.hpp rules.hpp types.hpp value.hpp xiangqi/index.hpp xiangqi/position.hpp xiangqi/rules.hpp "
  [ "$installed" = "$promised" ] || { echo "installed headers: $installed; promised: $promised"; exit 1; }
  for h in "$scratch"/prefix/include/mktb/*.hpp "$scratch"/prefix/include/mktb/xiangqi/*.hpp; do
    echo "#include \"mktb/${h#"$scratch"/prefix/include/mktb/}\"" | c++ -std=c++20 -fsyntax-only -I"$scratch/prefix/include" -x c++ - \
      || { echo "mktb/$(basename "$h") does not compile on its own"; exit 1; }
  done
  echo '#include "mktb/probe.h"' | cc -std=c99 -fsyntax-only -I"$scratch/prefix/include" -x c - \
    || { echo "mktb/probe.h does not compile in C99"; exit 1; }
  # pkg-config and a plain C compiler, static libraries.
  PKG_CONFIG_PATH=$scratch/prefix/lib/pkgconfig:$scratch/prefix/lib/x86_64-linux-gnu/pkgconfig
  export PKG_CONFIG_PATH
  cc -std=c99 -o "$scratch/pc" "$here/c/consumer.c" $(pkg-config --cflags --libs mktb)
  "$scratch/pc" "$tables"
else
  # Shared libraries (the probing libraries only), found through pkg-config.
  cmake -S "$3" -B "$scratch/shared" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
    -DMKTB_BUILD_GENERATOR=OFF -DCMAKE_INSTALL_PREFIX="$scratch/sprefix" >/dev/null
  cmake --build "$scratch/shared" >/dev/null
  cmake --install "$scratch/shared" >/dev/null
  libdir=$(dirname "$(find "$scratch/sprefix" -name 'libmktb_probe.so' | head -1)")
  PKG_CONFIG_PATH=$libdir/pkgconfig
  export PKG_CONFIG_PATH
  cc -std=c99 -o "$scratch/shared-pc" "$here/c/consumer.c" $(pkg-config --cflags --libs mktb)
  ldd "$scratch/shared-pc" | grep -q libmktb_probe.so || { echo "not linked to the shared library"; exit 1; }
  LD_LIBRARY_PATH=$libdir "$scratch/shared-pc" "$tables"
fi

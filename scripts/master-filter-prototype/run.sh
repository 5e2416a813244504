#!/bin/sh
# Builds and runs the master-filter kernel prototype's harness (issue 38; docs/hearing.md).
# Needs clang and an x86-64 CPU with AVX2 (and AVX-512VL for the last column).
set -e
here=$(cd "$(dirname "$0")" && pwd)
root="$here/../.."
out=$(mktemp -d)
clang -O2 -I"$root/Sources/C/CNoiseKernels/include" -c "$root/Sources/C/CNoiseKernels/Cascade.c" -o "$out/cascade.o"
clang -O2 -c "$here/cascade_skew2.c" -o "$out/proto.o"
clang -O2 "$here/bench.c" "$out/cascade.o" "$out/proto.o" -o "$out/bench" -lm
"$out/bench"
rm -rf "$out"

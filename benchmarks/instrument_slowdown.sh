#!/usr/bin/env bash
# Whole-program cost of libccrc_instrument (issue 13): the ccrc tool built four ways, in
# Release, and timed on two DaCapo-scale jobs (reading and summarising a generated pmd-sized
# profile, and generating one):
#   plain         uninstrumented
#   instrumented  -finstrument-functions + libccrc_instrument (every function, the inline
#                 functions of the standard library and of ccrc's headers included)
#   instr_no_std  the same without the standard library's inline functions
#                 (-finstrument-functions-exclude-file-list=/usr/include)
#   gprof         -pg: the classic instrumenting profiler, for comparison
#   clang_plain, clang_after_inlining   the same with clang, instrumented with
#                 -finstrument-functions-after-inlining (the functions left after inlining,
#                 as -pg does)
# and the size of the profile each profiler writes. Usage:
#   benchmarks/instrument_slowdown.sh [WORKDIR]     (JOBS=n for parallel builds; default 1)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$src/build/slowdown}
jobs=${JOBS:-1}
mkdir -p "$work"
common=(-DCMAKE_BUILD_TYPE=Release -DCCRC_BUILD_TESTS=OFF -DCCRC_BUILD_BENCHMARKS=OFF)
if command -v ccache >/dev/null; then common+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi

build() {
  local name=$1
  shift
  cmake -S "$src" -B "$work/$name" "${common[@]}" "$@" >/dev/null
  cmake --build "$work/$name" -j"$jobs" --target ccrc_tool >/dev/null
}
build plain
build instrumented -DCCRC_INSTRUMENT_TOOL=ON
build instr_no_std -DCCRC_INSTRUMENT_TOOL=ON -DCMAKE_CXX_FLAGS=-finstrument-functions-exclude-file-list=/usr/include
build gprof -DCMAKE_CXX_FLAGS=-pg -DCMAKE_EXE_LINKER_FLAGS=-pg
build clang_plain -DCMAKE_CXX_COMPILER=clang++
build clang_after_inlining -DCMAKE_CXX_COMPILER=clang++ -DCCRC_INSTRUMENT_TOOL=ON \
  -DCCRC_INSTRUMENT_FLAGS=-finstrument-functions-after-inlining

input=$work/pmd.cctb
"$work/plain/examples/ccrc" generate --like pmd -o "$input" >/dev/null

# Best of three wall-clock times, in seconds, of one variant on one job; in $work/run.
best_of_three() {
  local variant=$1
  shift
  local best=""
  for _ in 1 2 3; do
    rm -rf "$work/run" && mkdir -p "$work/run"
    local start end t
    start=$(date +%s.%N)
    (cd "$work/run" && CCRC_OUT="$work/run/profile.cctb" "$work/$variant/examples/ccrc" "$@" >/dev/null)
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc -l)
    if [[ -z $best ]] || (($(echo "$t < $best" | bc -l))); then best=$t; fi
  done
  printf '%.3f' "$best"
}

for job in "stats $input" "generate --like pmd -o $work/run/out.cctb"; do
  echo "## ccrc ${job%% *}"
  for variant in plain instrumented instr_no_std gprof clang_plain clang_after_inlining; do
    # shellcheck disable=SC2086
    t=$(best_of_three "$variant" $job)
    [[ $variant == *plain ]] && base=$t
    size=""
    if [[ -f $work/run/profile.cctb ]]; then
      stats=$("$work/plain/examples/ccrc" stats "$work/run/profile.cctb" --json)
      contexts=$(sed -n 's/^{"nodes": *\([0-9]*\).*/\1/p' <<<"$stats")
      calls=$(sed -n 's/.*"name": "calls", "total": *\([0-9.e+]*\).*/\1/p' <<<"$stats")
      per_call=$(echo "scale=1; ($t - $base) * 1000000000 / $calls" | bc -l)
      size="profile $(stat -c %s "$work/run/profile.cctb") bytes, $contexts contexts, $calls calls, $per_call ns a call"
    elif [[ -f $work/run/gmon.out ]]; then
      size="gmon.out $(stat -c %s "$work/run/gmon.out") bytes"
    fi
    printf '%-13s %8s s  x%-6s %s\n' "$variant" "$t" "$(echo "scale=2; $t / $base" | bc -l)" "$size"
  done
done

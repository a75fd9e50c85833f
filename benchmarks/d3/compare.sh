#!/bin/sh
# The peer comparison: the same generated DaCapo CCTs laid out by d3-hierarchy's partition in
# Node.js and measured by ccrc's benchmarks, in one run.
#
#   benchmarks/d3/compare.sh [BUILD_DIR] [NAME...]     (default: build/release, all eleven)
#
# Needs the release build (cmake --preset release && cmake --build --preset release) and
# `npm ci` in benchmarks/d3. Without node, says so and exits 0.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build/release}
[ $# -gt 0 ] && shift
names=${*:-"antlr bloat chart eclipse fop hsqldb jython luindex lusearch pmd xalan"}

# shellcheck source=setup.sh
. "$here/setup.sh"
filter=$(echo "$names" | tr ' ' '|')
"$build/benchmarks/ccrc_bench_dacapo" --benchmark_filter="^inclusive/($filter)\$" \
  --benchmark_min_time=0.2 --benchmark_format=json --benchmark_out="$work/ccrc.json" >/dev/null
"$build/benchmarks/ccrc_bench_dacapo_views" --benchmark_filter="^ring_layout(_uncut)?/($filter)\$" \
  --benchmark_min_time=0.2 --benchmark_format=json --benchmark_out="$work/ccrc_views.json" >/dev/null
for name in $names; do
  "$build/examples/ccrc" generate --like "$name" -o "$work/$name.cct" >/dev/null
done
files=""
for name in $names; do files="$files $work/$name.cct"; done
# shellcheck disable=SC2086
node --max-old-space-size=8192 "$here/partition.mjs" --ccrc "$work/ccrc.json" --ccrc "$work/ccrc_views.json" $files

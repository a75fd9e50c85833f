#!/bin/sh
# The folded-stacks peer comparison: one folded file read by ccrc's reader (ccrc_bench_folded,
# mapped and through read()) and by a JavaScript reader building a d3.hierarchy (folded.mjs),
# in one run.
#
#   benchmarks/d3/folded.sh [BUILD_DIR] [FILE.folded]
#
# Without a file, writes `ccrc generate --like xalan --contexts 1000000` as folded stacks to a
# temporary file (1.3 GB). Needs the release build (cmake --preset release && cmake --build --preset
# release) and `npm ci` in benchmarks/d3. Without node, says so and exits 0.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build/release}
file=${2:-}

# shellcheck source=setup.sh
. "$here/setup.sh"
if [ -z "$file" ]; then
  file=$work/xalan.folded
  "$build/examples/ccrc" generate --like xalan --contexts 1000000 --force -o "$file" >/dev/null
fi
CCRC_BENCH_FOLDED=$file "$build/benchmarks/ccrc_bench_folded" --benchmark_filter='^read_path_' \
  --benchmark_min_time=1 --benchmark_format=json --benchmark_out="$work/ccrc.json" >/dev/null
node --max-old-space-size=8192 "$here/folded.mjs" --ccrc "$work/ccrc.json" "$file"

#!/bin/sh
# speedscope's importer (jlfwong/speedscope 1.25.0, fetched from the npm registry into a
# temporary directory; not part of ccrc) in node, against ccrc's readers, on the very files
# the format benchmarks read: the benchmark programs of BUILD (a release build) write their
# generated inputs (CCRC_BENCH_SAVE), then compare.js times speedscope's import of each
# (import.js, a fresh node process per file) and `ccrc stats --timings` on it, and checks
# that both find the same total. Prints a markdown table, then the raw results.
#
#   benchmarks/speedscope/importers.sh BUILD [FILE-PATTERN]
#   (FILE-PATTERN: a shell pattern of the generated files' names, default '*';
#    CCRC_IMPORT_TIMEOUT_S: speedscope's time limit per file, default 1800)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd) pattern=${2:-*}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent speedscope@1.25.0 > /dev/null && tar xzf speedscope-1.25.0.tgz)
mkdir "$work/files"
# The cheapest benchmark of each program makes (and so saves) every input it reads.
bench() { CCRC_BENCH_SAVE="$work/files" "$build/benchmarks/ccrc_bench_$1" --benchmark_filter="$2" --benchmark_min_time=0.01 > /dev/null; }
bench perf_script baseline
bench callgrind baseline
bench formats_pprof baseline
bench formats_speedscope simdjson
bench formats_v8_profile simdjson
bench formats_gecko simdjson
bench formats_trace_event '^ondemand_(x_on_return|b_e_in_order|profile_chunks)'
uptime
cd "$work/files"
# shellcheck disable=SC2086 # the pattern is meant to expand
node "$here/compare.js" "$work/package" "$build/examples/ccrc" $pattern

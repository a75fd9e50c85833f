#!/usr/bin/env bash
# What libccrc_sample costs a program (issue 13): the ccrc tool's plain Release build (as
# benchmarks/instrument_slowdown.sh builds it) reading and summarising a generated
# eclipse-sized profile (`ccrc stats`, 2.17 million contexts), run without the library, with
# it at its default rate (100 samples a CPU second) and at 1000 asked for. Sampling costs too
# little to see in one wall-clock run on a shared machine, so the runs are interleaved, ROUNDS
# of each (default 21), and the medians of their CPU time (perf stat's task-clock: every
# thread, the library's drain thread included) and wall time are printed, with the samples
# each profile holds; beside them, in the same session, the run instrumented with
# libccrc_instrument (-finstrument-functions, as instrument_slowdown.sh builds it, if WORKDIR
# has it), 3 times only: it takes 30 times as long. Usage:
#   benchmarks/sample_overhead.sh [WORKDIR]     (the same WORKDIR as instrument_slowdown.sh)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$src/build/slowdown}
rounds=${ROUNDS:-21}
mkdir -p "$work"
if [[ ! -x $work/plain/examples/ccrc || ! -f $work/plain/examples/libccrc_sample.so ]]; then
  cmake -S "$src" -B "$work/plain" -DCMAKE_BUILD_TYPE=Release -DCCRC_BUILD_TESTS=OFF -DCCRC_BUILD_BENCHMARKS=OFF >/dev/null
  cmake --build "$work/plain" -j"${JOBS:-1}" --target ccrc_tool ccrc_sample >/dev/null
fi
ccrc=$work/plain/examples/ccrc
input=$work/eclipse.cctb
[[ -f $input ]] || "$ccrc" generate --like eclipse -o "$input" >/dev/null
run=$work/sample_run
mkdir -p "$run"

# One run of a variant: its task-clock in milliseconds on stdout.
one() {
  local variant=$1 preload="" hz=100 program=$ccrc
  case $variant in
  sampled) preload=$work/plain/examples/libccrc_sample.so ;;
  sampled_1000) preload=$work/plain/examples/libccrc_sample.so hz=1000 ;;
  instrumented) program=$work/instrumented/examples/ccrc ;;
  esac
  perf stat -x, -e task-clock -o "$run/perf.txt" \
    env CCRC_OUT="$run/$variant.cctb" CCRC_SAMPLE_HZ=$hz LD_PRELOAD="$preload" "$program" stats "$input" >/dev/null
  local cpu
  cpu=$(sed -n 's/^\([0-9.]*\),msec,task-clock.*/\1/p' "$run/perf.txt")
  echo "$cpu"
}

declare -A cpu wall
variants=(plain sampled sampled_1000)
[[ -x $work/instrumented/examples/ccrc ]] && variants+=(instrumented)
for ((r = 0; r < rounds; ++r)); do
  for v in "${variants[@]}"; do
    [[ $v == instrumented && $r -ge 3 ]] && continue
    start=$(date +%s.%N)
    c=$(one "$v")
    end=$(date +%s.%N)
    cpu[$v]+="$c "
    wall[$v]+="$(echo "$end - $start" | bc -l) "
  done
done

median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
plain_cpu=$(median <<<"${cpu[plain]}")
plain_wall=$(median <<<"${wall[plain]}")
echo "ccrc stats eclipse.cctb, $rounds interleaved runs each (instrumented: 3), medians; $(uptime | sed 's/.*load/load/')"
for v in "${variants[@]}"; do
  c=$(median <<<"${cpu[$v]}")
  w=$(median <<<"${wall[$v]}")
  samples=""
  if [[ -f $run/$v.cctb ]]; then
    stats=$("$ccrc" stats "$run/$v.cctb" --json)
    count=$(sed -n 's/.*"name": "samples", "total": *\([0-9.e+]*\).*/\1/p' <<<"$stats")
    what=samples
    [[ -z $count ]] && count=$(sed -n 's/.*"name": "calls", "total": *\([0-9.e+]*\).*/\1/p' <<<"$stats") && what=calls
    samples="$count $what, profile $(stat -c %s "$run/$v.cctb") bytes"
  fi
  printf '%-13s cpu %8.1f ms  x%-6s wall %6.3f s  x%-6s %s\n' "$v" "$c" "$(echo "scale=3; $c / $plain_cpu" | bc -l)" \
    "$w" "$(echo "scale=3; $w / $plain_wall" | bc -l)" "$samples"
done

#!/usr/bin/env bash
# What libccrc_instrument costs a program (issues 13 and 46), in one run, on two programs:
#   fib    benchmarks/instrument_fib.cpp, g++ -O2: fib(34) and 4 million virtual calls, 30.5
#          million calls recorded with -finstrument-functions (vector::operator[] and size()
#          inlined into main, with their hooks)
#   ccrc   the ccrc tool itself (Release, g++): `ccrc stats` of a generated pmd-sized profile
# each run these ways:
#   plain    uninstrumented
#   gprof    -pg: calls counted exactly (call arcs), time sampled
#   sampled  -finstrument-functions + the static libccrc_instrument, as docs/instrument.md
#            builds first and it runs by default: every call counted in its context, time
#            sampled; the hooks are called directly and find their thread-locals at a fixed offset
#   exact    the same binary with CCRC_TIME=exact: a clock read in every hook
#   shared   -finstrument-functions + the shared libccrc_instrument (sampled time): the hooks
#            called through the PLT, the thread-locals' offset read from the GOT
#   empty    the floor, the cost of the compiler's calls to hooks that do nothing: fib linked
#            with them (beside the static library's sampled), and the shared build with them
#            LD_PRELOADed (beside shared; the tool's only floor)
# Usage: benchmarks/instrument_slowdown.sh [WORKDIR]     (JOBS=n for the builds; default 2;
#        BUILD=no measures the tools already built in WORKDIR, on a machine left idle for it)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$src/build/slowdown}
jobs=${JOBS:-2}
rounds=${ROUNDS:-11}
rounds_tool=${ROUNDS_TOOL:-5}
mkdir -p "$work"
common=(-DCMAKE_BUILD_TYPE=Release -DCCRC_BUILD_TESTS=OFF -DCCRC_BUILD_BENCHMARKS=OFF)
if command -v ccache >/dev/null; then common+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi

build() {
  local name=$1
  shift
  [[ ${BUILD:-yes} == no && -x $work/$name/examples/ccrc ]] && return
  cmake -S "$src" -B "$work/$name" "${common[@]}" "$@" >/dev/null
  cmake --build "$work/$name" -j"$jobs" --target ccrc_tool >/dev/null
}
build plain
build instrumented -DCCRC_INSTRUMENT_TOOL=ON
build shared -DCCRC_INSTRUMENT_TOOL=ON -DCCRC_INSTRUMENT_LIBRARY=ccrc_instrument
build gprof -DCMAKE_CXX_FLAGS=-pg -DCMAKE_EXE_LINKER_FLAGS=-pg
static_lib=$work/instrumented/examples/libccrc_instrument.a lib=$work/shared/examples
ccrc=$work/plain/examples/ccrc

# The fib program, five ways, and the hooks that do nothing.
bin=$work/fib
mkdir -p "$bin"
fib=("$src/benchmarks/instrument_fib.cpp")
printf '%s\n' 'void __cyg_profile_func_enter(void* f, void* c) { (void)f; (void)c; }' \
  'void __cyg_profile_func_exit(void* f, void* c) { (void)f; (void)c; }' >"$bin/empty_hooks.c"
gcc -O2 -fPIC -c "$bin/empty_hooks.c" -o "$bin/empty_hooks.o"
gcc -shared "$bin/empty_hooks.o" -o "$bin/libempty_hooks.so"
g++ -O2 "${fib[@]}" -o "$bin/plain"
g++ -O2 -pg "${fib[@]}" -o "$bin/gprof"
g++ -O2 -finstrument-functions -rdynamic "${fib[@]}" -o "$bin/instrumented" "$static_lib" -ldl
g++ -O2 -finstrument-functions -rdynamic "${fib[@]}" -o "$bin/shared" -L"$lib" -lccrc_instrument -Wl,-rpath,"$lib"
g++ -O2 -finstrument-functions "${fib[@]}" -o "$bin/empty" "$bin/empty_hooks.o"

input=$work/pmd.cctb
[[ -f $input ]] || "$ccrc" generate --like pmd -o "$input" >/dev/null
run=$work/run
mkdir -p "$run"

# One run of a variant of a program, in $run; its task-clock in milliseconds on stdout.
one() {
  local program=$1 variant=$2
  local exe args=() env=(CCRC_OUT="$run/$program-$variant.cctb")
  if [[ $program == fib ]]; then
    exe=$bin/$variant
  else
    exe=$work/$variant/examples/ccrc
    args=(stats "$input")
  fi
  case $variant in
  sampled) exe=${exe/sampled/instrumented} ;;
  exact) exe=${exe/exact/instrumented} env+=(CCRC_TIME=exact) ;;
  empty_shared) exe=${exe/empty_shared/shared} env+=(LD_PRELOAD="$bin/libempty_hooks.so") ;;
  esac
  (cd "$run" && perf stat -x, -e task-clock -o "$run/perf.txt" env "${env[@]}" "$exe" "${args[@]}" >/dev/null)
  [[ $variant == gprof ]] && mv "$run/gmon.out" "$run/$program-gmon.out"
  sed -n 's/^\([0-9.]*\),msec,task-clock.*/\1/p' "$run/perf.txt"
}

median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)], a[1], a[NR]}'; }
total_calls() { "$ccrc" stats "$1" --json | jq '.metrics[] | select(.name == "calls") | .total'; }
# "path<TAB>calls" for every context of a profile of M metrics, sorted (calls is the first).
# A function named by its address (module+0xoffset: a static one) is named without it: the
# static and the shared build lay the program out at other addresses.
calls_by_context() {
  "$ccrc" convert "$1" -o "$1.folded" >/dev/null
  awk -v m="$2" 'NR > 1 { path = $1; for (i = 2; i <= NF - m; ++i) path = path " " $i; print path "\t" $(NF - m + 1) }' \
    "$1.folded" | sed 's/+0x[0-9a-f]*/+0x/g' | sort
}
# The calls gprof counted: the call graph's "called" of each function, recursive ones included
# (the flat profile leaves those out).
gprof_calls() {
  gprof -b -q "$1" "$2" | awk '/^\[[0-9]+\]/ && $5 ~ /^[0-9]+(\+[0-9]+)?$/ { n = split($5, c, "+"); for (i = 1; i <= n; ++i) s += c[i] }
                                END { print s + 0 }'
}

for program in fib ccrc; do
  declare -A cpu=()
  n=$rounds
  variants=(plain gprof sampled exact shared empty empty_shared)
  [[ $program == ccrc ]] && n=$rounds_tool variants=(plain gprof sampled exact shared empty_shared)
  for ((r = 0; r < n; ++r)); do
    for v in "${variants[@]}"; do cpu[$v]+="$(one "$program" "$v") "; done
  done
  calls=$(total_calls "$run/$program-sampled.cctb")
  if ! cmp -s <(calls_by_context "$run/$program-sampled.cctb" 4) <(calls_by_context "$run/$program-exact.cctb" 3) ||
     ! cmp -s <(calls_by_context "$run/$program-sampled.cctb" 4) <(calls_by_context "$run/$program-shared.cctb" 4); then
    echo "the sampled, exact and shared profiles of $program count different calls" >&2
    exit 1
  fi
  gprof_exe=$bin/gprof
  [[ $program == ccrc ]] && gprof_exe=$work/gprof/examples/ccrc
  gprof_calls=$(gprof_calls "$gprof_exe" "$run/$program-gmon.out")
  read -r base _ <<<"$(median <<<"${cpu[plain]}")"
  echo "## $program: $n interleaved rounds, median CPU time (range); $(uptime | sed 's/.*load/load/')"
  for v in "${variants[@]}"; do
    read -r m lo hi <<<"$(median <<<"${cpu[$v]}")"
    c=$calls
    [[ $v == gprof ]] && c=$gprof_calls
    [[ $v == empty* ]] && c=$calls
    per=""
    [[ $v != plain ]] && per=$(printf '%5.2f ns a call' "$(echo "($m - $base) * 1000000 / $c" | bc -l)")
    printf '%-8s %9.1f ms (%.1f-%.1f)  x%-6.2f %12s calls  %s\n' "$v" "$m" "$lo" "$hi" "$(echo "$m / $base" | bc -l)" \
      "$([[ $v == plain ]] && echo "" || echo "$c")" "$per"
  done
  echo "sampled, exact and shared: the same $calls calls in the same $("$ccrc" stats "$run/$program-exact.cctb" --json | jq .nodes) contexts"
done

# The sampled time of the tool's functions against the exact time (the last runs): each
# function's share of the self time, for those above 1 % in either; the binomial standard
# error of a share p drawn from n samples is sqrt(p (1 - p) / n), n the signals, one per tick
# of the kernel (250 a CPU second here) however many intervals of the timer each stands for.
echo "## ccrc stats: self time by function, sampled against exact (shares of each profile's total)"
python3 - "$ccrc" "$run/ccrc-sampled.cctb" "$run/ccrc-exact.cctb" <<'EOF'
import json, math, subprocess, sys
ccrc, sampled, exact = sys.argv[1:4]
def shares(path):
    flat = json.loads(subprocess.run([ccrc, "flat", path, "--metric", "self_ns", "--json", "--top", "all"],
                                     capture_output=True, text=True, check=True).stdout)
    return flat["total"], {m["name"]: m["self"] / flat["total"] for m in flat["methods"]}
ts, s = shares(sampled)
te, e = shares(exact)
signals = ts * 1e-9 * 250
print(f"sampled: {ts / 1e9:.3f} s of CPU time ({signals:.0f} ticks of 4 ms); exact: {te / 1e9:.3f} s of wall time")
rows = sorted({k for k in s if s[k] >= 0.01} | {k for k in e if e[k] >= 0.01}, key=lambda k: -e.get(k, 0))
worst = 0
for k in rows:
    p, q = s.get(k, 0), e.get(k, 0)
    se = math.sqrt(max(q, 1e-9) * (1 - q) / signals)
    worst = max(worst, abs(p - q))
    print(f"{100 * q:6.2f} % exact  {100 * p:6.2f} % sampled  {100 * (p - q):+6.2f} points  ({abs(p - q) / se:4.1f} standard errors)  {k[:80]}")
print(f"largest difference: {100 * worst:.2f} points of the total")
EOF

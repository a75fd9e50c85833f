#!/bin/sh
# Draws the README's ring charts: real programs' profiles from tests/data as `ccrc render` draws
# them with no option but the canvas size, the papers' Figures 3 and 4 from their Figure 1
# profile (with the options those figures illustrate), and a DaCapo-scale profile.
# usage: docs/images/regenerate.sh [CCRC]
#   CCRC: the ccrc tool (default build/demo/examples/ccrc, made by `cmake --workflow --preset demo`)
set -eu
cd "$(dirname "$0")/../.."
ccrc=${1:-build/demo/examples/ccrc}
profile=examples/data/figure1.folded
draw() { "$ccrc" render "$profile" --metric bytecodes --size 600x400 "$@"; }
draw --sizing equal -o docs/images/figure3a-equal.svg
draw --sizing angle -o docs/images/figure3b-angle.svg
draw --sizing area -o docs/images/figure3c-area.svg
draw --root 'main;f' -o docs/images/figure4a-subtree.svg
draw --depth 3 -o docs/images/figure4b-depth.svg
# A DaCapo-scale profile: eclipse as generated to match Table I (2.17 million contexts),
# 16 of its 131 levels, so that the picture stays under a megabyte.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$ccrc" generate --like eclipse -o "$work/eclipse.cctb" >/dev/null
"$ccrc" render "$work/eclipse.cctb" --metric bytecodes --depth 16 --size 1000x650 -o docs/images/eclipse-depth16.svg
# The viewer on the same profile (needs the `viewer` preset's tool, chromium and node).
viewer=build/viewer/examples/ccrc
if [ -x "$viewer" ] && command -v chromium >/dev/null && command -v node >/dev/null; then
  "$viewer" view "$work/eclipse.cctb" -o "$work/eclipse.html" >/dev/null
  CCRC_SCREENSHOT=docs/images/viewer.png CCRC_VIEWPORT=960x600 node tests/viewer/browser_test.js chromium \
    "file://$work/eclipse.html#metric=bytecodes&search=HashMap" "$work/timings.json" >/dev/null
  # Rizel's XML example: the second run compared with the first.
  "$viewer" view examples/data/xml_new.folded --compare examples/data/xml_old.folded -o "$work/xml.html" >/dev/null
  CCRC_SCREENSHOT=docs/images/viewer-compare.png CCRC_VIEWPORT=960x560 node tests/viewer/browser_test.js chromium \
    "file://$work/xml.html#metric=ms" "$work/timings.json" >/dev/null
fi
# Profiles written by other tools, opened as they are, with the default view: the TypeScript
# compiler under node --cpu-prof, Node's --cpu-prof of tests/data/v8/work.js, and clang's
# -ftime-trace of tests/data/trace_event/small.cpp.
"$ccrc" render tests/data/v8/tsc.cpuprofile.gz --size 1200x750 -o docs/images/tsc.svg
# Deeper ones, where the first view folds chains (tsc checking zod) or eliminates recursion
# (GCC), beside the same profile drawn a ring per level.
"$ccrc" render tests/data/v8/tsc-zod.cpuprofile.gz --size 800x500 -o docs/images/tsc-zod.svg
"$ccrc" render tests/data/v8/tsc-zod.cpuprofile.gz --size 800x500 --tree contexts -o docs/images/tsc-zod-levels.svg
"$ccrc" render tests/data/perf/gcc.perf.gz --size 800x500 -o docs/images/gcc.svg
"$ccrc" render tests/data/v8/work.cpuprofile --size 600x400 -o docs/images/node-cpuprofile.svg
"$ccrc" render tests/data/trace_event/small.json --size 600x400 -o docs/images/clang-time-trace.svg
# Twelve runs of one node script in two modes as an ensemble, coloured by their variation.
"$ccrc" ensemble tests/data/ensemble/runs -o "$work/ensemble.cctb" >/dev/null
"$ccrc" render "$work/ensemble.cctb" --size 800x500 -o docs/images/ensemble.svg
# The viewer's first view of the TypeScript compiler's profile, as a ring and as an icicle.
if [ -x "$viewer" ] && command -v chromium >/dev/null && command -v node >/dev/null; then
  "$viewer" view tests/data/v8/tsc.cpuprofile.gz -o "$work/tsc.html" >/dev/null
  CCRC_SCREENSHOT=docs/images/viewer-tsc.png CCRC_VIEWPORT=1200x750 node tests/viewer/browser_test.js chromium \
    "file://$work/tsc.html" "$work/timings.json" >/dev/null
  CCRC_SCREENSHOT=docs/images/viewer-tsc-icicle.png CCRC_VIEWPORT=1200x750 node tests/viewer/browser_test.js chromium \
    "file://$work/tsc.html#show=icicle" "$work/timings.json" >/dev/null
fi

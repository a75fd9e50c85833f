#!/bin/sh
# speedscope (jlfwong/speedscope 1.25.0, fetched from the npm registry into a temporary
# directory; not part of ccrc) timed in headless chromium on a profile, for comparison with
# the viewer's browser test (benchmarks/README.md, "The viewer"). The profile,
# in any format ccrc reads, is handed to speedscope in its own format (one evented profile per
# metric), or as pprof with `pb.gz` (one sample per context); page.js opens it and times the
# interactions.
#
#   benchmarks/speedscope/run.sh CCRC_TOOL PROFILE OUT.json [speedscope.json|pb.gz]
#   (CHROMIUM=... to choose the browser)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tool=$1 profile=$2 out=$3 as=${4:-speedscope.json}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent speedscope@1.25.0 > /dev/null && tar xzf speedscope-1.25.0.tgz)
name=$(basename "$profile" | sed 's/\..*//').$as
"$tool" convert "$profile" "$work/$name"
# speedscope draws with WebGL: chromium's software implementation must be allowed.
CCRC_PAGE_SCRIPT="$here/page.js" CCRC_CHROMIUM_FLAGS=--enable-unsafe-swiftshader \
  node "$here/../../tests/viewer/browser_test.js" "${CHROMIUM:-chromium}" \
  "file://$work/package/dist/release/index.html?profile=file://$work/$name" "$out"

#!/bin/sh
# speedscope (jlfwong/speedscope 1.25.0, fetched from the npm registry into a temporary
# directory; not part of ccrc) timed in headless chromium on a profile, for comparison with
# the viewer's browser test (benchmarks/README.md, "The viewer in the browser"). The profile,
# in any format ccrc reads, is handed to speedscope as pprof, one of the formats it imports;
# page.js opens it and times the interactions.
#
#   benchmarks/speedscope/run.sh CCRC_TOOL PROFILE OUT.json    (CHROMIUM=... to choose one)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tool=$1 profile=$2 out=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent speedscope@1.25.0 > /dev/null && tar xzf speedscope-1.25.0.tgz)
name=$(basename "$profile" | sed 's/\..*//').pb.gz
"$tool" convert "$profile" "$work/$name"
# speedscope draws with WebGL: chromium's software implementation must be allowed.
CCRC_PAGE_SCRIPT="$here/page.js" CCRC_CHROMIUM_FLAGS=--enable-unsafe-swiftshader \
  node "$here/../../tests/viewer/browser_test.js" "${CHROMIUM:-chromium}" \
  "file://$work/package/dist/release/index.html?profile=file://$work/$name" "$out"

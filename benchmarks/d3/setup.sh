# Sourced by the comparison scripts here: exits 0, saying why, without node or d3-hierarchy
# (installed by `npm ci` when missing); sets `work` to a temporary directory removed at exit.
if ! command -v node >/dev/null 2>&1; then
  echo "d3 comparison skipped: node is not installed"
  exit 0
fi
if [ ! -d "$here/node_modules/d3-hierarchy" ]; then
  (cd "$here" && npm ci --no-audit --no-fund >/dev/null) || { echo "d3 comparison skipped: npm ci failed"; exit 0; }
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

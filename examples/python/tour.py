"""A tour of the Python package ccrc, as a notebook would take it (docs/python.md).

Run as a test (ctest: python_tour) with the path of the PNG to write:

    PYTHONPATH=build/python/examples/python python3 examples/python/tour.py tour.png
"""

import math
import os
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Wedge  # noqa: E402

import ccrc  # noqa: E402

source = pathlib.Path(os.environ.get("CCRC_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
data = source / "tests" / "data"
out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "tour.png")

# 1. A real profile: the TypeScript compiler under node --cpu-prof, into pandas.
p = ccrc.read(data / "v8" / "tsc.cpuprofile.gz")
df = p.to_pandas()
print(p)
print(f"{len(df)} rows; columns: {', '.join(df.columns)}")

# 2. The ten hottest methods by self time, with their totals (recursion counted once).
flat = p.flat("time_us")
top = flat.head(10)
print("\nthe ten hottest methods (ms):")
for name, row in top.iterrows():
    print(f"  {row['time_us'] / 1000:8.1f} {row['time_us (inc)'] / 1000:8.1f}  {ccrc.display_name(name)}")
print(f"  of {df['time_us'].sum() / 1000:.1f} ms in {len(flat)} methods")

# 3. The hot path: from the top, the callee of largest total at each step.
hot = p.hot_path("time_us")
print(f"\nthe hot path: {len(hot)} calls deep, ending in")
for _, row in hot.tail(4).iterrows():
    print(f"  depth {row['depth']:3}  {row['time_us (inc)'] / 1000:6.1f} ms  {ccrc.display_name(row['name'])}")

# The same question asked of the DataFrame: where self time is spent below the compiler's
# checker, by method, with pandas alone.
checker = df[df["name"].str.startswith("checkSourceFile ")]
print(f"\ncheckSourceFile: {len(checker)} contexts, {checker['time_us (inc)'].sum() / 1000:.1f} ms in all")

# 4. Two runs of one program compared context by context: callgrind, with and without its
# cache simulation (the instruction counts differ by the simulation's own work).
first = ccrc.read(data / "callgrind" / "prog.callgrind")
second = ccrc.read(data / "callgrind" / "prog-cache.callgrind")
d = ccrc.diff(first, second, metric="Ir")
print(f"\ndiff of two callgrind runs: Ir {d.attrs['total_old']:.0f} -> {d.attrs['total_new']:.0f}, "
      f"{d.attrs['matched']} contexts matched, {d.attrs['new']} new, {d.attrs['removed']} removed")
print(d["status"].value_counts().sort_index().to_string())
changed = d.reindex(d["height"].abs().sort_values(ascending=False).index).head(3)
for row in changed.itertuples(index=False):
    print(f"  H {100 * row.height:+.4f} %  {row.status:<9} {ccrc.display_name(row.name)}")

# 5. The ring chart drawn with matplotlib from the library's segments: wedges for arcs, a
# disc for the center, radial lines for what is too thin to see, and the labels that fit.
chart = p.ring_chart("time_us", size=(1100, 900))
cx, cy = chart.attrs["center"]
fig, ax = plt.subplots(figsize=(9, 9), dpi=100)
for s in chart.itertuples(index=False):
    # ccrc: radians clockwise from twelve o'clock, y down; matplotlib: degrees anticlockwise
    # from three o'clock, y up.
    if s.kind == "line":
        a = (s.a0 + s.a1) / 2
        ax.plot([s.r0 * math.sin(a), s.r1 * math.sin(a)], [s.r0 * math.cos(a), s.r1 * math.cos(a)], color="#888888", lw=0.5)
        continue
    start, end = (0, 360) if s.kind == "center" else (90 - math.degrees(s.a1), 90 - math.degrees(s.a0))
    ax.add_patch(Wedge((0, 0), s.r1, start, end, width=s.r1 - s.r0, facecolor=s.color, edgecolor="white", lw=0.4))
    if s.label_fit == "none":
        continue
    x, y = s.label_radius * math.sin(s.label_angle), s.label_radius * math.cos(s.label_angle)
    degrees = -math.degrees(s.label_angle) if s.label_fit == "along" else 90 - math.degrees(s.label_angle)
    if s.label_reversed:
        degrees += 180
    if s.kind == "center":
        degrees = 0
    ax.text(x, y, s.label, rotation=degrees, ha="center", va="center", rotation_mode="anchor", fontsize=s.font_px * 0.72)
limit = chart.attrs["radii"][-1] * 1.02
ax.set_xlim(-limit, limit)
ax.set_ylim(-limit, limit)
ax.set_aspect("equal")
ax.axis("off")
ax.set_title(f"{p.name}: {len(chart)} segments of {len(p)} calling contexts, angles by time_us")
fig.savefig(out, bbox_inches="tight")
print(f"\n{out.name}: {len(chart)} segments ({(chart['kind'] == 'line').sum()} lines) in "
      f"{chart['depth'].max()} rings around {ccrc.display_name(chart['name'].iat[0])}")

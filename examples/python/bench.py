"""How fast ccrc is from Python on a DaCapo-scale profile (benchmarks/README.md, "Python").

    build/release/examples/ccrc generate --like eclipse -o eclipse.cctb
    PYTHONPATH=build/python/examples/python python3 examples/python/bench.py eclipse.cctb build/release/examples/ccrc

Each run, in turn: the C++ reader (the `read` phase of `ccrc flat --timings`, in its own
process), then in this process ccrc.read, to_pandas() and flat(), then Hatchet's approach on
the same columns: one Python dict per calling context (as Hatchet builds its DataFrame from
its per-node objects), the DataFrame made from those records, and its flat profile as Hatchet
makes it (a groupby over the names, summing). Prints the median of each over the runs.
"""

import gc
import json
import statistics
import subprocess
import sys
import time

import pandas as pd

import ccrc


def timed(f):
    gc.collect()
    start = time.perf_counter()
    value = f()
    return time.perf_counter() - start, value


def dict_per_context(p):
    rows = p._core.rows()  # the same columns to_pandas copies from, as Python lists
    metrics = p.metrics
    columns = [rows["node"].tolist(), rows["parent"].tolist(), rows["depth"].tolist()]
    names = [rows["methods"][c] for c in rows["codes"].tolist()]
    values = [c.tolist() for pair in zip(rows["self"], rows["inc"]) for c in pair]
    keys = ["node", "parent", "depth", "name"] + [k for m in metrics for k in (m, f"{m} (inc)")]

    def hatchet():
        records = []
        for i in range(len(names)):
            record = {"node": columns[0][i], "parent": columns[1][i], "depth": columns[2][i], "name": names[i]}
            for key, column in zip(keys[4:], values):
                record[key] = column[i]
            records.append(record)
        frame = pd.DataFrame.from_records(records)
        return frame, frame.groupby("name").sum(numeric_only=True)

    return hatchet


def main(path, tool, runs=5):
    pd.DataFrame({"warm": [1]}).groupby("warm").sum()  # pandas' lazy imports, outside the timings
    times = {key: [] for key in ("cpp_read", "read", "to_pandas", "flat", "hatchet")}
    for _ in range(runs):
        out = subprocess.run([tool, "flat", path, "--timings"], capture_output=True, text=True, check=True)
        times["cpp_read"].append(json.loads(out.stderr.strip().splitlines()[-1])["phases_ms"]["read"] / 1000)
        t, p = timed(lambda: ccrc.read(path))
        times["read"].append(t)
        times["to_pandas"].append(timed(p.to_pandas)[0])
        times["flat"].append(timed(p.flat)[0])
        hatchet = dict_per_context(p)
        times["hatchet"].append(timed(hatchet)[0])
        del p, hatchet
    median = {key: statistics.median(values) for key, values in times.items()}
    print(f"{path}: {runs} runs, medians in seconds")
    for key, value in median.items():
        print(f"  {key:10} {value:8.3f}   (runs: {', '.join(f'{v:.3f}' for v in times[key])})")
    print(f"  ccrc.read / C++ read: {median['read'] / median['cpp_read']:.3f}")
    ours = median["to_pandas"] + median["flat"]
    print(f"  dict per context / (to_pandas + flat): {median['hatchet'] / ours:.1f}x")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 5)

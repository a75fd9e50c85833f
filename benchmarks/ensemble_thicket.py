"""Statistics per calling context over many runs: ccrc.ensemble against the pandas computation
Thicket performs, on the same runs. Thicket (LLNL/thicket 2024.2.0) needs Hatchet, which Debian
does not package: its pandas steps are repeated here as its source writes them, from per-run
DataFrames already in memory (their reading, and the unification of the runs' graphs, are not
timed): Ensemble._unify_listof_thickets concatenates the profiles' frames one at a time
(`unify_df = pd.concat([th.dataframe, unify_df])`), utils._fill_perfdata copies the result,
reindexes it by every (node, profile) pair and puts None in the string columns' new rows, then
it is sorted; thicket.stats.mean, minimum, maximum and std each take the metric columns,
reset_index() and group by node. The one change: new rows get 0 where Thicket gives NaN, and
std divides by N, so that both compute the same numbers (ccrc counts a run without a context
as 0; Thicket leaves it out). ccrc.ensemble is timed whole: reading the files, the statistics,
and its to_pandas().

Each mode runs in a process of its own, so that its peak memory is its own: `pandas` (from
per-run DataFrames in memory), `ccrc` (ccrc.ensemble from the profiles in memory, read first
and not timed, as the DataFrames are) and `ccrc-files` (from the files, reading timed):

    PYTHONPATH=build/python/examples/python python3 benchmarks/ensemble_thicket.py pandas DIR N
    PYTHONPATH=build/python/examples/python python3 benchmarks/ensemble_thicket.py ccrc DIR N
    PYTHONPATH=build/python/examples/python python3 benchmarks/ensemble_thicket.py ccrc-files DIR N

DIR holds the runs (ccrc_bench_ensemble --write-runs DIR N writes them), the first N are read.
Prints the mode, the seconds timed, the process's peak resident memory, and a checksum of
the statistics (the sum of every mean and std) that both modes print alike."""
import pathlib
import resource
import sys
import time

import numpy as np
import pandas as pd

import ccrc

STATISTICS = ["mean", "min", "max", "std"]


def peak_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def thicket_frames(paths):
    """Per run, a DataFrame as Thicket holds one: indexed by (node, profile), the frame's name
    as a string column, and every metric's self and inclusive values; the node a number per
    calling context over all the runs (Thicket's: a node of the graph it unifies first, whose
    hash is its number)."""
    frames, numbers = [], {}
    for k, path in enumerate(paths):
        p = ccrc.read(path)
        df = p.to_pandas()
        df["node"] = [numbers.setdefault(p.path(n), len(numbers)) for n in df["node"]]
        df["profile"] = k
        df["name"] = df["name"].astype(object)
        frames.append(df.drop(columns=["parent", "depth"]).set_index(["node", "profile"]))
    return frames


def pandas_statistics(frames):
    unify_df = pd.DataFrame()
    for df in frames:  # Ensemble._unify_listof_thickets
        unify_df = pd.concat([df, unify_df])
    new_df = unify_df.copy(deep=True)  # utils._fill_perfdata, 0 for NaN
    new_df = new_df.reindex(pd.MultiIndex.from_product(new_df.index.levels), fill_value=0)
    for col in new_df.columns:
        if pd.api.types.is_string_dtype(new_df[col].dtype):
            new_df[col] = new_df[col].replace({0: None})
    new_df.sort_index(inplace=True)
    columns = [c for c in new_df.columns if c != "name"]
    out = {}
    for name, function in (("mean", np.mean), ("min", min), ("max", max), ("std", "std")):  # thicket.stats
        grouped = new_df[columns].reset_index().groupby("node")
        df = grouped.std(ddof=0) if function == "std" else grouped.agg(function)
        for column in columns:
            out[f"{column}_{name}"] = df[column]
    return pd.DataFrame(out)


def checksum(frame, columns):
    return float(sum(frame[c].sum() for c in columns))


def main():
    mode, directory, count = sys.argv[1], pathlib.Path(sys.argv[2]), int(sys.argv[3])
    paths = sorted(directory.iterdir())[:count]
    if mode == "pandas":
        frames = thicket_frames(paths)
        start = time.perf_counter()
        stats = pandas_statistics(frames)
        seconds = time.perf_counter() - start
        metrics = [c for c in frames[0].columns if c != "name" and not c.endswith(" (inc)")]
        columns = [f"{m}{scope}_{s}" for m in metrics for scope in ("", " (inc)") for s in ("mean", "std")]
        contexts = len(stats)
    else:  # ccrc: from the profiles in memory, as the pandas computation starts; ccrc-files: reading timed
        profiles = [ccrc.read(path) for path in paths] if mode == "ccrc" else paths
        start = time.perf_counter()
        e = ccrc.ensemble(profiles)
        stats = e.to_pandas()
        seconds = time.perf_counter() - start
        columns = [f"{m}{scope}_{s}" for m in e.metrics for scope in ("", " (inc)") for s in ("mean", "std")]
        contexts = len(stats)
    print(f"{mode}: {count} runs, {contexts} contexts: {seconds:.3f} s, peak {peak_mib():.0f} MiB, "
          f"checksum {checksum(stats, columns):.6e}")


if __name__ == "__main__":
    main()

# Many runs as one ensemble: its statistics against a pandas computation of them (per-run
# frames concatenated and grouped by calling context, as Thicket computes its statistics), its
# distances and clusters against numpy.
import numpy as np
import pandas as pd
import pytest

import ccrc
from conftest import DATA

RUNS = sorted((DATA / "ensemble" / "runs").glob("*.cpuprofile.gz"))  # sort-1..6, text-1..6


@pytest.fixture(scope="module")
def runs():
    return [ccrc.read(path) for path in RUNS]


@pytest.fixture(scope="module")
def ensemble():
    return ccrc.ensemble(RUNS)


def reference(profiles):
    """Per run a frame of every context's self and inclusive values by path; concatenated,
    every path given every run (0 where a run lacks it), grouped by path."""
    frames = []
    for i, p in enumerate(profiles):
        df = p.to_pandas()
        df.index = [p.path(n) for n in df["node"]]
        frames.append(df.drop(columns=["node", "parent", "depth", "name"]).assign(run=i, present=1))
    paths = sorted(set().union(*(f.index for f in frames)))
    full = pd.concat([f.reindex(paths, fill_value=0).assign(run=k) for k, f in enumerate(frames)])
    grouped = full.groupby(level=0)
    out = {"present": grouped["present"].sum()}
    for column in [c for c in full.columns if c not in ("run", "present")]:
        g = grouped[column]
        out[column + "_mean"], out[column + "_min"], out[column + "_max"] = g.mean(), g.min(), g.max()
        out[column + "_std"] = g.std(ddof=0)
    return pd.DataFrame(out)


def test_ensemble_of_the_recorded_runs_equals_the_pandas_computation(ensemble, runs):
    assert (ensemble.runs, len(ensemble)) == (12, 167)
    assert ensemble.inputs == [path.name for path in RUNS]
    assert ensemble.metrics == ["samples", "time_us"] and ensemble.metric == "time_us"
    got = ensemble.to_pandas()
    got.index = [ensemble.path(n) for n in got["node"]]
    want = reference(runs).loc[got.index]
    assert (got["present"] == want["present"]).all()
    for metric in ensemble.metrics:
        for label in (metric, metric + " (inc)"):
            for statistic in ("mean", "min", "max", "std"):
                column = f"{label}_{statistic}"
                np.testing.assert_allclose(got[column], want[column], rtol=1e-9, atol=1e-9, err_msg=column)
    # The whole run: the top-level contexts' inclusive means add up to the mean total.
    totals = [r.to_pandas().query("parent == -1")["time_us (inc)"].sum() for r in runs]
    assert got.loc[got["parent"] == -1, "time_us (inc)_mean"].sum() == pytest.approx(np.mean(totals))


def test_distances_and_clusters_of_the_two_modes(ensemble, runs):
    # Shares of each run's self time over paths, then half the L1 distance of every pair.
    shares = []
    for r in runs:
        df = r.to_pandas()
        s = pd.Series(df["time_us"].to_numpy(), index=[r.path(n) for n in df["node"]])
        shares.append(s[s != 0] / s.abs().sum())
    want = np.array([[a.sub(b, fill_value=0).abs().sum() / 2 for b in shares] for a in shares])
    d = ensemble.distance()
    assert d.shape == (12, 12)
    np.testing.assert_allclose(d, want, rtol=1e-12, atol=1e-15)
    assert (d == d.T).all() and (np.diag(d) == 0).all()
    two = ensemble.clusters(2)
    assert [c.members for c in two] == [list(range(6)), list(range(6, 12))]
    for c in two:
        sums = d[np.ix_(c.members, c.members)].sum(axis=1)
        assert c.exemplar == c.members[int(np.argmin(sums))]
    # A threshold between the farthest runs of one mode and the closest of the other.
    within = max(d[i, j] for i in range(12) for j in range(12) if (i < 6) == (j < 6))
    across = min(d[i, j] for i in range(6) for j in range(6, 12))
    assert within < across
    assert len(ensemble.clusters(max_distance=(within + across) / 2)) == 2
    assert len(ensemble.clusters(12)) == 12 and len(ensemble.clusters()) == 1


def test_profiles_and_paths_and_threads_give_the_same_numbers(ensemble, runs):
    from_profiles = ccrc.ensemble(runs, threads=1)
    by_samples = ccrc.ensemble(RUNS, "samples", threads=3)
    a, b = ensemble.to_pandas(), from_profiles.to_pandas()
    pd.testing.assert_frame_equal(a, b)  # bit for bit
    pd.testing.assert_frame_equal(a, by_samples.to_pandas())
    assert by_samples.metric == "samples" and not np.array_equal(by_samples.distance(), ensemble.distance())


def test_the_ensemble_as_a_profile(ensemble):
    p = ensemble.to_profile()
    assert p.metrics == [m + s for m in ("samples", "time_us") for s in ccrc_suffixes()] + ["runs_present"]
    df, stats = p.to_pandas(), ensemble.to_pandas()
    assert (df["node"] == stats["node"]).all()
    assert (df["time_us_mean"] == stats["time_us_mean"]).all()
    assert (df["time_us_std_inc"] == stats["time_us (inc)_std"]).all()
    assert (df["runs_present"] == stats["present"]).all()
    # ag of the means is the mean of the inclusive values.
    np.testing.assert_allclose(df["time_us_mean (inc)"], stats["time_us (inc)_mean"], rtol=1e-9)
    # Drawn sized by the mean time, colored by its variation over the twelve runs.
    assert ">color: std/mean of time_us with callees, of 12 runs</text>" in p.svg()


def ccrc_suffixes():
    return ["_mean", "_min", "_max", "_std", "_min_inc", "_max_inc", "_std_inc"]


def test_errors(tmp_path, figure1):
    with pytest.raises(ValueError):
        ccrc.ensemble([])
    with pytest.raises(ccrc.Error, match="missing.folded"):
        ccrc.ensemble([RUNS[0], tmp_path / "missing.folded"])
    bad = tmp_path / "bad.folded"
    bad.write_text("main;f 1\nmain;g\n")
    with pytest.raises(ccrc.ParseError) as caught:
        ccrc.ensemble([bad])
    assert caught.value.path == str(bad) and caught.value.line == 2
    with pytest.raises(ccrc.Error, match="no metric named 'time'"):
        ccrc.ensemble([figure1], metric="time")
    with pytest.raises(ccrc.Error, match="whole profile"):
        ccrc.ensemble([figure1.subtree("main;f")])
    with pytest.raises(IndexError):
        ccrc.ensemble([figure1]).path(0)

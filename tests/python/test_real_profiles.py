# The real profiles of tests/data: what to_pandas and flat give against simple references
# computed here, independently of the library (a .cct file read by docs/formats.md's
# reader, sums in numpy or in plain Python).
import collections
import warnings

import numpy as np
import pytest

import ccrc
from conftest import DATA, read_cct, real_profiles


@pytest.fixture(scope="module", params=real_profiles())
def profile(request):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ccrc.ReadWarning)  # what the readers repaired: test_errors.py
        return ccrc.read(DATA / request.param)


def test_to_pandas_is_the_profile(profile, tmp_path):
    # The .cct text of the profile, read line by line in Python, is the reference.
    profile.write(tmp_path / "p.cct")
    metrics, nodes = read_cct(tmp_path / "p.cct")
    df = profile.to_pandas()
    assert metrics == profile.metrics
    assert len(df) == len(nodes) - 1 == len(profile)
    assert list(df["node"]) == list(range(1, len(nodes)))
    assert list(df["parent"]) == [parent if parent > 0 else -1 for parent, _, _ in nodes[1:]]
    assert list(df["name"].astype(str)) == [name for _, name, _ in nodes[1:]]
    depth = [0] * len(nodes)
    for n, (parent, _, _) in enumerate(nodes[1:], start=1):
        depth[n] = depth[parent] + 1
    assert list(df["depth"]) == depth[1:]
    for j, m in enumerate(metrics):
        self_values = [values[j] for _, _, values in nodes]
        assert list(df[m]) == self_values[1:]
        # Inclusive = self summed over the subtree: children after parents, summed in reverse.
        inc = list(self_values)
        for n in range(len(nodes) - 1, 0, -1):
            inc[nodes[n][0]] += inc[n]
        np.testing.assert_allclose(df[f"{m} (inc)"], inc[1:], rtol=1e-12)
    assert df["depth"].max() == profile.statistics()["max_depth"]
    assert df["name"].nunique() == profile.statistics()["methods"]


def test_flat_against_a_loop(profile):
    # Self per method summed, and the total of each method's outermost contexts (no ancestor
    # of the same method), by a depth-first walk over the rows in plain Python.
    df = profile.to_pandas()
    metric = profile.metrics[-1]
    flat = profile.flat(metric)
    names = list(df["name"].astype(str))
    parents = list(df["parent"])
    row_of = {n: i for i, n in enumerate(df["node"])}
    self_sum = collections.Counter()
    total = collections.Counter()
    contexts = collections.Counter()
    for i, name in enumerate(names):
        self_sum[name] += df[metric].iat[i]
        contexts[name] += 1
        up, outermost = parents[i], True
        while up != -1:
            if names[row_of[up]] == name:
                outermost = False
                break
            up = parents[row_of[up]]
        if outermost:
            total[name] += df[f"{metric} (inc)"].iat[i]
    assert sorted(flat.index) == sorted(self_sum)
    for name in flat.index:
        assert flat.loc[name, "contexts"] == contexts[name]
        assert flat.loc[name, metric] == pytest.approx(self_sum[name], rel=1e-12, abs=1e-9)
        assert flat.loc[name, f"{metric} (inc)"] == pytest.approx(total[name], rel=1e-12, abs=1e-9)
    values = list(flat[metric])
    assert values == sorted(values, reverse=True)
    # Kaes's c_t: the call graph's totals are the same numbers.
    functions = profile.callgraph(metric).functions
    assert functions[f"{metric} (inc)"].sort_index().equals(flat[f"{metric} (inc)"].sort_index())


def test_views_and_transforms_keep_totals(profile):
    df = profile.to_pandas()
    metric = profile.metrics[0]
    total = df[metric].sum()
    for other in (profile.eliminate_recursion(), profile.eliminate_recursion("drop_repeats"), profile.invert()):
        assert other.to_pandas()[metric].sum() == pytest.approx(total, rel=1e-12)
    # The subtree of the hottest top-level context: its rows are those whose path starts there.
    top = df[df["depth"] == 1].sort_values(f"{metric} (inc)").iloc[-1]
    sub = profile.subtree(int(top["node"])).to_pandas()
    prefix = profile.path(top["node"])
    below = [n for n in df["node"] if (p := profile.path(n)) == prefix or p.startswith(prefix + ";")]
    assert list(sub["node"]) == below
    assert sub[metric].sum() == pytest.approx(top[f"{metric} (inc)"], rel=1e-12)
    hot = profile.hot_path(metric)
    assert list(hot["depth"]) == list(range(1, len(hot) + 1))
    assert list(hot["parent"])[1:] == list(hot["node"])[:-1]


def test_the_default_metric_is_the_tools():
    # As `ccrc flat`, the viewer and the charts (ccrc::primary_metric): time before samples,
    # whatever the order of the columns. A V8 profile's columns are samples, then time_us.
    v8 = ccrc.read(DATA / "v8" / "work.cpuprofile")
    assert v8.metrics == ["samples", "time_us"]
    flat = v8.flat()
    assert list(flat["time_us"]) == sorted(flat["time_us"], reverse=True)
    assert list(flat["samples"]) != sorted(flat["samples"], reverse=True)  # a different order: the test can fail
    assert flat.index[0] == v8.flat("time_us").index[0]
    assert v8.ring_chart().attrs["metric"] == "time_us"
    assert list(v8.callgraph().functions.index) == list(v8.callgraph("time_us").functions.index)
    # Two runs compare the same metric by default, whichever way round.
    d = ccrc.diff(v8, v8)
    assert d.attrs["metric"] == "time_us"


def test_the_first_view_draws_where_the_cost_goes(profile):
    # As `ccrc render`: at least half of the cost (its self values) in the contexts drawn as
    # segments, a chain's summed over its contexts.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ccrc.ReadWarning)
    chart = profile.ring_chart()
    drawn = chart[chart["kind"] != "line"]["self"].sum()
    metric = chart.attrs["metric"]
    total = profile.to_pandas()[metric].sum()
    assert drawn / total >= 0.5
    assert chart.attrs["drawn"] == pytest.approx(drawn / chart["value"].iloc[0], rel=1e-9)
    chains = chart[(chart["kind"] != "line") & (chart["contexts"] > 1)]
    assert (chains["last"] != chains["node"]).all()
    assert ("shown as one ring" in chart.attrs["caption"]) == (len(chains) > 0)
    # A ring per level, as read: no chain, nothing eliminated.
    levels = profile.ring_chart(tree="contexts")
    assert not levels.attrs["recursion_eliminated"]
    assert ((levels["kind"] == "line") | (levels["contexts"] == 1)).all()
    assert levels.attrs["caption"] == ""


def test_a_deep_profile_folds_its_chains_and_gcc_loses_its_recursion():
    deep = ccrc.read(DATA / "v8" / "tsc-zod.cpuprofile.gz")
    chart = deep.ring_chart()
    assert chart.attrs["metric"] == "time_us"
    assert chart.attrs["caption"].endswith("shown as one ring each")
    assert not chart.attrs["recursion_eliminated"]
    assert chart.attrs["drawn"] > 0.8
    gcc = ccrc.read(DATA / "perf" / "gcc.perf.gz")
    chart = gcc.ring_chart()
    assert chart.attrs["recursion_eliminated"]
    assert chart.attrs["caption"] == "recursion eliminated: 138 \u2192 25 levels"
    # Node ids are then of the tree without recursion.
    eliminated = gcc.eliminate_recursion()
    assert chart["node"].max() < len(eliminated) + 1
    assert gcc.ring_chart(tree="recursion").attrs["drawn"] == pytest.approx(chart.attrs["drawn"])
    with pytest.raises(ccrc.Error):
        gcc.subtree(1).ring_chart(tree="recursion")

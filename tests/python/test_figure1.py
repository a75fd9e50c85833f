# The papers' Figure 1 (examples/data/figure1.folded): every figure below worked out by hand
# from the file (and the papers' Figure 4(c)).
import numpy as np
import pandas as pd
import pytest

import ccrc

# Per method: contexts, self calls, self bytecodes, total calls, total bytecodes (recursion
# once: g's total is ag(main;f;g) + ag(main;g), not including main;f;g;g inside main;f;g).
METHODS = {
    "main": (1, 1, 1066, 345, 3238),
    "h": (6, 132, 792, 264, 1452),
    "i": (6, 132, 660, 132, 660),
    "g": (4, 60, 540, 140, 980),
    "f": (1, 20, 180, 130, 890),
}


def test_size_metrics_and_statistics(figure1):
    assert figure1.metrics == ["calls", "bytecodes"]
    assert len(figure1) == 18
    assert figure1.statistics() == {"contexts": 18, "max_depth": 6, "methods": 5}
    assert figure1.name == "figure1.folded"
    assert figure1.format == "folded stacks"
    assert not figure1.is_view
    assert "18 calling contexts" in repr(figure1)


def test_to_pandas(figure1):
    df = figure1.to_pandas()
    assert list(df.columns) == ["node", "parent", "depth", "name", "calls", "calls (inc)", "bytecodes", "bytecodes (inc)"]
    assert len(df) == 18
    assert list(df["node"]) == list(range(1, 19))
    assert df["bytecodes"].sum() == 3238 and df["calls"].sum() == 345
    main = df[df["depth"] == 1]
    assert list(main["name"]) == ["main"] and main["parent"].item() == -1
    assert main["bytecodes (inc)"].item() == 3238 and main["calls (inc)"].item() == 345
    assert df["depth"].max() == 6
    assert isinstance(df["name"].dtype, pd.CategoricalDtype)
    assert sorted(df["name"].cat.categories) == ["f", "g", "h", "i", "main"]
    by_path = {figure1.path(n): row for n, row in zip(df["node"], df.itertuples(index=False))}
    assert by_path["main;f"][7] == 890  # bytecodes (inc)
    assert by_path["main;f;g;g"][7] == 200
    assert by_path["main;h;i"][4:8] == (72, 72, 360, 360)
    # Figure 4(c): bytecodes per method.
    per_method = df.groupby("name", observed=True)["bytecodes"].sum()
    assert per_method.to_dict() == {m: v[2] for m, v in METHODS.items()}


def test_flat_counts_recursion_once(figure1):
    flat = figure1.flat("bytecodes")
    assert list(flat.index) == ["main", "h", "i", "g", "f"]
    assert flat.index.name == "name"
    assert list(flat.columns) == ["contexts", "calls", "calls (inc)", "bytecodes", "bytecodes (inc)"]
    for name, (contexts, calls, bytecodes, total_calls, total_bytecodes) in METHODS.items():
        assert tuple(flat.loc[name]) == (contexts, calls, total_calls, bytecodes, total_bytecodes)
    # By calls: h and i tie at 132, broken by name.
    assert list(figure1.flat("calls").index) == ["h", "i", "g", "f", "main"]
    assert list(figure1.flat(0).index) == list(figure1.flat("calls").index)


def test_callgraph(figure1):
    g = figure1.callgraph("bytecodes")
    assert list(g.functions.index) == ["main", "h", "g", "f", "i"]  # by total bytecodes
    for name, (contexts, calls, bytecodes, total_calls, total_bytecodes) in METHODS.items():
        row = g.functions.loc[name]
        assert (row["contexts"], row["bytecodes"], row["bytecodes (inc)"], row["calls (inc)"]) == (
            contexts, bytecodes, total_bytecodes, total_calls)
    assert g.functions["top_level"].to_dict() == {"main": True, "h": False, "g": False, "f": False, "i": False}
    columns = [g.edges[c] for c in ("caller", "callee", "contexts", "bytecodes", "bytecodes (inc)")]
    edges = {(caller, callee): rest for caller, callee, *rest in zip(*columns)}
    edges = {k: tuple(v) for k, v in edges.items()}
    # Per call g -> f: f's contexts, self and total bytecodes in these calls (g -> g: the two
    # outermost recursive calls, main;f;g;g and main;g;g, 200 each).
    assert edges == {
        ("main", "f"): (1, 180, 890), ("main", "g"): (1, 180, 490), ("main", "h"): (1, 432, 792),
        ("f", "g"): (1, 180, 490), ("f", "h"): (1, 120, 220), ("g", "g"): (2, 180, 400),
        ("g", "h"): (4, 240, 440), ("h", "i"): (6, 660, 660),
    }


def test_search(figure1):
    found = figure1.search("g", "bytecodes")
    assert sorted(figure1.path(n) for n in found["node"]) == ["main;f;g", "main;f;g;g", "main;g", "main;g;g"]
    assert list(found["bytecodes (inc)"]) == [490, 490, 200, 200]  # hottest first
    assert found.attrs["covered"] == 980 and found.attrs["total"] == 3238
    assert found.attrs["share"] == pytest.approx(980 / 3238)
    assert len(figure1.search("=h", "bytecodes", min_self=100)) == 2  # main;f;h 120, main;h 432
    assert len(figure1.search("=h", "bytecodes", min_total="5%")) == 2  # 220 and 792 of 3238
    assert len(figure1.search("re:^[gh]$", part="method")) == 10
    assert len(figure1.search("MAIN", ignore_case=True)) == 1
    assert len(figure1.search("x")) == 0


def test_hot_path(figure1):
    path = figure1.hot_path("bytecodes")
    assert [figure1.path(n) for n in path["node"]][-1] == "main;f;g;g;h;i"
    assert list(path["name"]) == ["main", "f", "g", "g", "h", "i"]
    assert list(path["bytecodes (inc)"]) == [3238, 890, 490, 200, 110, 50]
    # By calls: main's callees f 130, g 70, h 144.
    assert list(figure1.hot_path("calls")["name"]) == ["main", "h", "i"]


def test_views(figure1):
    f = figure1.subtree("main;f")
    assert f.is_view and len(f) == 9
    df = f.to_pandas()
    assert figure1.path(df["node"].iloc[0]) == "main;f"
    assert df["bytecodes (inc)"].iloc[0] == 890 and df["bytecodes"].sum() == 890
    assert list(f.flat("bytecodes").index) == ["g", "h", "i", "f"]  # 270, 240, 200, 180
    assert f.flat("bytecodes").loc["g", "bytecodes (inc)"] == 490
    top = figure1.depth_limited(2)
    assert len(top) == 4 and set(top.to_pandas()["depth"]) == {1, 2}
    # Aggregated values are the complete tree's, not recomputed in a view.
    assert top.to_pandas().set_index("node")["bytecodes (inc)"][figure1.node("main;f")] == 890
    assert len(f.depth_limited(1)) == 3  # main;f, its g and its h
    assert len(figure1.subtree(figure1.node("main;g"))) == 6
    assert "view of 'main;f'" in repr(f)
    with pytest.raises(ccrc.Error, match="not in this view"):
        f.subtree("main;g")
    with pytest.raises(ccrc.Error, match="no frame 'x' under 'main'"):
        figure1.subtree("main;x")


def test_transforms(figure1):
    flat = figure1.eliminate_recursion()
    assert len(flat) == 12 and flat.statistics()["max_depth"] == 5
    df = flat.to_pandas().set_index("node")
    g = df.loc[flat.node("main;f;g")]
    assert (g["calls"], g["bytecodes"]) == (30, 270)
    assert df["bytecodes"].sum() == 3238
    assert len(figure1.eliminate_recursion("direct")) == 12  # all of Figure 1's recursion is direct
    up = figure1.invert().to_pandas().set_index("node")
    inverted = figure1.invert()
    assert up.loc[inverted.node("i"), "bytecodes (inc)"] == 660
    assert up.loc[inverted.node("i;h;g"), "bytecodes (inc)"] == 200
    assert len(figure1.invert(max_depth=1)) == 5
    focused = figure1.focus("g")
    assert focused.to_pandas().query("depth == 1")[["name", "bytecodes (inc)"]].values.tolist() == [["g", 980]]
    merged = figure1.merge_function(["g"]).to_pandas().set_index("node")
    assert merged["bytecodes"].sum() == 3238
    dropped = figure1.drop_function("h")
    assert len(dropped) == 6 and dropped.to_pandas()["bytecodes"].sum() == 1786
    with pytest.raises(ccrc.Error, match="no method named 'nope'"):
        figure1.focus("nope")
    with pytest.raises(ccrc.Error, match="whole profile"):
        figure1.subtree("main;f").invert()
    with pytest.raises(ValueError, match="policy must be one of all, direct, drop_repeats"):
        figure1.eliminate_recursion("some")


def test_metric_arguments(figure1):
    with pytest.raises(ccrc.Error, match=r"no metric named 'time' \(this profile has: calls, bytecodes\)"):
        figure1.flat("time")
    with pytest.raises(ccrc.Error, match="no metric 2"):
        figure1.flat(2)
    with pytest.raises(ValueError, match="metric .* must be 0 or more"):
        figure1.flat(-1)
    with pytest.raises(TypeError, match="metric .* must be a whole number"):
        figure1.flat(1.5)


def test_numpy_integers_are_ids(figure1):
    df = figure1.to_pandas()
    f = df["node"].iloc[1]  # a numpy.int64
    assert len(figure1.subtree(f)) == 9 and figure1.path(f) == "main;f"
    assert len(figure1.depth_limited(df["depth"].iloc[1])) == 4
    assert figure1.flat(df["depth"].iloc[0])["calls"].sum() == 345
    with pytest.raises(TypeError):
        figure1.depth_limited(True)


def test_read_bytes_and_pathlike(figure1_path):
    from_bytes = ccrc.read(figure1_path.read_bytes())
    assert from_bytes.name == "" and len(from_bytes) == 18
    assert len(ccrc.read(str(figure1_path))) == 18
    assert len(ccrc.read(bytearray(figure1_path.read_bytes()))) == 18
    assert np.array_equal(from_bytes.to_pandas()["bytecodes"], ccrc.read(figure1_path).to_pandas()["bytecodes"])

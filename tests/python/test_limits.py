# A 1,000,000-deep chain (a;b;a;b;...: recursion all the way down) through everything the
# package does: every traversal is iterative.
import pytest

import ccrc

DEPTH = 1_000_000


@pytest.fixture(scope="module")
def chain():
    path = ";".join("ab"[i % 2] for i in range(DEPTH))
    return ccrc.read(f"# metrics: samples\n{path} 1\n".encode())


def test_a_million_levels(chain):
    assert chain.statistics() == {"contexts": DEPTH, "max_depth": DEPTH, "methods": 2}
    df = chain.to_pandas()
    assert df["depth"].iat[-1] == DEPTH and (df["samples (inc)"] == 1).all()
    flat = chain.flat()
    assert flat.loc["b", "samples"] == 1 and flat.loc["a", "samples (inc)"] == 1 and flat.loc["b", "contexts"] == DEPTH // 2
    assert len(chain.hot_path()) == DEPTH
    assert len(chain.search("=b")) == DEPTH // 2
    assert len(chain.eliminate_recursion()) == 2 and len(chain.eliminate_recursion("direct")) == DEPTH
    assert len(chain.invert(max_depth=3)) == 3
    deep = chain.subtree(DEPTH - 1)
    assert len(deep) == 2 and deep.to_pandas()["depth"].tolist() == [DEPTH - 1, DEPTH]
    assert len(chain.depth_limited(5).ring_chart()) == 5  # centered on the one top-level context
    assert chain.callgraph().edges.shape[0] == 2
    assert chain.svg(size=(400, 300)).endswith("</svg>\n")
    assert len(chain.path(DEPTH)) == 2 * DEPTH - 1
    d = ccrc.diff(chain, chain)
    assert len(d) == DEPTH and set(d["status"]) == {"unchanged"}

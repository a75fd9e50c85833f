# What stays valid when the Profile it came from is gone.
import gc
import subprocess
import sys
import textwrap
import weakref

import numpy as np

import ccrc


def test_results_outlive_the_profile(figure1_path):
    p = ccrc.read(figure1_path)
    df = p.to_pandas()
    flat = p.flat()
    graph = p.callgraph()
    chart = p.ring_chart()
    view = p.subtree("main;f").depth_limited(2)
    inverted = p.invert()
    column = p.to_pandas()["bytecodes (inc)"].to_numpy()
    ref = weakref.ref(p)
    del p
    gc.collect()
    assert ref() is None
    # The view keeps the profile's data alive; everything else is a copy.
    assert len(view) == 6 and view.to_pandas()["bytecodes (inc)"].iloc[0] == 890
    assert view.flat("bytecodes").loc["g", "bytecodes"] == 270  # main;f;g and main;f;g;g
    assert len(inverted) > 0 and df["bytecodes"].sum() == 3238
    assert flat.loc["main", "bytecodes"] == 1066 and graph.functions.loc["h", "bytecodes (inc)"] == 1452
    assert chart["node"].iloc[0] == 1
    np.testing.assert_array_equal(column, df["bytecodes (inc)"].to_numpy())


def test_threads_share_a_profile(figure1, tmp_path):
    # The work runs without the GIL on a profile that never changes: the same answers from
    # eight threads at once as from one, and as many whole files written.
    from concurrent.futures import ThreadPoolExecutor

    def work(i):
        figure1.write(tmp_path / f"{i % 8}.cctb")
        return (
            figure1.to_pandas()["bytecodes (inc)"].sum(),
            figure1.flat("bytecodes").loc["g", "bytecodes (inc)"],
            len(figure1.eliminate_recursion()),
            len(figure1.ring_chart()),
            len(ccrc.read(tmp_path / f"{i % 8}.cctb")),
        )

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(work, range(64)))
    assert set(results) == {work(0)} and work(0)[1] == 980
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{i}.cctb" for i in range(8)]


def test_a_first_to_pandas_from_two_threads_at_once(figure1_path):
    # Issue 45: pybind11 set numpy's C API up at its first array, in a C++ static initialiser
    # that imports numpy; two threads making their first array at once hung the interpreter
    # for good (5 runs of 5). Each run here is a fresh interpreter, where none was made yet.
    script = textwrap.dedent(
        f"""
        import threading
        import ccrc
        p = ccrc.read({str(figure1_path)!r})
        start = threading.Barrier(2)
        def first():
            start.wait()
            assert p.to_pandas()["bytecodes"].sum() == 3238
        threads = [threading.Thread(target=first) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print("both")
        """
    )
    for _ in range(3):
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
        assert done.stdout == "both\n", done.stderr

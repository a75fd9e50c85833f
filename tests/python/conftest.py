# The pytest suite of the Python package ccrc, run by ctest (test python_tests) with the
# package of the build directory on PYTHONPATH.
import os
import pathlib

import pytest

SOURCE = pathlib.Path(os.environ.get("CCRC_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
DATA = SOURCE / "tests" / "data"


def real_profiles():
    """The real profiles of tests/data (tests/data/real_profiles.txt), relative paths."""
    lines = (DATA / "real_profiles.txt").read_text().splitlines()
    return [line for line in lines if line and not line.startswith("#")]


@pytest.fixture
def figure1_path():
    return SOURCE / "examples" / "data" / "figure1.folded"


@pytest.fixture
def figure1(figure1_path):
    import ccrc

    return ccrc.read(figure1_path)


def read_cct(path):
    """A .cct file as docs/formats.md's 20-line reader reads it, independently of ccrc: the
    metric names and, per node (the root's first), (parent, frame name, values)."""
    lines = pathlib.Path(path).read_bytes().decode("utf-8", "surrogateescape").split("\n")
    assert lines[0] == "ccrc-cct 1"
    metrics = lines[1].split(" ")[1:]
    frame_count = int(lines[2].split(" ")[1])
    names = [""] + lines[3 : 3 + frame_count]
    at = 3 + frame_count
    if lines[at].startswith("sites "):
        at += 1 + int(lines[at].split(" ")[1])
    node_count = int(lines[at].split(" ")[1])
    nodes = []
    for line in lines[at + 1 : at + 1 + node_count]:
        parent, frame, *values = line.split(" ")
        nodes.append((int(parent), names[int(frame)], [float(v) for v in values]))
    return metrics, nodes

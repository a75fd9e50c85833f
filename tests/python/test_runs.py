# Two runs compared, profiles merged, profiles written and read back.
import math

import pandas as pd
import pytest

import ccrc
from conftest import SOURCE

XML = SOURCE / "examples" / "data"


@pytest.fixture(scope="module")
def xml_diff():
    old, new = ccrc.read(XML / "xml_old.folded"), ccrc.read(XML / "xml_new.folded")
    return ccrc.diff(old, new, modified=["SAXBuilder.build(InputSource)"])


def test_diff_of_rizels_xml_example(xml_diff):
    # docs/diff.md: build(InputSource) went from 942 to 1905 ms but is 100 % of both runs
    # (H = 0); new_method takes 699 / 1905 of the second run; parse fell from 495 / 942 to
    # 385 / 1905; parse_proxy adds its share beyond what the matched parse below it had.
    d = xml_diff.set_index("name")
    assert len(xml_diff) == 9 and xml_diff.attrs["matched"] == 7 and xml_diff.attrs["new"] == 2
    assert xml_diff.attrs["removed"] == 0 and xml_diff.attrs["moved"] == 1
    assert (xml_diff.attrs["total_old"], xml_diff.attrs["total_new"]) == (942, 1905)
    assert xml_diff.attrs["metric"] == "ms" and xml_diff.attrs["calls_metric"] == "calls"
    build = d.loc["SAXBuilder.build(InputSource)"]
    assert (build["status"], build["old"], build["new"], build["height"], build["modified"]) == ("unchanged", 942, 1905, 0, True)
    new_method = d.loc["SAXBuilder.new_method()"]
    assert new_method["status"] == "new" and math.isnan(new_method["old"]) and new_method["old_node"] == -1
    assert new_method["height"] == pytest.approx(699 / 1905)
    parse = d.loc["AbstractSAXParser.parse(InputSource)"]
    assert parse["status"] == "faster" and parse["height"] == pytest.approx(385 / 1905 - 495 / 942)
    assert (parse["old_node"], parse["new_node"]) == (5, 7)
    proxy = d.loc["SAXBuilder.parse_proxy(InputSource, XMLReader)"]
    assert proxy["height"] == pytest.approx(1085 / 1905 - 495 / 942)
    assert list(xml_diff.loc[xml_diff["hot_path"], "name"]) == [
        "BenchMark.main(String[])", "SAXBuilder.build(File)", "SAXBuilder.build(URL)",
        "SAXBuilder.build(InputSource)", "SAXBuilder.parse_proxy(InputSource, XMLReader)", "SAXBuilder.new_method()"]
    assert set(xml_diff["width"]) == {0}  # every method ran once in both runs
    assert isinstance(xml_diff["status"].dtype, pd.CategoricalDtype)


def test_diff_of_a_run_with_itself(figure1):
    d = ccrc.diff(figure1, figure1, metric="bytecodes")
    assert len(d) == 18 and set(d["status"]) == {"unchanged"} and set(d["height"]) == {0}
    assert list(d["old_node"]) == list(d["new_node"]) and sorted(d["old_node"]) == list(range(1, 19))
    assert d.attrs["calls_metric"] == "calls"
    xml = ccrc.read(XML / "xml_new.folded")
    with pytest.raises(ccrc.Error, match=r"^new: no metric named 'bytecodes' \(this profile has: calls, ms\)$"):
        ccrc.diff(figure1, xml, metric="bytecodes")
    with pytest.raises(ccrc.Error, match="^old: no metric named 'x'"):
        ccrc.diff(figure1, xml, calls="x")
    assert ccrc.diff(figure1, xml, metric="bytecodes", new_metric="ms").attrs["total_new"] == 1905


def test_diff_of_the_callgrind_runs():
    # The same program, run twice under callgrind (with and without the cache simulation).
    first = ccrc.read(SOURCE / "tests/data/callgrind/prog.callgrind")
    second = ccrc.read(SOURCE / "tests/data/callgrind/prog-cache.callgrind")
    d = ccrc.diff(first, second, metric="Ir")
    assert (d.attrs["total_old"], d.attrs["total_new"]) == (182353, 182407)
    assert d.attrs["new"] + d.attrs["removed"] + d.attrs["matched"] == len(d)
    assert d["old"].dropna().max() == 182353


def test_merge(figure1, figure1_path):
    twice = ccrc.merge([figure1, ccrc.read(figure1_path)], threads=2)
    df = twice.to_pandas()
    assert len(twice) == 18 and df["bytecodes"].sum() == 2 * 3238
    other = ccrc.read(b"# metrics: bytecodes ms\nmain;x 5 7\n")
    mixed = ccrc.merge([figure1, other]).to_pandas()
    assert mixed.columns[4:].tolist() == ["calls", "calls (inc)", "bytecodes", "bytecodes (inc)", "ms", "ms (inc)"]
    assert mixed["bytecodes"].sum() == 3243 and mixed["ms"].sum() == 7 and len(mixed) == 19
    with pytest.raises(ccrc.Error, match="whole profile"):
        ccrc.merge([figure1.subtree("main;f")])
    with pytest.raises(ValueError, match="at least one"):
        ccrc.merge([])


@pytest.mark.parametrize("name", ["f.cctb", "f.cct", "f.folded", "f.pb.gz", "f.speedscope.json"])
def test_write_and_read_back(figure1, tmp_path, name):
    figure1.write(tmp_path / name)
    back = ccrc.read(tmp_path / name)  # speedscope: one profile per metric, read back as one tree
    a, b = figure1.to_pandas(), back.to_pandas()
    assert len(back) == 18
    for m in figure1.metrics:
        assert sorted(a[m]) == sorted(b[m])

# The ring chart's segments, the SVG and the viewer page.
import html
import math
import re

import numpy as np
import pytest

import ccrc


def test_ring_chart_of_figure1(figure1):
    chart = figure1.ring_chart("bytecodes")
    # The first view opens on main (the one top-level context), all 5 rings of its 17 callees.
    assert len(chart) == 18 and chart["kind"].tolist().count("center") == 1
    center = chart.iloc[0]
    assert (center["name"], center["depth"], center["parent"], center["value"]) == ("main", 0, -1, 3238)
    assert chart["depth"].max() == 5 and chart.attrs["metric"] == "bytecodes"
    # Angles proportional to ag(bytecodes): f's share of main's circle is 890 / 3238.
    f = chart[chart["node"] == figure1.node("main;f")].iloc[0]
    assert f["a1"] - f["a0"] == pytest.approx(2 * math.pi * 890 / 3238)
    # Children lie within their parent's angles and just outside its ring.
    parents = chart.iloc[chart["parent"].iloc[1:]].reset_index(drop=True)
    children = chart.iloc[1:].reset_index(drop=True)
    assert (children["a0"] >= parents["a0"] - 1e-9).all() and (children["a1"] <= parents["a1"] + 1e-9).all()
    assert np.allclose(children["r0"], parents["r1"])
    assert (chart["label"] != "").sum() >= 5 and chart["color"].str.match(r"^#[0-9a-f]{6}$").all()
    radii = chart.attrs["radii"]
    assert len(radii) == 6 and chart["r1"].max() == pytest.approx(radii[-1])
    equal = figure1.ring_chart("bytecodes", sizing="equal")
    g = equal[equal["node"] == figure1.node("main;g")].iloc[0]
    assert g["a1"] - g["a0"] == pytest.approx(2 * math.pi / 3)  # main has three callees


def test_ring_chart_of_a_view(figure1):
    # Figure 4(b): depth limited to 3 levels below the synthetic root.
    chart = figure1.depth_limited(3).ring_chart("bytecodes")
    assert chart["depth"].max() == 2 and len(chart) == 1 + 3 + 5  # main; f g h; f:g,h g:g,h h:i
    sub = figure1.subtree("main;f").ring_chart("bytecodes")
    assert sub.iloc[0]["name"] == "f" and len(sub) == 9


def test_culling_keeps_the_segments_few(figure1):
    chart = figure1.ring_chart("bytecodes", min_px=500, size=(200, 200))
    assert "line" in set(chart["kind"]) and len(chart) < 18


def test_svg(figure1):
    svg = figure1.svg("bytecodes", title="Figure 1")
    assert svg.startswith("<?xml") and svg.rstrip().endswith("</svg>")
    assert svg.count("<path") + svg.count("<circle") >= 18
    assert "Figure 1" in svg and "bytecodes" in svg
    marked = figure1.svg("bytecodes", highlight="=g")
    assert marked != svg
    by_package = figure1.svg("bytecodes", color_by="package")
    assert by_package != svg
    assert figure1.svg("bytecodes", colour_by="package") == by_package  # the British spelling
    # A view draws its own root: the tool's `render --root 'main;f'`.
    assert "<title>main\n  f\n" in figure1.subtree("main;f").svg("bytecodes")


def test_svg_as_an_icicle(figure1):
    # The same partition as the ring chart's first view, a box per context: widths in
    # proportion to ag(bytecodes), f's share of main's 890 / 3238.
    svg = figure1.svg("bytecodes", layout="icicle")
    boxes = {int(n): float(w) for w, n in re.findall(r'<rect x="[^"]*" y="[^"]*" width="([^"]*)" height="[^"]*" fill="[^"]*" data-node="(\d+)"', svg)}
    assert sorted(boxes) == sorted(figure1.ring_chart("bytecodes")["node"])
    main, f = boxes[figure1.node("main")], boxes[figure1.node("main;f")]
    assert f == pytest.approx(main * 890 / 3238, abs=0.01)
    assert "<path" not in svg and "<circle" not in svg
    with pytest.raises(ValueError, match="layout must be one of ring, icicle"):
        figure1.svg(layout="flame")


def test_viewer_page_and_notebook(figure1, tmp_path):
    page = figure1.viewer_html()
    assert page.startswith("<!DOCTYPE html>") and 'data-name="figure1.folded"' in page
    compared = figure1.viewer_html(compare=figure1.invert())
    assert compared.count("application/x-ccrc-cctb-base64") == 2 and len(compared) > len(page)
    figure1.write_viewer(tmp_path / "f.html")
    assert (tmp_path / "f.html").read_text() == page
    shown = figure1._repr_html_()
    assert shown.startswith("<iframe srcdoc=") and html.unescape(re.search('srcdoc="([^"]*)"', shown)[1]) == page
    view = figure1.subtree("main;f")._repr_html_()
    assert view.startswith("<div><?xml") or view.startswith("<div><svg")
    with pytest.raises(ccrc.Error, match="whole profile"):
        figure1.subtree("main;f").viewer_html()


def test_large_profiles_show_their_svg(figure1, monkeypatch):
    monkeypatch.setattr(ccrc, "viewer_max_contexts", 10)
    assert "<svg" in figure1._repr_html_() and "iframe" not in figure1._repr_html_()

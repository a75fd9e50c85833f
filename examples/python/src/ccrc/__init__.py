"""ccrc: calling context profiles from Python, into pandas (docs/python.md).

Reads every profile format the ccrc tool reads, runs the library's algorithms in C++ and
hands their results over as pandas DataFrames whose columns are numpy arrays filled by the
library (never one Python object per calling context)::

    import ccrc
    p = ccrc.read("perf.script.gz")
    df = p.to_pandas()          # one row per calling context: node, parent, depth, name,
                                # and per metric M, "M" (self) and "M (inc)" (aggregated)
    p.flat().head(10)           # the hottest methods, recursion counted once in the totals

Everything returned (DataFrames, strings, other Profiles) stays valid after the Profile it
came from is garbage-collected: a view (subtree, depth_limited) keeps the profile it views
alive, everything else is a copy.
"""

from __future__ import annotations

import collections
import html
import operator
import os
import warnings

from . import _ccrc
from ._ccrc import Error, ParseError

__all__ = ["read", "merge", "diff", "ensemble", "display_name", "Profile", "CallGraph", "Ensemble", "Cluster", "Error", "ParseError", "ReadWarning"]

#: Profiles with more calling contexts than this show as an SVG ring chart in a notebook
#: rather than in the interactive viewer, whose page holds the whole profile.
viewer_max_contexts = 250_000


class ReadWarning(UserWarning):
    """What a reader repaired or ignored in a file (Trace Event: unmatched ends, ...)."""


CallGraph = collections.namedtuple("CallGraph", ["functions", "edges"])
CallGraph.__doc__ = """Kaes's call graph: `functions` (one row per method, indexed by name) and
`edges` (one row per call between two functions)."""


def _pandas():
    import pandas  # imported when first needed: reading and writing do not need it

    return pandas


def _choice(value, names, what):
    try:
        return names.index(value)
    except ValueError:
        raise ValueError(f"{what} must be one of {', '.join(names)}, not {value!r}") from None


def _whole(value, what):
    # A whole number 0 or more, of any integer type (numpy's included), not a bool.
    try:
        if isinstance(value, bool):
            raise TypeError
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be a whole number, not {value!r}") from None
    if number < 0:
        raise ValueError(f"{what} must be 0 or more, not {number}")
    return number


def _names(names):
    return [names] if isinstance(names, (str, bytes, os.PathLike)) else list(names)


def _encoded(text):
    # Paths and names cross to C++ as bytes: a file name that is not UTF-8 comes to Python with
    # its bytes as lone surrogates (os.fsdecode), and goes back as those bytes. As open() does:
    # TypeError for anything but str, bytes and os.PathLike (bytes(3) would be three NULs),
    # ValueError for a NUL inside, where C++ would cut the name (no name or path holds one).
    if isinstance(text, (str, os.PathLike)):
        text = os.fsencode(text)
    elif not isinstance(text, bytes):
        raise TypeError(f"expected str, bytes or os.PathLike object, not {type(text).__name__}")
    if b"\0" in text:
        raise ValueError("embedded null byte")
    return text


def _query(query, part, ignore_case):
    # The text as the tool takes it ("re:REGEX", "=NAME" or a substring), parsed by the library.
    if not isinstance(query, str):
        raise TypeError(f"query must be a str, not {type(query).__name__}")
    return (_encoded(query), _choice(part, _ccrc.parts, "part"), bool(ignore_case))


def _threshold(value):
    # A number, or a text the library parses as the tool does ("500", "5%").
    if value is None or isinstance(value, str):
        return value
    return float(value)


def _columns(frame_columns):
    # A DataFrame from (label, array) pairs, labels possibly repeated (a metric named "name").
    pd = _pandas()
    frame = pd.DataFrame({i: values for i, (_, values) in enumerate(frame_columns)}, copy=False)
    frame.columns = [label for label, _ in frame_columns]
    return frame


def _categorical(codes, categories):
    pd = _pandas()
    return pd.Categorical.from_codes(codes, categories=pd.Index(categories, dtype=object))


def _metric_columns(metrics, self_columns, inc_columns):
    out = []
    for name, self_values, inc_values in zip(metrics, self_columns, inc_columns):
        out += [(name, self_values), (f"{name} (inc)", inc_values)]
    return out


def _context_frame(rows, metrics):
    return _columns(
        [
            ("node", rows["node"]),
            ("parent", rows["parent"]),
            ("depth", rows["depth"]),
            ("name", _categorical(rows["codes"], rows["methods"])),
        ]
        + _metric_columns(metrics, rows["self"], rows["inc"])
    )


class Profile:
    """A calling context profile, or a view of one (a subtree, or the levels above a depth).

    Made by :func:`read`, :func:`merge` and the transforms; never changed once made. Metric
    values are floats. Node ids are the C++ library's: 1 to len(p) for a whole profile (0 is
    the synthetic root, which is not a calling context); a view keeps the ids of the profile
    it views. Aggregated values ("M (inc)", ag(M)) are always those of the complete profile:
    a view selects contexts, it does not recompute them.
    """

    __slots__ = ("_core", "__weakref__")

    def __init__(self, core):
        if not isinstance(core, _ccrc.Core):
            raise TypeError("a Profile is made by ccrc.read, ccrc.merge or a transform, not directly")
        self._core = core

    # ---- What it is.

    @property
    def metrics(self):
        """The metric names, in the file's order."""
        return list(self._core.metrics)

    @property
    def name(self):
        """The name of the file it was read from ("" for bytes; a transform keeps it)."""
        return self._core.name

    @property
    def format(self):
        """The format it was read in, as `ccrc stats` names it ("pprof, gzip"); None if made."""
        return self._core.format or None

    @property
    def profiles(self):
        """The profiles (threads, processes) the file holds, for a format that holds several."""
        return list(self._core.profiles)

    @property
    def is_view(self):
        """Whether this is a subtree or a depth-limited view of a profile."""
        return not self._core.whole

    def statistics(self):
        """Calling contexts, maximum depth (a top-level context has depth 1) and distinct
        methods, as `ccrc stats` counts them."""
        contexts, max_depth, methods = self._core.statistics()
        return {"contexts": contexts, "max_depth": max_depth, "methods": methods}

    def __len__(self):
        """The number of calling contexts (the synthetic root is not one)."""
        return self._core.statistics()[0]

    def __repr__(self):
        s = self.statistics()
        where = ""
        if self.is_view:
            root = self._core.root
            where = " (view of " + (repr(self.path(root)) if root else "the root")
            if self._core.max_depth is not None:
                where += f", {self._core.max_depth} levels"
            where += ")"
        return (
            f"<ccrc.Profile {self.name!r}{where}: {s['contexts']} calling contexts, depth {s['max_depth']}, "
            f"{s['methods']} methods; metrics {', '.join(self.metrics)}>"
        )

    def _metric(self, metric):
        if metric is None:  # as the tool and the viewer choose: ccrc::primary_metric
            return self._core.primary_metric()
        if isinstance(metric, str):
            return self._core.metric_index(_encoded(metric))
        return _whole(metric, "metric (a name or an index)")

    # ---- Tables.

    def to_pandas(self):
        """One row per calling context, by increasing node id (callers before callees).

        Columns: ``node`` (the id), ``parent`` (the caller's id; -1 for a top-level context),
        ``depth`` (1 for a top-level context), ``name`` (the method, a pandas Categorical of
        the methods that occur) and, for each metric M, ``M`` (its self value) and ``M (inc)``
        (aggregated: the context and everything it called), as Hatchet names them. Every
        column is copied once from the library's columns.
        """
        return _context_frame(self._core.rows(), self.metrics)

    def flat(self, metric=None):
        """The flat profile: one row per method, indexed by name, hottest first.

        Columns: ``contexts`` and, for each metric M, ``M`` (the self values of all the
        method's contexts) and ``M (inc)`` (its total: the aggregated values of its outermost
        contexts, so that recursion counts once: Kaes's c_t). Sorted by the self value of
        `metric` (name or index; default, as `ccrc flat`'s: the first that measures time, else
        samples, else the first), ties by name, as `ccrc flat`. In a view,
        only its contexts count, and "outermost" means within the view.
        """
        d = self._core.flat(self._metric(metric))
        pd = _pandas()
        frame = _columns([("contexts", d["contexts"])] + _metric_columns(self.metrics, d["self"], d["total"]))
        frame.index = pd.Index(d["names"], dtype=object, name="name")
        return frame

    def callgraph(self, metric=None):
        """Kaes's call graph, as `ccrc callgraph` computes it: a :class:`CallGraph`.

        ``functions``: one row per method, indexed by name, by decreasing total of `metric`:
        ``contexts``, ``top_level`` (called from the top level) and, for each metric M, ``M``
        (c_i, the self values) and ``M (inc)`` (c_t, recursion counted once).
        ``edges``: one row per call g -> f between two functions, by decreasing total:
        ``caller``, ``callee``, ``contexts`` and, per metric, ``M`` (f's self values in these
        calls) and ``M (inc)`` (f's total in them, recursion once). Whole profiles only.
        """
        d = self._core.callgraph(self._metric(metric))
        pd = _pandas()
        functions = _columns(
            [("contexts", d["contexts"]), ("top_level", d["top_level"].astype(bool))]
            + _metric_columns(self.metrics, d["self"], d["total"])
        )
        functions.index = pd.Index(d["names"], dtype=object, name="name")
        edges = _columns(
            [
                ("caller", _categorical(d["caller"], d["names"])),
                ("callee", _categorical(d["callee"], d["names"])),
                ("contexts", d["edge_contexts"]),
            ]
            + _metric_columns(self.metrics, d["edge_self"], d["edge_total"])
        )
        return CallGraph(functions, edges)

    def search(self, query, metric=None, *, part="name", ignore_case=False, min_self=None, min_total=None):
        """The calling contexts whose method matches `query`, as `ccrc search` finds them.

        `query` is a substring, "re:REGEX" or "=NAME", matched on the `part` of the name
        ("name", "package", "class" or "method"); `min_self` and `min_total` are lower bounds
        on the self and aggregated values of `metric`, a number or a share of the profile's
        total ("5%"). The rows of :meth:`to_pandas` for the matches, hottest first (aggregated
        value, then id); ``attrs`` holds ``covered`` (the aggregated value of the matches not
        inside another match), ``total`` and ``share`` (covered / total).
        """
        m = self._metric(metric)
        text, part_index, case = _query(query, part, ignore_case)
        rows, covered, total = self._core.search(
            m, text, part_index, case, _threshold(min_self), _threshold(min_total)
        )
        frame = _context_frame(rows, self.metrics)
        frame.attrs.update(covered=covered, total=total, share=covered / total if total else 0.0)
        return frame

    def hot_path(self, metric=None):
        """The hot path: from the top (the view's root), the callee of largest aggregated
        value of `metric` at each step, down to a leaf. The rows of :meth:`to_pandas`, outermost
        first."""
        return _context_frame(self._core.hot_path(self._metric(metric)), self.metrics)

    def path(self, node):
        """The calling context of `node` as text: its methods from the top, joined by ';'."""
        return self._core.path(_whole(node, "node"))

    def node(self, path):
        """The node id of the calling context `path` ("main;f;g"); ccrc.Error naming the first
        missing frame if there is none."""
        return self._core.node(_encoded(path))

    # ---- Views.

    def subtree(self, path):
        """A view of the calling context `path` ("main;f;g", or a node id) and everything it
        called: the papers' subtree selection. Shares this profile's data (and keeps it alive);
        aggregated values are not recomputed. Of a view, the context must be in the view."""
        node = self.node(path) if isinstance(path, (str, bytes, os.PathLike)) else _whole(path, "node")
        return Profile(self._core.subtree(node))

    def depth_limited(self, levels):
        """A view of the `levels` levels below this one's root (of a whole profile, the
        synthetic root is level 0: 2 keeps the top-level contexts and their callees)."""
        return Profile(self._core.depth_limited(min(_whole(levels, "levels"), 2**32 - 1)))

    # ---- Transforms: new profiles (of a whole profile).

    def eliminate_recursion(self, policy="all"):
        """The profile with recursive calls folded, totals kept: "all" (the papers' Figure 8:
        no method twice on a path), "direct" (f -> f only) or "drop_repeats" (speedscope's
        collapse recursion)."""
        return Profile(self._core.eliminate_recursion(_choice(policy, _ccrc.policies, "policy")))

    def invert(self, max_depth=None):
        """The inverted (bottom-up) profile: top-level contexts are the methods where cost was
        spent, their children their callers; `max_depth` keeps that many levels of callers."""
        depth = 2**32 - 1 if max_depth is None else min(_whole(max_depth, "max_depth"), 2**32 - 1)
        return Profile(self._core.invert(depth))

    def focus(self, names):
        """Focus on functions (a name or several): each outermost context of one becomes a
        top-level context with what it called; the rest is dropped."""
        return Profile(self._core.focus([_encoded(n) for n in _names(names)]))

    def merge_function(self, names):
        """Merge functions into their callers: their contexts disappear, their self values go
        to the caller and their callees hang from it. Totals are kept."""
        return Profile(self._core.merge_function([_encoded(n) for n in _names(names)]))

    def drop_function(self, names):
        """Drop every context that contains one of the functions, with all it called."""
        return Profile(self._core.drop_function([_encoded(n) for n in _names(names)]))

    # ---- Pictures.

    def _chart_request(self, metric, sizing, order, min_px, padding, size, tree):
        width, height = size
        return (
            self._metric(metric),
            _choice(sizing, _ccrc.sizings, "sizing"),
            _choice(order, _ccrc.orders, "order"),
            float(min_px),
            float(padding),
            float(width),
            float(height),
            _choice(tree, _ccrc.trees, "tree"),
        )

    def ring_chart(
        self, metric=None, *, sizing="angle", order="value", min_px=1.0, padding=0.0, size=(1440, 900), tree="auto"
    ):
        """The ring chart as `ccrc render -o OUT.json` lays it out: one row per segment,
        ring by ring from the center, clockwise.

        Columns: ``node``, ``name``, ``depth`` (the ring, 0 the center), ``parent`` (the
        parent segment's row, -1 for the center), ``kind`` ("center", "arc" or "line": a
        segment too thin to see, drawn as a radial line, standing for ``contexts`` adjacent
        contexts), ``r0``, ``r1`` (radii, pixels from the center), ``a0``, ``a1`` (angles,
        radians clockwise from twelve o'clock), ``value`` (aggregated) and ``self`` of
        `metric`, ``color`` (the palette's "#rrggbb"), ``beyond_edge`` (callees left out past
        the outer ring), and the label that fits: ``label`` ("" for none), ``label_fit``
        ("along" the arc, "across" the rings, "none"), ``label_radius``, ``label_angle``,
        ``label_reversed`` (reads the other way: left half or bottom), ``font_px``. A point
        at radius r and angle a is (cx + r sin a, cy - r cos a), y growing downwards;
        ``attrs`` holds ``center`` (cx, cy), ``radii``, ``size`` and ``metric``.

        `sizing`: "equal", "angle" (∝ ag) or "area" (∝ ag by area); `order` of callees:
        "value", "name" or "insertion"; `min_px`: culling threshold on a segment's outer arc;
        `size`: the canvas (a legend column on its left, as the tool draws it). A whole
        profile opens where it branches, as deep as keeps rings readable; a view shows its
        root and its depth limit. `tree` as ``ccrc render --tree``: "auto" draws where the cost
        goes (a run of single callees as one segment: ``contexts`` > 1 and ``last``, the chain's
        last context, for an arc; for a whole profile, its recursion eliminated when that draws
        more, ``node`` and ``last`` then ids in :meth:`eliminate_recursion`'s tree), "contexts"
        a ring per level, "recursion" the profile with its recursion eliminated. ``attrs``
        also holds ``caption`` (what the chart did, "" if nothing), ``drawn`` (the share of the
        cost drawn in segments) and ``recursion_eliminated``.
        """
        request = self._chart_request(metric, sizing, order, min_px, padding, size, tree)
        d = self._core.ring_chart(*request)
        pd = _pandas()
        frame = pd.DataFrame(
            {
                "node": d["node"],
                "name": d["name"],
                "depth": d["depth"],
                "parent": d["parent"],
                "kind": _categorical(d["kind"], _ccrc.kinds),
                "r0": d["r0"],
                "r1": d["r1"],
                "a0": d["a0"],
                "a1": d["a1"],
                "contexts": d["contexts"],
                "last": d["last"],
                "value": d["value"],
                "self": d["self"],
                "color": d["color"],
                "beyond_edge": d["beyond_edge"].astype(bool),
                "label": d["label"],
                "label_fit": _categorical(d["label_fit"], _ccrc.label_fits),
                "label_radius": d["label_radius"],
                "label_angle": d["label_angle"],
                "label_reversed": d["label_reversed"].astype(bool),
                "font_px": d["font_px"],
            }
        )
        frame.attrs.update(
            center=d["center"],
            radii=list(d["radii"]),
            size=tuple(size),
            metric=self.metrics[request[0]],
            sizing=sizing,
            caption=d["caption"],
            drawn=d["drawn"],
            recursion_eliminated=d["recursion_eliminated"],
        )
        return frame

    def svg(
        self,
        metric=None,
        *,
        sizing="angle",
        order="value",
        min_px=1.0,
        padding=0.0,
        size=(1440, 900),
        highlight=None,
        part="name",
        ignore_case=False,
        color_by="method",
        title=None,
        layout="ring",
        tree="auto",
        colour_by=None,
    ):
        """The ring chart as `ccrc render -o OUT.svg` draws it (a str): tooltips, labels, a
        legend. Options as :meth:`ring_chart`; `highlight` marks the contexts a query matches
        (as :meth:`search`), `color_by` "method" or "package" (`colour_by` is read as
        `color_by`); `layout` "icicle" draws the same partition as an icicle (``--layout
        icicle``). In a notebook: ``IPython.display.SVG(p.svg())``."""
        if colour_by is not None:
            color_by = colour_by
        request = self._chart_request(metric, sizing, order, min_px, padding, size, tree)
        mark = None if highlight is None else _query(highlight, part, ignore_case)
        return self._core.svg(
            *request,
            mark,
            _choice(color_by, _ccrc.colorings, "color_by"),
            None if title is None else _encoded(title),
            _choice(layout, _ccrc.layouts, "layout"),
        )

    def viewer_html(self, compare=None):
        """The interactive viewer's page with this profile inside (and `compare`, a first run
        to color the chart by what changed): the self-contained file `ccrc view` writes."""
        return self._core.viewer_html(None if compare is None else compare._core)

    def write_viewer(self, path, compare=None):
        """Writes :meth:`viewer_html` to `path`, as `ccrc view -o PATH` does."""
        self._core.write_viewer(_encoded(path), None if compare is None else compare._core)

    def _repr_html_(self):
        # A notebook shows a whole profile in the viewer (its page in an iframe), a view or a
        # profile too large to embed as its SVG ring chart.
        if self.is_view or len(self) > viewer_max_contexts:
            return "<div>" + self.svg(size=(960, 600)) + "</div>"
        page = html.escape(self.viewer_html(), quote=True)
        return f'<iframe srcdoc="{page}" style="width: 100%; height: 640px; border: 1px solid #ddd"></iframe>'

    # ---- Files.

    def write(self, path, force=False):
        """Writes the profile in the format `path`'s name asks for, as `ccrc convert` does:
        .cctb, .cct, .folded (or .collapsed, .txt), .pb.gz / .pb / .pprof (pprof),
        .speedscope.json. The file is replaced whole or not at all. Folded stacks or pprof
        above 1 GiB (they repeat each context's whole stack) raise :class:`Error` unless
        `force`, as ``--force`` does."""
        self._core.write(_encoded(path), bool(force))


def read(source, profile=None, max_document_bytes=2**31):
    """Reads a profile: a path (str or os.PathLike) or the file's content (bytes).

    Any format the ccrc tool reads, told by the content, gzip-compressed or not: folded
    stacks, .cct, .cctb, perf script, pprof, speedscope, Trace Event, V8 .cpuprofile and
    .heapprofile, Firefox's Gecko profile, callgrind. A file of several profiles gives them
    all, each under a top-level frame named after it; `profile` (a name or an index) keeps
    one. Malformed content raises :class:`ParseError` (the reader's message, with ``path``,
    ``line`` and ``byte``); a missing or unreadable file, :class:`Error`; a profile too large
    for memory, MemoryError. What the reader repaired is reported as a :class:`ReadWarning`.
    The JSON and pprof readers hold the whole document (inflated): a larger one than
    `max_document_bytes` raises :class:`Error` before it takes the memory, as the tool's
    ``--max-document-bytes`` does.
    """
    if not isinstance(max_document_bytes, int) or max_document_bytes < 1:
        raise ValueError("max_document_bytes must be a whole number of bytes, 1 or more")
    pick = b"" if profile is None else _encoded(str(profile))
    if isinstance(source, (bytes, bytearray, memoryview)):
        core, notes = _ccrc.read_bytes(bytes(source), pick, max_document_bytes)
        where = "<bytes>"
    else:
        path = os.fspath(source)
        core, notes = _ccrc.read_path(_encoded(path), pick, max_document_bytes)
        where = os.fsdecode(path)
    for note in notes:
        warnings.warn(f"{where}: {note}", ReadWarning, stacklevel=2)
    return Profile(core)


def display_name(name):
    """The short name of a frame, as the charts label it: "Module._load" for V8's
    "Module._load node:internal/modules/cjs/loader:1003:24", the function's own name for a
    C++ signature. The full name stays the frame's identity (to_pandas, search, paths)."""
    return _ccrc.display_name(_encoded(name))


def merge(profiles, threads=None):
    """Sums profiles into one, as `ccrc merge` does: a context several have gets the sum of
    their metrics (matched by name; a metric only some have is zero in the others). On
    `threads` threads (default: every core). Whole profiles only."""
    cores = [p._core for p in profiles]
    count = 0 if threads is None else min(_whole(threads, "threads"), 2**32 - 1)
    return Profile(_ccrc.merge(cores, count))


Cluster = collections.namedtuple("Cluster", ["members", "exemplar"])
Cluster.__doc__ = """A group of runs of an :class:`Ensemble`: their indexes (increasing) and the
index of the run that represents them (the least summed distance to the others)."""


class Ensemble:
    """Many runs of a program reduced to statistics per calling context, as `ccrc ensemble`
    reduces them (docs/ensemble.md). Made by :func:`ensemble`; never changed once made.

    ``runs`` (N), ``inputs`` (the runs' names, in order: the indexes of distance() and
    clusters()), ``metrics`` (the runs' metrics, in order of first appearance) and ``metric``
    (the one distances are of); ``len(e)`` is the number of calling contexts in the union."""

    def __init__(self, core):
        self._core = core

    runs = property(lambda self: self._core.runs, doc="The number of runs.")
    inputs = property(lambda self: self._core.inputs, doc="The runs' names (files' names), in order.")
    metrics = property(lambda self: self._core.metrics, doc="The runs' metrics.")
    metric = property(lambda self: self._core.metric, doc="The metric whose shares the distances compare.")

    def __len__(self):
        return len(self._core)

    def __repr__(self):
        return f"<ccrc.Ensemble: {self.runs} runs, {len(self)} calling contexts, metrics {', '.join(self.metrics)}>"

    def path(self, node):
        """The calling context `node` as text ("main;f;g")."""
        return self._core.path(_whole(node, "node"))

    def to_pandas(self):
        """One row per calling context of any run, by increasing node id (callers first):
        ``node``, ``parent`` (-1 at the top level), ``depth``, ``name`` (a categorical),
        ``present`` (the runs that hold it), then per metric M, as Thicket names them,
        ``M_mean``, ``M_min``, ``M_max``, ``M_std`` (over the N runs of the context's self
        values, a run without it counting 0; std divides by N) and ``M (inc)_mean``,
        ``M (inc)_min``, ``M (inc)_max``, ``M (inc)_std`` (of its inclusive values)."""
        rows = self._core.rows()
        columns = [
            ("node", rows["node"]),
            ("parent", rows["parent"]),
            ("depth", rows["depth"]),
            ("name", _categorical(rows["codes"], rows["methods"])),
            ("present", rows["present"]),
        ]
        statistics = ("mean", "min", "max", "std")
        for k, metric in enumerate(self.metrics):
            for scope, label in (("self", metric), ("inc", metric + " (inc)")):
                columns += [(f"{label}_{s}", rows[scope][4 * k + i]) for i, s in enumerate(statistics)]
        return _columns(columns)

    def distance(self, threads=None):
        """The N x N matrix (numpy, rows in the order of ``inputs``) of the runs' distances: half
        the L1 distance between their shares of ``metric`` over the contexts (0: alike, 1:
        nothing in common)."""
        return self._core.distances(0 if threads is None else min(_whole(threads, "threads"), 2**32 - 1))

    def clusters(self, k=1, *, max_distance=None, threads=None):
        """The runs grouped by average linkage over distance(): merged, the closest groups first,
        until `k` groups remain (or, with `max_distance`, while the closest are at most that far
        apart). A list of :class:`Cluster` (members, exemplar), by first member."""
        limit = float("inf") if max_distance is None else float(max_distance)
        count = 0 if threads is None else min(_whole(threads, "threads"), 2**32 - 1)
        return [Cluster(list(m), e) for m, e in self._core.clusters(max(1, _whole(k, "k")), limit, count)]

    def to_profile(self):
        """The ensemble as a :class:`Profile` (the file ``ccrc ensemble -o`` writes): per metric
        M, ``M_mean``, ``M_min``, ``M_max``, ``M_std``, ``M_min_inc``, ``M_max_inc``,
        ``M_std_inc``, then ``runs_present``; its charts are sized by the mean and colored by the
        variation, and it can be written (``write``)."""
        return Profile(self._core.profile())


def ensemble(paths, metric=None, *, profile=None, threads=None, max_document_bytes=2**31):
    """The :class:`Ensemble` of many runs, as `ccrc ensemble` makes it: each of `paths` a file
    (any format :func:`read` reads; `profile` picks one of a file of several) or a whole
    :class:`Profile`, read on `threads` threads (default: every core) and added in order, so the
    numbers do not depend on the threads. `metric` is the one distance() and clusters() compare
    (default: the first run's first metric that measures time, else samples, else its first)."""
    runs = [p._core if isinstance(p, Profile) else _encoded(os.fspath(p)) for p in paths]
    pick = "" if profile is None else _encoded(str(profile))
    count = 0 if threads is None else min(_whole(threads, "threads"), 2**32 - 1)
    core = _ccrc.ensemble(runs, None if metric is None else _encoded(metric), count, pick, _whole(max_document_bytes, "max_document_bytes"))
    return Ensemble(core)


def diff(old, new, *, metric=None, new_metric=None, calls=None, modified=(), epsilon=1e-4, max_chain=4):
    """Two runs compared context by context, as `ccrc diff` does (Rizel's performance
    evolution blueprint): one row per context of either run.

    Columns: ``node``, ``parent``, ``depth``, ``name`` (in the diff tree, which holds both
    runs' contexts), ``status`` ("unchanged", "slower", "slower_modified", "faster",
    "faster_modified", "new" or "removed"), ``old`` and ``new`` (aggregated `metric` in each
    run), ``old_share`` and ``new_share`` (of the run's total), ``height`` (H = new_share -
    old_share, as the blueprint computes it for new and removed contexts), ``width`` (W =
    log(|new_calls - old_calls| + 1)), ``old_calls``, ``new_calls``, ``modified``,
    ``old_node`` and ``new_node`` (the context's id in each run, -1 if absent) and
    ``hot_path`` (on the delta hot path). A value of a run the context is absent from is NaN.

    `metric`: the metric compared (default, as `ccrc diff`'s: of the metrics that are not the
    counts, the first that measures time, else samples, else the first); `new_metric`:
    the new run's, if named otherwise; `calls`: the invocation counts (default "calls" if
    both have it); `modified`: names of methods whose source changed; `epsilon`: |H| below it
    is unchanged; `max_chain`: the longest chain of inserted or removed methods searched.
    ``attrs`` holds the totals and the counts of matched, new, removed and moved contexts.
    """
    d = _ccrc.diff(
        old._core,
        new._core,
        None if metric is None else _encoded(metric),
        None if new_metric is None else _encoded(new_metric),
        None if calls is None else _encoded(calls),
        [_encoded(m) for m in _names(modified)],
        float(epsilon),
        min(_whole(max_chain, "max_chain"), 2**32 - 1),
    )
    frame = _columns(
        [
            ("node", d["node"]),
            ("parent", d["parent"]),
            ("depth", d["depth"]),
            ("name", _categorical(d["codes"], d["methods"])),
            ("status", _categorical(d["status"], _ccrc.statuses)),
        ]
        + [
            (column, d[column])
            for column in ("old", "new", "old_share", "new_share", "height", "width", "old_calls", "new_calls")
        ]
        + [
            ("modified", d["modified"].astype(bool)),
            ("old_node", d["old_node"]),
            ("new_node", d["new_node"]),
            ("hot_path", d["hot_path"].astype(bool)),
        ]
    )
    frame.attrs.update(d["attrs"])
    return frame

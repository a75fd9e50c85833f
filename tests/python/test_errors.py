# Bad input: ccrc.ParseError with the reader's message and position, never a crash; a
# missing file, a bad option, a profile too large for memory.
import gzip
import os
import subprocess
import sys
import textwrap

import pytest

import ccrc


def test_malformed_folded_names_the_line(tmp_path):
    bad = tmp_path / "bad.folded"
    bad.write_text("main;f 1\nmain;g x\n")
    with pytest.raises(ccrc.ParseError) as caught:
        ccrc.read(bad)
    e = caught.value
    assert isinstance(e, ccrc.Error)
    assert str(e).startswith(f"{bad}: line 2: ")
    assert (e.path, e.line, e.byte) == (str(bad), 2, None)


def test_malformed_json_names_the_byte(tmp_path):
    bad = tmp_path / "bad.cpuprofile"
    bad.write_text('{"nodes": [{"id": 1, "callFrame": {"functionName": "f"}}], "samples": [1], "timeDeltas": [1,')
    with pytest.raises(ccrc.ParseError) as caught:
        ccrc.read(bad)
    assert caught.value.line is None and caught.value.byte is not None
    assert f"byte {caught.value.byte}: " in str(caught.value)


def test_truncated_gzip_and_cctb(tmp_path, figure1):
    figure1.write(tmp_path / "f.cctb")
    data = (tmp_path / "f.cctb").read_bytes()
    (tmp_path / "cut.cctb").write_bytes(data[: len(data) // 2])
    with pytest.raises(ccrc.ParseError, match="cut.cctb: "):
        ccrc.read(tmp_path / "cut.cctb")
    packed = gzip.compress(b"main;f 1\n" * 1000)
    with pytest.raises(ccrc.ParseError, match="^<bytes>: "):
        ccrc.read(packed[: len(packed) - 20])


def test_bytes_errors_name_bytes():
    with pytest.raises(ccrc.ParseError) as caught:
        ccrc.read(b"main;f 1\nmain;g x\n")
    assert caught.value.path is None and caught.value.line == 2
    assert str(caught.value).startswith("<bytes>: line 2: ")


def test_missing_file_and_bad_options(tmp_path, figure1):
    with pytest.raises(ccrc.Error, match="nope.folded"):
        ccrc.read(tmp_path / "nope.folded")
    with pytest.raises(ccrc.Error, match="holds one profile"):
        ccrc.read(b"main;f 1\n", profile="x")
    with pytest.raises(TypeError):
        ccrc.read(42)
    with pytest.raises(ValueError, match="cannot tell the format"):
        figure1.write(tmp_path / "out.xyz")
    assert not (tmp_path / "out.xyz").exists()
    with pytest.raises(ValueError, match="sizing must be one of equal, angle, area"):
        figure1.ring_chart(sizing="round")
    with pytest.raises(ValueError, match="size must be"):
        figure1.svg(size=(0, 10))
    with pytest.raises(ccrc.Error, match="regular expression|regex"):
        figure1.search("re:(")


def test_a_failed_write_leaves_the_file(tmp_path):
    out = tmp_path / "keep.pb.gz"
    out.write_text("untouched\n")
    fractions = ccrc.read(b"main;f 1.5\n")
    with pytest.raises(ccrc.Error, match="pprof values are integers"):
        fractions.write(out)
    assert out.read_text() == "untouched\n"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.pb.gz"]


def test_what_a_reader_repaired_is_a_warning():
    events = b'[{"name": "a", "ph": "E", "ts": 1, "pid": 1, "tid": 1}, {"name": "b", "ph": "B", "ts": 2, "pid": 1, "tid": 1}, {"name": "b", "ph": "E", "ts": 5, "pid": 1, "tid": 1}]'
    with pytest.warns(ccrc.ReadWarning, match="^<bytes>: 1 end events matched no open event and were ignored$"):
        p = ccrc.read(events)
    assert p.format == "Trace Event"


def test_names_and_paths_beyond_ascii(tmp_path):
    p = ccrc.read("main;caf\u00e9;\u65e5\u672c 3\nmain;ok 1\n".encode())
    names = list(p.to_pandas()["name"].astype(str))
    assert names == ["main", "caf\u00e9", "\u65e5\u672c", "ok"]
    assert p.node("main;caf\u00e9;\u65e5\u672c") == 3
    # A file name that is not UTF-8 (its bytes as surrogates, as os.fsdecode gives them).
    odd = os.fsdecode(bytes(tmp_path) + b"/\xff.folded")
    p.write(odd)
    again = ccrc.read(odd)
    assert again.name == "\udcff.folded"
    assert list(again.to_pandas()["name"].astype(str)) == names
    with pytest.raises(ccrc.ParseError, match="line 1: frame name is not valid UTF-8") as caught:
        ccrc.read(b"main;\xff\xfeodd 3\n")
    assert caught.value.line == 1


def test_too_large_for_memory_is_a_memory_error(tmp_path):
    # In a child with its address space capped just above what it uses, reading a profile that
    # needs far more raises MemoryError, and the interpreter goes on.
    big = tmp_path / "big.folded"
    with big.open("w") as f:
        for i in range(400_000):
            f.write(f"main;caller_{i % 1000};function_number_{i} {i}\n")
    child = textwrap.dedent(
        f"""
        import resource, sys
        import ccrc
        with open("/proc/self/status") as status:
            size = next(int(l.split()[1]) for l in status if l.startswith("VmSize:")) * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size + 24 * 2**20, resource.RLIM_INFINITY))
        try:
            ccrc.read({str(big)!r})
        except MemoryError:
            print("MemoryError, and still running")
        """
    )
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    result = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, env=env, timeout=120)
    assert result.stdout == "MemoryError, and still running\n", result.stderr


def test_metrics_named_like_columns():
    # Metric names are the file's: a metric called "name" or "depth" gets its columns beside
    # the table's own, none replacing another.
    p = ccrc.read(b"# metrics: name depth\nmain;f 1 2\n")
    df = p.to_pandas()
    assert list(df.columns) == ["node", "parent", "depth", "name", "name", "name (inc)", "depth", "depth (inc)"]
    assert df.iloc[1].tolist()[4:] == [1, 1, 2, 2] and df.iloc[1].tolist()[2] == 2
    assert list(p.flat("depth").columns) == ["contexts", "name", "name (inc)", "depth", "depth (inc)"]


def test_a_document_above_max_document_bytes(tmp_path):
    # JSON and pprof are held whole: the bound refuses a larger document, named by its file.
    doc = b'{"shared": {"frames": [{"name": "f"}]}, "profiles": [{"type": "sampled", "name": "p", "unit": "none", "samples": [[0]], "weights": [3]}]}'
    with pytest.raises(ccrc.Error, match="^<bytes>: a JSON document larger than 100 bytes .*max_document_bytes"):
        ccrc.read(doc, max_document_bytes=100)
    (tmp_path / "p.speedscope.json").write_bytes(doc)
    with pytest.raises(ccrc.Error, match=f"^{tmp_path}/p.speedscope.json: a JSON document larger than 100 bytes"):
        ccrc.read(tmp_path / "p.speedscope.json", max_document_bytes=100)
    assert ccrc.read(doc, max_document_bytes=len(doc)).path(2) == "p;f"
    with pytest.raises(ValueError, match="max_document_bytes"):
        ccrc.read(doc, max_document_bytes=0)


def test_stacks_above_1_gib_need_force(tmp_path):
    # A chain a;a;...;a of 32,768 contexts, 1 sample each: its folded line at depth d takes
    # 2d + 2 bytes, with the header depth^2 + 3 depth + 19 = 1,073,840,147 bytes (1 GiB and
    # 96 KiB), written to /dev/null under a name that asks for folded stacks.
    depth = 32_768
    nodes = "".join(f"{n} 1 1\n" for n in range(depth))
    chain = ccrc.read(f"ccrc-cct 1\nmetrics samples\nframes 1\na\nnodes {depth + 1}\n-1 0 0\n{nodes}".encode())
    null = tmp_path / "null.folded"
    null.symlink_to("/dev/null")
    with pytest.raises(ccrc.Error, match="would take 1073840147 bytes of folded stacks .*or pass --force"):
        chain.write(null)
    chain.write(null, force=True)
    chain.write(tmp_path / "chain.cctb")
    assert len(ccrc.read(tmp_path / "chain.cctb")) == depth


def test_a_path_or_name_of_the_wrong_type_or_with_a_nul(tmp_path, figure1):
    # Issue 45: an int became bytes(n) (p.node(3): three NULs; 10**8: 100 MB), and a NUL cut
    # a path (p.write("a\\0b.cctb") wrote "a"). As Python's own open(): TypeError, ValueError,
    # and nothing written.
    with pytest.raises(TypeError, match="expected str, bytes or os.PathLike object, not int"):
        figure1.node(3)
    with pytest.raises(TypeError):
        figure1.node(10**8)
    with pytest.raises(TypeError):
        figure1.write(5)
    with pytest.raises(TypeError):
        figure1.focus([1])
    with pytest.raises(TypeError):
        figure1.search(3)
    with pytest.raises(TypeError):
        ccrc.read(3.5)
    with pytest.raises(TypeError):
        ccrc.display_name(7)
    with pytest.raises(TypeError):
        figure1.flat(metric=[0])
    for call in (
        lambda: figure1.write(tmp_path / "a\0b.cctb"),
        lambda: figure1.write(str(tmp_path / "a\0b.cctb")),
        lambda: figure1.write_viewer(tmp_path / "a\0b.html"),
        lambda: figure1.node("main\0;f"),
        lambda: figure1.focus("main\0"),
        lambda: figure1.search("ma\0in"),
        lambda: ccrc.read(tmp_path / "a\0b.cctb"),
        lambda: ccrc.display_name(b"f\0g"),
    ):
        with pytest.raises(ValueError, match="embedded null byte"):
            call()
    assert list(tmp_path.iterdir()) == []
    # What is right still works: bytes and os.PathLike for paths and names.
    assert figure1.node(b"main;f") == figure1.node("main;f")
    figure1.write(tmp_path / "ok.cctb")
    assert len(ccrc.read(tmp_path / "ok.cctb")) == 18

"""The data layer of the AwA2 survey: AwA2 features, Fashion-MNIST, and what they need.

- registry: ``sha256_content`` (a ``.gz`` verified by its decompressed content),
  ``trust_on_first_use`` (no known hash), ``optional`` datasets (not required by the
  data probe, e.g. AwA2, which cannot be obtained here);
- the AwA2 loader and its checked ``.npy`` cache, on small synthetic files in the AwA2
  layout written by the tests (their numbers are random, not AwA2's);
- Fashion-MNIST: IDX reading, and the real mirrored data (``mirrored_data``).

Only 127.0.0.1 is used: the ``server`` fixture of conftest.py serves the files.
"""

import gzip
import json
import re
import tracemalloc
import zipfile

import numpy as np
import pytest
from conftest import sha

from dimred import datasets as ds
from dimred.datasets import DataIntegrityError, DataIntegrityWarning
from dimred.datasets import awa2 as awa2_module
from dimred.datasets.awa2 import (
    AWA2_MEMBER_DIR,
    load_npy_cache,
    read_text_matrix,
    text_shape,
    text_to_npy,
)
from dimred.datasets.fashion import read_idx

BASE = {"title": "t", "citation": "c", "license": "l", "homepage": "h", "note": "n"}


def registry_of(**datasets):
    """A registry of the given ``{name: {"files": [...], ...}}`` tables (plus metadata)."""
    return ds.Registry.from_dict({"datasets": {k: BASE | v for k, v in datasets.items()}})


def idx_bytes(array: np.ndarray) -> bytes:
    """``array`` (uint8) as an uncompressed IDX file."""
    header = bytes([0, 0, 0x08, array.ndim]) + np.array(array.shape, ">u4").tobytes()
    return header + array.astype(np.uint8).tobytes()


def gz(data: bytes, level: int, mtime: int) -> bytes:
    """``data`` gzip-compressed with the given level and header time."""
    return gzip.compress(data, compresslevel=level, mtime=mtime)


# =================================================================== registry: schema
def test_registry_entries_of_the_survey():
    registry = ds.load_registry()
    awa2, fashion = registry["awa2-resnet101"], registry["fashion-mnist"]
    assert awa2.optional and "not mirrored" in awa2.optional_reason
    assert awa2.redistributable is False
    assert "awa2-resnet101" not in registry.required_datasets()
    assert "fashion-mnist" in registry.required_datasets()
    features = awa2.file("AwA2-features.txt")
    assert features.sha256 == "4704c6ee7df028f5b3ba070e8c27956937f1445e0b2209e93a11a819b517b2ac"
    assert features.archive.url == "https://cvml.ista.ac.at/AwA2/AwA2-features.zip"
    assert features.archive.sha256 is None
    for entry in awa2.files:
        assert entry.member == f"{AWA2_MEMBER_DIR}/{entry.path}"
    assert awa2.file("AwA2-labels.txt").verification == "sha256"
    assert awa2.file("AwA2-filenames.txt").verification == "first-use"
    assert "Xian" in awa2.citation and "2019" in awa2.citation
    assert len(fashion.files) == 4
    for entry in fashion.files:
        assert entry.verification == "sha256_content" and entry.sha256 is None
        assert entry.url.startswith("https://raw.githubusercontent.com/zalandoresearch/")
        assert entry.url.endswith(f"/data/fashion/{entry.path}")
    assert "MIT" in fashion.license


@pytest.mark.parametrize(
    ("item", "match"),
    [
        ({"path": "a.gz", "url": "http://x/a"}, "exactly one"),
        ({"path": "a.gz", "sha256": "0" * 64, "sha256_content": "1" * 64, "url": "u"}, "one"),
        ({"path": "a", "sha256": "0" * 64, "trust_on_first_use": True, "url": "u"}, "one"),
        ({"path": "a.txt", "sha256_content": "0" * 64, "url": "u"}, ".gz files only"),
        ({"path": "a.gz", "sha256_content": "0" * 63, "url": "u"}, "64 hex digits"),
        ({"path": "a", "trust_on_first_use": "yes", "url": "u"}, "true or false"),
    ],
)
def test_registry_rejects_bad_verification(item, match):
    with pytest.raises(ValueError, match=match):
        registry_of(d={"files": [item]})


def test_registry_optional_flag():
    file = {"path": "a", "sha256": "0" * 64, "url": "http://x/a"}
    with pytest.raises(ValueError, match="optional_reason"):
        registry_of(d={"files": [file], "optional": True})
    with pytest.raises(ValueError, match="true or false"):
        registry_of(d={"files": [file], "optional": "yes", "optional_reason": "r"})
    registry = registry_of(
        a={"files": [file]}, b={"files": [file], "optional": True, "optional_reason": "big"}
    )
    assert registry.required_datasets() == ["a"] and registry.optional_datasets() == ["b"]
    assert registry["b"].optional_reason == "big" and not registry["a"].optional


# ====================================================== verification by decompressed content
IMAGES = np.arange(2 * 3 * 4, dtype=np.uint8).reshape(2, 3, 4)
RAW = idx_bytes(IMAGES)


@pytest.fixture
def gz_toy(server):
    """``toy/img.gz`` served compressed one way; registered by its content's sha256."""
    (server.root / "img.gz").write_bytes(gz(RAW, 9, 0))
    item = {"path": "img.gz", "sha256_content": sha(RAW), "url": f"{server.url}/img.gz"}
    return registry_of(toy={"files": [item]})


def test_recompressed_gz_verifies_by_content(gz_toy, server, tmp_path, monkeypatch):
    recompressed = gz(RAW, 1, 1234567890)  # another level, another header
    assert recompressed != gz(RAW, 9, 0)
    mirror = tmp_path / "mirror"
    (mirror / "toy").mkdir(parents=True)
    (mirror / "toy" / "img.gz").write_bytes(recompressed)
    monkeypatch.setenv("DIMRED_DATA_MIRROR", str(mirror))
    path = ds.fetch("toy", "img.gz", gz_toy)
    assert path.read_bytes() == recompressed  # the mirror's bytes, accepted by content
    assert ds.content_sha256(path) == sha(RAW) and ds.file_sha256(path) != sha(RAW)
    assert np.array_equal(read_idx(path), IMAGES)
    assert ds.verify_cache(registry=gz_toy) == {"toy/img.gz": "ok"}
    assert server.requests == []
    probes = ds.probe_sources(registry=gz_toy, cache=False, mirror=mirror)
    assert probes["toy/img.gz"].source == f"mirror {mirror / 'toy' / 'img.gz'}"


def test_gz_of_other_content_is_rejected(gz_toy, server, tmp_path, monkeypatch):
    mirror = tmp_path / "mirror"
    (mirror / "toy").mkdir(parents=True)
    other = idx_bytes(IMAGES + 1)
    (mirror / "toy" / "img.gz").write_bytes(gz(other, 9, 0))
    monkeypatch.setenv("DIMRED_DATA_MIRROR", str(mirror))
    probe = ds.probe_sources(registry=gz_toy, cache=False, mirror=mirror)["toy/img.gz"]
    assert probe.attempts[0][1] == f"content sha256 {sha(other)}"
    with pytest.warns(DataIntegrityWarning, match=f"has content sha256 {sha(other)}"):
        path = ds.fetch("toy", "img.gz", gz_toy)  # falls back to the download
    assert path.read_bytes() == gz(RAW, 9, 0)
    assert server.requests == ["/img.gz", "/img.gz"]  # the probe's, the download
    # A truncated cached copy is not valid gzip: rejected and fetched again.
    path.write_bytes(gz(RAW, 9, 0)[:-10])
    assert ds.verify_cache(registry=gz_toy)["toy/img.gz"].startswith("content sha256 unreadable")
    monkeypatch.delenv("DIMRED_DATA_MIRROR")
    with pytest.warns(DataIntegrityWarning, match="unreadable gzip"):
        assert ds.content_sha256(ds.fetch("toy", "img.gz", gz_toy)) == sha(RAW)


def test_gz_with_wrong_content_everywhere_raises(gz_toy, server):
    (server.root / "img.gz").write_bytes(gz(RAW + b"\0", 6, 0))
    with pytest.warns(DataIntegrityWarning), pytest.raises(DataIntegrityError) as info:
        ds.fetch("toy", "img.gz", gz_toy)
    assert info.value.kind == "content sha256" and info.value.expected == sha(RAW)
    assert "expected content sha256" in str(info.value)
    assert not list((server.root.parent / "cache").rglob("img.gz"))


# ============================================================== trust on first use
@pytest.fixture
def tofu_toy(server):
    """``toy/names.txt``, served directly, with no registered hash."""
    (server.root / "names.txt").write_bytes(b"a_1.jpg\n")
    item = {"path": "names.txt", "trust_on_first_use": True, "url": f"{server.url}/names.txt"}
    return registry_of(toy={"files": [item]})


def test_trust_on_first_use(tofu_toy, server, tmp_path):
    first, changed, tampered = b"a_1.jpg\n", b"changed\n", b"tampered\n"
    record = tmp_path / "cache" / ".first-use" / "toy" / "names.txt.json"
    with pytest.warns(DataIntegrityWarning, match="trusting this first copy"):
        path = ds.fetch("toy", "names.txt", tofu_toy)
    assert json.loads(record.read_text())["sha256"] == sha(first)
    assert ds.verify_cache(registry=tofu_toy) == {"toy/names.txt": "ok"}
    assert ds.fetch("toy", "names.txt", tofu_toy) == path and server.requests == ["/names.txt"]
    # The source changes and the cached copy is tampered with: both are rejected, since
    # the recorded hash is enforced.
    (server.root / "names.txt").write_bytes(changed)
    path.write_bytes(tampered)
    status = ds.verify_cache(registry=tofu_toy)["toy/names.txt"]
    assert status == f"sha256 {sha(tampered)} (expected {sha(first)})"
    with pytest.warns(DataIntegrityWarning), pytest.raises(DataIntegrityError) as info:
        ds.fetch("toy", "names.txt", tofu_toy)
    assert info.value.kind == "sha256 (recorded on first use)"
    assert info.value.expected == sha(first)
    assert f"download {server.url}/names.txt" in str(info.value)
    [moved] = (tmp_path / "cache" / ".rejected").rglob("names.txt")  # set aside, not deleted
    assert moved.read_bytes() == tampered and f"moved to {moved}" in str(info.value)
    # The original comes back: accepted again.
    (server.root / "names.txt").write_bytes(first)
    assert ds.fetch("toy", "names.txt", tofu_toy).read_bytes() == first
    # Deleting the record trusts the next copy anew: here the cached one (e.g. a file
    # put there by hand), whose hash is recorded; the server is not asked.
    record.unlink()
    assert ds.verify_cache(registry=tofu_toy) == {
        "toy/names.txt": "unverified (no first-use record)"
    }
    probe = ds.probe_sources(registry=tofu_toy, mirror=False)["toy/names.txt"]
    assert probe.source == f"cache {path}"
    requests = len(server.requests)
    with pytest.warns(DataIntegrityWarning, match=re.escape(f"first copy (cached file {path})")):
        assert ds.fetch("toy", "names.txt", tofu_toy) == path
    assert json.loads(record.read_text())["sha256"] == sha(first)
    assert len(server.requests) == requests


# ========================================================== the data probe and optional data
@pytest.fixture
def optional_toy(server):
    """A required dataset ``toy`` (served) and an optional one ``big`` (not served)."""
    (server.root / "a.txt").write_bytes(b"a\n")
    required = {"files": [{"path": "a.txt", "sha256": sha(b"a\n"), "url": f"{server.url}/a.txt"}]}
    big_file = {"path": "big.bin", "sha256": sha(b"big\n"), "url": f"{server.url}/big.bin"}
    optional = {"files": [big_file], "optional": True, "optional_reason": "too big to mirror"}
    return registry_of(toy=required, big=optional)


def test_probe_reports_but_does_not_require_optional_data(conftest, optional_toy, server):
    source = ds.choose_data_source({"CI": "true"}, None, registry=optional_toy, timeout=5)
    assert (source.kind, source.action) == ("canonical", "use")
    assert list(source.probes) == ["toy/a.txt"]
    assert [probe.name for probe in source.optional_missing] == ["big/big.bin"]
    assert source.has("toy") and not source.has("big")
    with pytest.raises(ValueError, match="not probed"):
        source.has("nope")
    assert server.requests == ["/a.txt"]  # the optional dataset's URL is not asked
    attempt = source.optional_probes["big/big.bin"].attempts[-1]
    assert attempt == (f"download {server.url}/big.bin", "not asked (offline probe)")
    assert "optional, not required: big not in the mirror" in source.summary()
    assert "optional big, not required (too big to mirror): no copy in the mirror of big.bin" in (
        source.describe()
    )
    assert conftest.require(source) is source  # neither skipped nor failed under CI


def test_optional_data_in_the_mirror_is_reported(optional_toy, server, tmp_path):
    mirror = tmp_path / "mirror"
    for name, data in (("toy/a.txt", b"a\n"), ("big/big.bin", b"big\n")):
        (mirror / name).parent.mkdir(parents=True, exist_ok=True)
        (mirror / name).write_bytes(data)
    source = ds.choose_data_source({}, mirror, registry=optional_toy, timeout=5)
    assert source.action == "use" and source.has("big") and not source.optional_missing
    assert source.summary().endswith("; optional, not required: big in the mirror")
    assert server.requests == []


def test_optional_data_asked_for_is_required(conftest, optional_toy, server):
    for datasets in ("big", ["toy", "big"]):
        source = ds.choose_data_source(
            {"CI": "true"}, None, datasets=datasets, registry=optional_toy, timeout=5
        )
        assert (source.kind, source.action) == ("unavailable", "fail")
        assert [probe.name for probe in source.missing] == ["big/big.bin"]
        assert "HTTP 404" in source.describe() and not source.optional_probes
    assert "/big.bin" in server.requests  # asked for: its URL is probed
    with pytest.raises(pytest.fail.Exception, match="CI is set"):
        conftest.require(source)


def test_fetch_all_and_verify_skip_optional_data(optional_toy, server):
    assert [p.name for p in ds.fetch_all(registry=optional_toy, progress=False)] == ["a.txt"]
    assert ds.verify_cache(registry=optional_toy) == {"toy/a.txt": "ok"}
    assert ds.verify_cache(["big"], registry=optional_toy) == {"big/big.bin": "missing"}
    with pytest.raises(ds.DataDownloadError):
        ds.fetch_all(["big"], registry=optional_toy, progress=False)


def test_session_probe_does_not_require_awa2(data_source):
    """The session's own probe (CI=true included) does not need the unobtainable AwA2."""
    assert data_source.available
    assert not any(name.startswith("awa2-resnet101/") for name in data_source.probes)
    assert "awa2-resnet101/AwA2-features.txt" in data_source.optional_probes
    assert data_source.has("fashion-mnist")
    if not data_source.has("awa2-resnet101"):
        assert "awa2-resnet101 not in the mirror" in data_source.summary()


# ===================================================================== text parsing
def write_matrix(path, matrix, fmt="%.6f"):
    """Write ``matrix`` as space-separated text, one row per line (the AwA2 layout)."""
    np.savetxt(path, matrix, fmt=fmt, delimiter=" ")
    return path


@pytest.mark.parametrize("fmt", ["%.6f", "%.9g", "%.3e", "%.17g"])
@pytest.mark.parametrize("chunk_rows", [1, 3, 7, 1000])
def test_chunked_parsing_equals_loadtxt(tmp_path, fmt, chunk_rows):
    rng = np.random.default_rng(12)
    matrix = rng.exponential(0.5, size=(23, 9)) * (rng.random((23, 9)) > 0.2)
    matrix[0, 0] = -1.5e-7
    path = write_matrix(tmp_path / "m.txt", matrix, fmt)
    assert text_shape(path) == (23, 9)
    parsed = read_text_matrix(path, chunk_rows=chunk_rows)
    expected = np.loadtxt(path, dtype=np.float32, ndmin=2)
    assert parsed.dtype == np.float32 and parsed.shape == (23, 9)
    assert np.array_equal(parsed, expected)


def test_parsing_tolerates_layout_variants(tmp_path):
    path = tmp_path / "m.txt"
    path.write_bytes(b" 1 2 3 \r\n\n4\t5\t6\n\n7 8 9")  # CRLF, tabs, blanks, no final newline
    assert np.array_equal(read_text_matrix(path, chunk_rows=2), np.arange(1, 10).reshape(3, 3))


@pytest.mark.parametrize(
    ("text", "match"),
    [
        (b"", "no data rows"),
        (b"\n \n", "no data rows"),
        (b"1 2 3\n4 5 6 7\n", "data row 2 has 4 values"),
        (b"1 2 3\n4 5\n", "data row 2 has 2 values, the first row 3"),
        (b"1 2 3\n4 x 6\n", "data row 2 is not all numbers"),
    ],
)
def test_parsing_errors_name_the_file_and_row(tmp_path, text, match):
    path = tmp_path / "bad.txt"
    path.write_bytes(text)
    with pytest.raises(ValueError, match=match) as info:
        read_text_matrix(path, chunk_rows=1)
    assert str(path) in str(info.value)
    with pytest.raises(ValueError, match="chunk_rows"):
        read_text_matrix(tmp_path / "bad.txt", chunk_rows=0)
    with pytest.raises(ValueError, match="out has"):
        (tmp_path / "ok.txt").write_bytes(b"1 2\n")
        read_text_matrix(tmp_path / "ok.txt", np.empty((2, 2), np.float32))


def test_chunked_parsing_memory_is_bounded(tmp_path):
    """Parsing into a memory-mapped .npy holds about one chunk, not the whole matrix."""
    rng = np.random.default_rng(3)
    matrix = rng.exponential(0.5, size=(12000, 128)).astype(np.float32)
    path = write_matrix(tmp_path / "m.txt", matrix)
    peaks = {}
    for chunk_rows in (200, 12000):
        out = np.lib.format.open_memmap(tmp_path / f"{chunk_rows}.npy", "w+", "<f4", (12000, 128))
        tracemalloc.start()
        try:
            read_text_matrix(path, out, chunk_rows=chunk_rows)
            peaks[chunk_rows] = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert np.array_equal(out, np.loadtxt(path, dtype=np.float32))
        del out
    dense = matrix.nbytes  # 6 MB
    assert peaks[200] < dense / 4 < peaks[12000], peaks


# ======================================================================= the .npy cache
def test_npy_cache_is_checked(tmp_path):
    matrix = np.random.default_rng(5).random((7, 4))
    text = write_matrix(tmp_path / "f.txt", matrix)
    npy = tmp_path / "f.npy"
    assert load_npy_cache(npy, source_sha256=sha(text.read_bytes())) is None  # no cache yet
    text_to_npy(text, npy, chunk_rows=3)
    record = json.loads((tmp_path / "f.npy.json").read_text())
    assert record["source_sha256"] == sha(text.read_bytes())
    assert record["shape"] == [7, 4] and record["dtype"] == "<f4"
    assert record["npy_sha256"] == sha(npy.read_bytes())
    cached = load_npy_cache(npy, source_sha256=record["source_sha256"])
    assert np.array_equal(cached, np.loadtxt(text, dtype=np.float32))
    mapped = load_npy_cache(npy, source_sha256=record["source_sha256"], mmap_mode="r")
    assert isinstance(mapped, np.memmap) and np.array_equal(mapped, cached)
    del mapped
    # Stale: made from another source.
    with pytest.warns(DataIntegrityWarning, match="stale"):
        assert load_npy_cache(npy, source_sha256="0" * 64) is None
    # Corrupted .npy, missing or broken sidecar.
    data = bytearray(npy.read_bytes())
    data[-1] ^= 0xFF
    npy.write_bytes(bytes(data))
    with pytest.warns(DataIntegrityWarning, match="the .npy has sha256"):
        assert load_npy_cache(npy, source_sha256=record["source_sha256"]) is None
    (tmp_path / "f.npy.json").write_text("{not json")
    with pytest.warns(DataIntegrityWarning, match="unreadable"):
        assert load_npy_cache(npy, source_sha256=record["source_sha256"]) is None
    (tmp_path / "f.npy.json").unlink()
    with pytest.warns(DataIntegrityWarning, match="unreadable"):
        assert load_npy_cache(npy, source_sha256=record["source_sha256"]) is None
    # A failed parse leaves neither a .npy nor a sidecar behind.
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"1 2\n3\n")
    with pytest.raises(ValueError, match="data row 2"):
        text_to_npy(bad, tmp_path / "bad.npy")
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(("bad.", ".bad"))) == [
        "bad.txt"
    ]


# ======================================================================== the AwA2 loader
N_ROWS, N_COLS = 9, 5
CLASSES = ["alpha", "beta+gamma", "delta"]  # invented names, not AwA2's


def awa2_layout(rng):
    """Synthetic contents of the three files, in the AwA2 formats (not AwA2's numbers)."""
    features = rng.exponential(0.5, size=(N_ROWS, N_COLS)) * (rng.random((N_ROWS, N_COLS)) > 0.3)
    labels = np.repeat([1, 2, 3], 3)  # 1-based, rows sorted by class
    names = [f"{CLASSES[k - 1]}_{10001 + i}.jpg" for i, k in enumerate(labels)]
    text = "".join(" ".join(f"{v:.6f}" for v in row) + "\n" for row in features).encode()
    return {
        "AwA2-features.txt": text,
        "AwA2-labels.txt": "".join(f"{k}\n" for k in labels).encode(),
        "AwA2-filenames.txt": "".join(f"{n}\n" for n in names).encode(),
    }


@pytest.fixture
def awa2_toy(server):
    """A synthetic AwA2-features.zip on the loopback server, and a registry like the real one."""
    files = awa2_layout(np.random.default_rng(7))
    with zipfile.ZipFile(server.root / "AwA2-features.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(f"{AWA2_MEMBER_DIR}/{name}", data)
    real = ds.load_registry()["awa2-resnet101"]
    entries = []
    for entry in real.files:  # same paths, members and verification modes as the real entry
        item = {"path": entry.path, "archive": "zip", "member": entry.member}
        if entry.verification == "first-use":
            item["trust_on_first_use"] = True
        else:
            item["sha256"] = sha(files[entry.path])
        entries.append(item)
    table = {
        "title": "Synthetic files in the AwA2 layout (test data)",
        "citation": "None: random numbers written by the test.",
        "license": "CC0",
        "homepage": "http://127.0.0.1/",
        "optional": True,
        "optional_reason": "test",
        "archives": {"zip": {"url": f"{server.url}/AwA2-features.zip"}},
        "files": entries,
    }
    registry = ds.Registry.from_dict({"datasets": {"awa2-resnet101": table}})
    return registry, files


def test_load_awa2_downloads_parses_and_caches(awa2_toy, server, tmp_path):
    registry, files = awa2_toy
    with pytest.warns(DataIntegrityWarning, match="AwA2-filenames.txt: no hash is registered"):
        bunch = ds.load_awa2(registry=registry, chunk_rows=2)
    text = tmp_path / "cache" / "awa2-resnet101" / "AwA2-features.txt"
    expected = np.loadtxt(text, dtype=np.float32)
    assert bunch.data.dtype == np.float32 and bunch.data.shape == (N_ROWS, N_COLS)
    assert np.array_equal(bunch.data, expected)
    assert bunch.target.tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2]  # the file's labels minus 1
    assert bunch.target_names.tolist() == CLASSES
    assert bunch.filenames[3] == "beta+gamma_10004.jpg"
    assert bunch.cache == text.with_suffix(".npy") and bunch.cache.is_file()
    record = json.loads(bunch.cache.with_name("AwA2-features.npy.json").read_text())
    assert record["source_sha256"] == sha(files["AwA2-features.txt"])
    assert record["shape"] == [N_ROWS, N_COLS]
    assert server.requests == ["/AwA2-features.zip"]  # one archive, three members
    X, y = ds.load_awa2(registry=registry, return_X_y=True)
    assert np.array_equal(X, expected) and np.array_equal(y, bunch.target)


def test_load_awa2_uses_the_checked_cache(awa2_toy, server, tmp_path, monkeypatch):
    registry, _ = awa2_toy
    with pytest.warns(DataIntegrityWarning):
        first = ds.load_awa2(registry=registry)
    # The cache is used: the text is neither parsed nor needed any more.
    (tmp_path / "cache" / "awa2-resnet101" / "AwA2-features.txt").unlink()

    def no_parsing(*args, **kwargs):
        raise AssertionError("the text was parsed again")

    with monkeypatch.context() as patch:
        patch.setattr(awa2_module, "text_to_npy", no_parsing)
        mapped = ds.load_awa2(registry=registry, mmap_mode="r")
        assert isinstance(mapped.data, np.memmap)
        assert np.array_equal(mapped.data, first.data)
        del mapped
    assert server.requests == ["/AwA2-features.zip"]
    # A stale sidecar (another source hash): rebuilt from the verified text.
    sidecar = first.cache.with_name("AwA2-features.npy.json")
    record = json.loads(sidecar.read_text())
    sidecar.write_text(json.dumps(record | {"source_sha256": "1" * 64}))
    with pytest.warns(DataIntegrityWarning, match="stale"):
        again = ds.load_awa2(registry=registry)
    assert np.array_equal(again.data, first.data)
    assert json.loads(sidecar.read_text()) == record
    # A corrupted .npy: rebuilt as well.
    first.cache.write_bytes(first.cache.read_bytes()[:-4] + b"\0\0\0\1")
    with pytest.warns(DataIntegrityWarning, match="the .npy has sha256"):
        assert np.array_equal(ds.load_awa2(registry=registry).data, first.data)


def bad_awa2(server, files, **changes):
    """Serve the AwA2 layout with some files changed; its registry."""
    files = files | changes
    with zipfile.ZipFile(server.root / "AwA2-features.zip", "w") as zf:
        for name, data in files.items():
            zf.writestr(f"{AWA2_MEMBER_DIR}/{name}", data)
    table = {
        "files": [
            {"path": name, "archive": "zip", "member": f"{AWA2_MEMBER_DIR}/{name}"}
            | {"sha256": sha(data)}
            for name, data in files.items()
        ],
        "archives": {"zip": {"url": f"{server.url}/AwA2-features.zip"}},
    }
    return registry_of(**{"awa2-resnet101": table})


@pytest.mark.parametrize(
    ("changes", "match"),
    [
        ({"AwA2-labels.txt": b"1\n1\n"}, "9 feature rows, 2 labels and 9 file names"),
        ({"AwA2-labels.txt": b"1\n1\n1\n3\n3\n3\n4\n4\n4\n"}, "labels must be the integers"),
        ({"AwA2-filenames.txt": b"a_1.jpg\n" * 8 + b"b_2.jpg\n"}, "several classes"),
        ({"AwA2-features.txt": b"1 2\n3\n"}, "data row 2"),
    ],
)
def test_load_awa2_rejects_inconsistent_files(server, changes, match):
    files = awa2_layout(np.random.default_rng(1))
    registry = bad_awa2(server, files, **changes)
    with pytest.raises(ValueError, match=match):
        ds.load_awa2(registry=registry)


# ===================================================== bringing your own AwA2 features
def official_zip(path, files):
    """``files`` zipped in the layout of the official ``AwA2-features.zip``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(f"Animals_with_Attributes2/Features/ResNet101/{name}", data)
    return path


def test_add_the_official_zip_or_its_extracted_files(awa2_toy, server, tmp_path):
    """``python -m dimred.datasets add awa2-resnet101 PATH``, as a function: the zip, or
    the folder it was extracted into; nothing is downloaded and the user's copy stays."""
    registry, files = awa2_toy
    server.stop()  # no network
    mine = official_zip(tmp_path / "mine" / "AwA2-features.zip", files)
    with pytest.warns(DataIntegrityWarning, match="trusting this first copy"):
        added = ds.add_copies("awa2-resnet101", [mine], registry)
    assert [(a.name, a.status) for a in added] == [
        (f"awa2-resnet101/{name}", "added") for name in files
    ]
    assert added[0].detail == f"from member {AWA2_MEMBER_DIR}/AwA2-features.txt of {mine}"
    bunch = ds.load_awa2(registry=registry)
    assert bunch.data.shape == (N_ROWS, N_COLS) and bunch.target_names.tolist() == CLASSES
    assert mine.is_file()  # read, not moved
    again = ds.add_copies("awa2-resnet101", [mine], registry)
    assert {a.status for a in again} == {"cached"}
    # The extracted folder, in a fresh cache: found below the folder, whatever its layout.
    extracted = tmp_path / "extracted"
    with zipfile.ZipFile(mine) as zf:
        zf.extractall(extracted)
    fresh = tmp_path / "fresh"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DIMRED_DATA_CACHE", str(fresh))
        with pytest.warns(DataIntegrityWarning, match="trusting this first copy"):
            added = ds.add_copies("awa2-resnet101", [extracted], registry)
        assert all(a.ok for a in added) and "Animals_with_Attributes2" in added[0].detail
        assert np.array_equal(ds.load_awa2(registry=registry).data, bunch.data)


def test_add_rejects_a_wrong_copy_and_leaves_it_alone(awa2_toy, server, tmp_path):
    registry, files = awa2_toy
    wrong, content = tmp_path / "AwA2-labels.txt", b"1\n2\n"
    wrong.write_bytes(content)
    missing = tmp_path / "elsewhere"
    missing.mkdir()
    added = {a.name: a for a in ds.add_copies("awa2-resnet101", [wrong, missing], registry)}
    labels = added["awa2-resnet101/AwA2-labels.txt"]
    assert labels.status == "rejected" and not labels.ok
    assert f"{wrong} has sha256 {sha(content)}" in labels.detail
    assert f"expected {sha(files['AwA2-labels.txt'])}" in labels.detail
    assert "left as it is" in labels.detail and wrong.read_bytes() == content
    assert added["awa2-resnet101/AwA2-features.txt"].status == "not found"
    assert not (tmp_path / "cache" / "awa2-resnet101" / "AwA2-labels.txt").exists()
    with pytest.raises(FileNotFoundError, match="no such file or folder"):
        ds.add_copies("awa2-resnet101", [tmp_path / "nope.zip"], registry)


@pytest.mark.parametrize("folder", ["cache/awa2-resnet101", "mirror/awa2-resnet101"])
def test_official_zip_in_the_cache_or_mirror_folder_is_used(
    awa2_toy, server, tmp_path, monkeypatch, folder
):
    """A zip dropped beside the cached files, or in the mirror, is found by the loader."""
    registry, files = awa2_toy
    server.stop()
    official_zip(tmp_path / folder / "AwA2-features.zip", files)
    monkeypatch.setenv("DIMRED_DATA_MIRROR", str(tmp_path / "mirror"))
    with pytest.warns(DataIntegrityWarning, match="trusting this first copy"):
        bunch = ds.load_awa2(registry=registry)
    assert bunch.data.shape == (N_ROWS, N_COLS)


def test_wrong_zip_is_moved_aside_and_the_error_says_why(awa2_toy, server, tmp_path):
    """A zip whose features fail verification is moved aside, never deleted; the error
    (a DataError, the one class to catch for a fallback) names it and where it went."""
    registry, files = awa2_toy
    server.stop()
    folder = tmp_path / "cache" / "awa2-resnet101"
    bad = b"1 2\n"
    official_zip(folder / "AwA2-features.zip", files | {"AwA2-features.txt": bad})
    with pytest.warns(DataIntegrityWarning), pytest.raises(ds.DataError) as info:
        ds.load_awa2(registry=registry)
    [moved] = (tmp_path / "cache" / ".rejected").rglob("AwA2-features.zip")
    assert zipfile.ZipFile(moved).read(f"{AWA2_MEMBER_DIR}/AwA2-features.txt") == bad
    message = str(info.value)
    assert f"moved to {moved}" in message and sha(bad) in message
    assert isinstance(info.value, DataIntegrityError)


def test_load_awa2_arguments():
    with pytest.raises(ValueError, match="mmap_mode"):
        ds.load_awa2(mmap_mode="w+")
    files = [{"path": "AwA2-features.txt", "trust_on_first_use": True, "url": "http://x/f"}]
    with pytest.raises(ValueError, match="must be registered with its sha256"):
        ds.load_awa2(registry=registry_of(**{"awa2-resnet101": {"files": files}}))


# ======================================================================== Fashion-MNIST
def test_read_idx(tmp_path):
    labels = np.array([3, 1, 4, 1, 5], dtype=np.uint8)
    (tmp_path / "l.idx").write_bytes(idx_bytes(labels))
    (tmp_path / "i.idx.gz").write_bytes(gz(RAW, 5, 0))
    assert np.array_equal(read_idx(tmp_path / "l.idx"), labels)
    assert np.array_equal(read_idx(tmp_path / "i.idx.gz"), IMAGES)
    floats = np.array([[1.5, -2.0]], dtype=">f4")
    header = bytes([0, 0, 0x0D, 2]) + np.array([1, 2], ">u4").tobytes()
    (tmp_path / "f.idx").write_bytes(header + floats.tobytes())
    assert read_idx(tmp_path / "f.idx").tolist() == [[1.5, -2.0]]
    (tmp_path / "bad.idx").write_bytes(b"PK\3\4rest")
    with pytest.raises(ValueError, match="not an IDX file"):
        read_idx(tmp_path / "bad.idx")
    (tmp_path / "short.idx").write_bytes(idx_bytes(labels)[:-1])
    with pytest.raises(ValueError, match="the file has"):
        read_idx(tmp_path / "short.idx")


def test_fashion_mnist_real(mirrored_data):
    bunch = ds.load_fashion_mnist()
    assert bunch.data.shape == (70000, 784) and bunch.data.dtype == np.uint8
    assert bunch.target.dtype == np.int64
    assert np.bincount(bunch.target).tolist() == [7000] * 10
    assert np.bincount(bunch.target[bunch.is_train]).tolist() == [6000] * 10
    assert bunch.is_train.sum() == 60000 and bunch.is_train[:60000].all()
    assert np.array_equal(bunch.train_index, np.flatnonzero(bunch.is_train))
    assert np.array_equal(bunch.test_index, np.flatnonzero(~bunch.is_train))
    assert list(bunch.target_names) == list(ds.FASHION_MNIST_CLASSES)
    assert bunch.image_shape == (28, 28) and 0 < bunch.data.mean() < 255
    X, y = ds.load_fashion_mnist(as_float=True, return_X_y=True)
    assert X.dtype == np.float32 and X.min() == 0 and X.max() == 1
    assert np.array_equal(X, bunch.data / np.float32(255)) and np.array_equal(y, bunch.target)
    status = ds.verify_cache(["fashion-mnist"])
    assert set(status.values()) == {"ok"} and len(status) == 4

"""Tests of the data layer: registry, verified fetching, loaders.

The fetching tests use no network beyond a throw-away HTTP server on 127.0.0.1. The
tests of the real data (``mirrored_data``) read it from a mirror, else from the
canonical URLs; see conftest.py.
"""

import functools
import pickle
import re
import socket
import time
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import publish_toy, sha

from compendium import paths
from compendium.paths import cache_dir
from dimred import datasets as ds
from dimred.datasets import (
    DataDownloadError,
    DataError,
    DataIntegrityError,
    DataIntegrityWarning,
    fetching,
)
from papers import PAPERS

# ------------------------------------------------------------------------------ fixtures
# ``server`` (a static HTTP server on 127.0.0.1, with an empty cache and no mirror) and
# ``mirrored_data`` (the real data, from a mirror or the canonical URLs) are in conftest.py.


A_BYTES = b"1 2 3\n4 5 6\n"
B_BYTES = b"x;y\n1;no\n2;yes\n"
C_BYTES = b"a member of the archive\n"


@pytest.fixture
def toy(server):
    """The synthetic files on the server, and their registry."""
    return publish_toy(
        server,
        {
            "sub/a.txt": (A_BYTES, None),
            "b.csv": (B_BYTES, "pack/b.csv"),
            "c.txt": (C_BYTES, "pack/c.txt"),
        },
    )


@pytest.fixture(scope="module")
def real_heart(mirrored_data) -> bytes:
    """The bytes of the real ``statlog-heart/heart.dat`` (before ``server`` unsets the mirror)."""
    return ds.fetch("statlog-heart", "heart.dat").read_bytes()


# ------------------------------------------------------------------------------ registry
def _hash_list(text, prefix):
    """``{prefix + name: digest}`` of a sha256sum listing."""
    pairs = (line.split(maxsplit=1) for line in text.splitlines() if line.strip())
    return {prefix + name: digest for digest, name in pairs}


def test_registry_matches_the_data_sources(mirrored_data):
    registry = ds.load_registry()
    required = registry.files(registry.required_datasets())  # optional ones: not mirrored
    # SHA256SUMS lists the files verified by their own sha256 (not Fashion-MNIST's .gz,
    # verified by their decompressed content), except a dataset's files that the mirror
    # lists in the dataset's own HASHES.sha256 (orca-holdouts' 600 files).
    mirror = mirrored_data.mirror
    manifests = {
        name: mirror / name / "HASHES.sha256"
        for name in registry.required_datasets()
        if mirror and (mirror / name / "HASHES.sha256").is_file()
    }
    expected = {
        entry.name: entry.sha256
        for entry in required
        if entry.sha256 is not None and entry.name.split("/")[0] not in manifests
    }
    sums = mirror / "SHA256SUMS" if mirror else None
    if sums is not None and sums.is_file():  # the mirror lists exactly the registered files
        assert _hash_list(sums.read_text(), "") == expected
    for name, manifest in manifests.items():
        registered = {e.path: e.sha256 for e in registry[name].files}
        assert _hash_list(manifest.read_text(), "") == registered, name
    # Every required file, from the mirror or its canonical URL, has the registered hash.
    paths = ds.fetch_all(progress=False)
    assert [path.relative_to(cache_dir()).as_posix() for path in paths] == [
        entry.name for entry in required
    ]
    assert set(ds.verify_cache().values()) == {"ok"}
    # The sizes shown by `datasets list` are those of the files (within 1%: a .gz verified
    # by its content may come re-compressed).
    for name in registry.required_datasets():
        size = sum((cache_dir() / entry.name).stat().st_size for entry in registry[name].files)
        assert registry[name].size == pytest.approx(size, rel=0.01), name


def test_registry_metadata_and_sources():
    registry = ds.load_registry()
    assert set(registry) == {
        "statlog-australian",
        "statlog-heart",
        "bank-marketing",
        "orca-ordinal",
        "movielens-100k",
        "usps-9298",
        "umist-faces-32x32",
        "fashion-mnist",
        "awa2-resnet101",
        "orca-holdouts",
    }
    assert registry.optional_datasets() == ["awa2-resnet101"]
    for name in registry:
        meta = registry[name]
        assert meta.title and meta.citation and meta.license and meta.homepage and meta.note
        for entry in meta.files:
            assert (entry.url is None) != (entry.archive is None)
            assert (entry.url or entry.archive.url).startswith("https://")
    assert registry["movielens-100k"].redistributable is False
    for name in registry:  # every dataset is read by some paper (or is optional, saying
        # why), and has a size to show
        assert registry[name].papers or registry[name].optional, name
        assert set(registry[name].papers) <= set(PAPERS), name
        assert registry[name].size > 0
    assert registry.datasets_of("bvp") == ["orca-ordinal"]
    car = registry.file("orca-ordinal", "car/train_car.0")
    assert car.url.startswith("https://raw.githubusercontent.com/ayrna/orca-python/43ef67e")
    udata = registry.file("movielens-100k", "u.data")
    assert udata.member == "ml-100k/u.data" and udata.archive.sha256 is None


def test_registry_rejects_malformed_entries():
    base = {"title": "t", "citation": "c", "license": "l", "homepage": "h"}
    bad_files = [
        {"path": "a", "sha256": "0" * 64},  # neither url nor archive
        {"path": "a", "sha256": "0" * 63, "url": "http://x/a"},  # bad hash
        {"path": "../a", "sha256": "0" * 64, "url": "http://x/a"},  # escapes the folder
        {"path": "a", "sha256": "0" * 64, "archive": "nope", "member": "a"},
    ]
    for item in bad_files:
        with pytest.raises(ValueError, match="registry"):
            ds.Registry.from_dict({"datasets": {"d": {**base, "files": [item]}}})
    item = {"path": "a", "sha256": "0" * 64, "url": "http://x/a"}
    for bad in ({"papers": "bvp"}, {"papers": [""]}, {"size": -1}, {"size": "1 MB"}):
        with pytest.raises(ValueError, match="'papers'|'size'"):
            ds.Registry.from_dict({"datasets": {"d": {**base, **bad, "files": [item]}}})


# Each loader of dimred.datasets, called with these arguments, fetches its dataset first.
LOADER_ARGS = {"load_orca": ("car",), "load_orca_holdouts": ("tae",)}


class _Fetched(Exception):
    """Raised by the stand-in ``fetch``: which dataset a loader asked for."""


def loader_datasets(monkeypatch) -> dict[str, str]:
    """``{loader name: the dataset it fetches}`` for every public ``load_*`` loader."""

    def record(dataset, path, registry=None):
        raise _Fetched(dataset)

    for module in (ds.tabular, ds.ordinal, ds.fashion, ds.awa2):
        monkeypatch.setattr(module, "fetch", record)
    found = {}
    for name in (
        name for name in ds.__all__ if name.startswith("load_") and name != "load_registry"
    ):
        with pytest.raises(_Fetched) as info:
            getattr(ds, name)(*LOADER_ARGS.get(name, ()))
        found[name] = info.value.args[0]
    return found


@pytest.mark.parametrize("paper", PAPERS)
def test_papers_declare_the_datasets_their_code_loads(paper, monkeypatch, tmp_path):
    """``papers`` in the registry (what `make <paper>` checks) matches the loaders each
    paper's experiment package and notebook call."""
    monkeypatch.setenv("DIMRED_DATA_CACHE", str(tmp_path))  # no cached AwA2 .npy
    loaders = loader_datasets(monkeypatch)
    sources = [*(paths.ROOT / "lib/papers" / paper).rglob("*.py")]
    sources.append(paths.ROOT / "notebooks" / f"{paper}.py")
    called = {word for path in sources for word in re.findall(r"\bload_\w+", path.read_text())}
    used = {loaders[name] for name in called if name in loaders}
    assert used, f"{paper} calls no dataset loader"
    assert sorted(used) == sorted(ds.load_registry().datasets_of(paper))
    with pytest.raises(KeyError, match="unknown dataset"):
        ds.load_registry()["nope"]


# ------------------------------------------------------------------------------ fetching
def test_download_direct_file(toy, server, tmp_path):
    path = ds.fetch("toy", "sub/a.txt", toy)
    assert path == tmp_path / "cache" / "toy" / "sub" / "a.txt"
    assert path.read_bytes() == A_BYTES
    assert ds.fetch("toy", "sub/a.txt", toy) == path  # served from the cache
    assert server.requests == ["/a.txt"]


def test_download_archive_members(toy, server):
    assert ds.fetch("toy", "b.csv", toy).read_bytes() == B_BYTES
    assert ds.fetch("toy", "c.txt", toy).read_bytes() == C_BYTES
    assert server.requests == ["/pack.zip"]  # the archive is downloaded once


def test_download_real_file(real_heart, server):
    (server.root / "heart.dat").write_bytes(real_heart)
    real = ds.load_registry().file("statlog-heart", "heart.dat")
    registry = ds.Registry.from_dict(
        {
            "datasets": {
                "statlog-heart": {
                    "title": "Heart",
                    "citation": "c",
                    "license": "l",
                    "homepage": "h",
                    "files": [
                        {
                            "path": "heart.dat",
                            "sha256": real.sha256,
                            "url": f"{server.url}/heart.dat",
                        }
                    ],
                }
            }
        }
    )
    path = ds.fetch("statlog-heart", "heart.dat", registry)
    assert ds.file_sha256(path) == real.sha256


@pytest.mark.parametrize("name", ["sub/a.txt", "b.csv"])
def test_corrupted_cache_is_refetched(toy, server, name):
    path = ds.fetch("toy", name, toy)
    good = path.read_bytes()
    path.write_bytes(good[: len(good) // 2])  # truncated
    with pytest.warns(DataIntegrityWarning, match="cached file") as caught:
        again = ds.fetch("toy", name, toy)
    assert again == path and path.read_bytes() == good
    # The rejected copy is moved aside, never deleted, and the warning says where.
    [moved] = (cache_dir() / ".rejected").rglob(Path(name).name)
    assert moved.read_bytes() == good[: len(good) // 2]
    assert moved.relative_to(cache_dir() / ".rejected").parts[1:] == ("toy", *Path(name).parts)
    assert f"moved to {moved}" in str(caught[0].message)


def test_mirror_is_used_before_the_network(toy, server, tmp_path, monkeypatch):
    mirror = tmp_path / "mirror"
    (mirror / "toy" / "sub").mkdir(parents=True)
    (mirror / "toy" / "sub" / "a.txt").write_bytes(A_BYTES)
    monkeypatch.setenv("DIMRED_DATA_MIRROR", str(mirror))
    assert ds.fetch("toy", "sub/a.txt", toy).read_bytes() == A_BYTES
    assert server.requests == []


@pytest.mark.parametrize("folder", ["cache/toy", "cache/.archives/toy", "mirror/toy"])
def test_archive_already_on_disk_is_used(toy, server, tmp_path, monkeypatch, folder):
    """A copy of the archive in the cache or the mirror is used; nothing is downloaded."""
    (tmp_path / folder).mkdir(parents=True)
    (tmp_path / folder / "pack.zip").write_bytes((server.root / "pack.zip").read_bytes())
    monkeypatch.setenv("DIMRED_DATA_MIRROR", str(tmp_path / "mirror"))
    probe = ds.probe_sources(registry=toy)["toy/b.csv"]
    assert probe.source == f"member pack/b.csv of {tmp_path / folder / 'pack.zip'}"
    assert ds.fetch("toy", "b.csv", toy).read_bytes() == B_BYTES
    assert ds.fetch("toy", "c.txt", toy).read_bytes() == C_BYTES
    assert server.requests == ["/a.txt"]  # the probe of the direct file; no archive


def test_wrong_archive_on_disk_is_moved_aside(toy, server, tmp_path, monkeypatch):
    mirror = tmp_path / "mirror"
    for folder in (tmp_path / "cache" / "toy", mirror / "toy"):
        folder.mkdir(parents=True)
        with zipfile.ZipFile(folder / "pack.zip", "w") as zf:
            zf.writestr("pack/b.csv", b"not b\n")
    monkeypatch.setenv("DIMRED_DATA_MIRROR", str(mirror))
    with pytest.warns(DataIntegrityWarning) as caught:
        assert ds.fetch("toy", "b.csv", toy).read_bytes() == B_BYTES  # downloaded
    [moved] = (tmp_path / "cache" / ".rejected").rglob("pack.zip")
    assert moved.parent.name == "toy" and not (tmp_path / "cache" / "toy" / "pack.zip").exists()
    messages = " ".join(str(warning.message) for warning in caught)
    assert f"moved to {moved}" in messages and "left as it is" in messages
    assert (mirror / "toy" / "pack.zip").is_file()  # the mirror is never changed
    assert server.requests == ["/pack.zip"]


def test_corrupted_mirror_falls_back_to_download(toy, server, tmp_path, monkeypatch):
    mirror = tmp_path / "mirror"
    (mirror / "toy" / "sub").mkdir(parents=True)
    (mirror / "toy" / "sub" / "a.txt").write_bytes(b"corrupted\n")
    (mirror / "toy" / "b.csv").write_bytes(B_BYTES[:-3])
    monkeypatch.setenv("DIMRED_DATA_MIRROR", str(mirror))
    with pytest.warns(DataIntegrityWarning, match="mirror"):
        assert ds.fetch("toy", "sub/a.txt", toy).read_bytes() == A_BYTES
    with pytest.warns(DataIntegrityWarning, match="mirror"):
        assert ds.fetch("toy", "b.csv", toy).read_bytes() == B_BYTES
    assert server.requests == ["/a.txt", "/pack.zip"]


def test_every_source_wrong_raises(toy, server, tmp_path, monkeypatch):
    bad_mirror, bad_download = b"mirror is wrong\n", b"server is wrong\n"
    mirror = tmp_path / "mirror"
    (mirror / "toy" / "sub").mkdir(parents=True)
    (mirror / "toy" / "sub" / "a.txt").write_bytes(bad_mirror)
    (server.root / "a.txt").write_bytes(bad_download)
    cached = tmp_path / "cache" / "toy" / "sub" / "a.txt"
    cached.parent.mkdir(parents=True)
    cached.write_bytes(b"stale")
    monkeypatch.setenv("DIMRED_DATA_MIRROR", str(mirror))
    with pytest.warns(DataIntegrityWarning), pytest.raises(DataIntegrityError) as info:
        ds.fetch("toy", "sub/a.txt", toy)
    message = str(info.value)
    assert "toy/sub/a.txt" in message and sha(A_BYTES) in message
    assert sha(bad_mirror) in message and sha(bad_download) in message
    assert f"{server.url}/a.txt" in message
    assert info.value.expected == sha(A_BYTES)
    assert not cached.exists()  # nothing wrong is left in the cache, nothing deleted:
    [moved] = (tmp_path / "cache" / ".rejected").rglob("a.txt")
    assert moved.read_bytes() == b"stale" and f"moved to {moved}" in message
    assert (mirror / "toy" / "sub" / "a.txt").read_bytes() == bad_mirror  # left as it is
    assert str(pickle.loads(pickle.dumps(info.value))) == message


def test_wrong_archive_member_raises(toy, server):
    with zipfile.ZipFile(server.root / "pack.zip", "w") as zf:
        zf.writestr("pack/b.csv", b"changed upstream\n")
    with pytest.warns(DataIntegrityWarning), pytest.raises(DataIntegrityError) as info:
        ds.fetch("toy", "b.csv", toy)
    assert sha(b"changed upstream\n") in str(info.value) and sha(B_BYTES) in str(info.value)
    assert "pack/b.csv" in str(info.value)


def test_download_failure_names_url_and_mirror(toy, server):
    (server.root / "a.txt").unlink()  # 404
    with pytest.raises(DataDownloadError, match="DIMRED_DATA_MIRROR") as info:
        ds.fetch("toy", "sub/a.txt", toy)
    error = info.value
    assert f"{server.url}/a.txt" in str(error) and "datasets add toy PATH" in str(error)
    assert (error.name, error.url) == ("toy/sub/a.txt", f"{server.url}/a.txt")
    assert error.reason.startswith("HTTPError: 404")
    assert isinstance(error, DataError) and isinstance(error, OSError)
    assert str(pickle.loads(pickle.dumps(error))) == str(error)
    assert issubclass(DataIntegrityError, DataError)  # one class to catch for a fallback


@pytest.fixture
def silent_server():
    """``http://127.0.0.1:<port>``: a server that accepts connections and never answers."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(16)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"


def test_downloads_and_probes_give_up_when_nothing_answers(server, silent_server, monkeypatch):
    """A network that never answers costs seconds (``TIMEOUT``), not pooch's 30 s a file."""
    assert max(ds.fetching.TIMEOUT) <= 10 and ds.probing.PROBE_TIMEOUT <= 10
    monkeypatch.setattr(fetching, "TIMEOUT", (1.0, 1.0))
    item = {"path": "a.txt", "sha256": sha(A_BYTES), "url": f"{silent_server}/a.txt"}
    meta = {"title": "t", "citation": "c", "license": "l", "homepage": "h"}
    silent = ds.Registry.from_dict({"datasets": {"toy": {**meta, "files": [item]}}})
    start = time.monotonic()
    with pytest.raises(DataDownloadError, match="timed out"):
        ds.fetch("toy", "a.txt", silent)
    probe = ds.probe_sources(registry=silent, cache=False, mirror=False, timeout=1)["toy/a.txt"]
    assert not probe.ok and "timed out" in probe.attempts[0][1]
    assert time.monotonic() - start < 6


def test_fetch_all_verify_and_cli(toy, server, tmp_path, capsys):
    paths = ds.fetch_all(registry=toy, progress=False)
    assert [p.read_bytes() for p in paths] == [A_BYTES, B_BYTES, C_BYTES]
    assert set(ds.verify_cache(registry=toy).values()) == {"ok"}
    paths[0].write_bytes(b"")
    status = ds.verify_cache(["toy"], registry=toy)
    assert status["toy/sub/a.txt"].startswith(f"sha256 {sha(b'')}")
    toml = tmp_path / "registry.toml"
    toml.write_text(
        f'[datasets.toy]\ntitle = "Toy"\ncitation = "c"\nlicense = "l"\nhomepage = "h"\n'
        f'[[datasets.toy.files]]\npath = "sub/a.txt"\nsha256 = "{sha(A_BYTES)}"\n'
        f'url = "{server.url}/a.txt"\n'
    )
    assert ds.main(["verify", "--registry", str(toml)]) == 1
    with pytest.warns(DataIntegrityWarning, match="cached file"):
        assert ds.main(["fetch", "toy", "--registry", str(toml)]) == 0
    assert ds.main(["verify", "--registry", str(toml)]) == 0
    assert "1 files ok" in capsys.readouterr().out


# ------------------------------------------------------------------------------- loaders
def _counts(target) -> list[int]:
    return np.unique(target, return_counts=True)[1].tolist()


@pytest.mark.parametrize(
    ("loader", "shape", "counts", "n_categorical"),
    [
        (ds.load_statlog_australian, (690, 14), [383, 307], 8),
        (ds.load_statlog_heart, (270, 13), [150, 120], 8),
        (ds.load_bank_marketing, (4521, 16), [4000, 521], 9),
        (functools.partial(ds.load_bank_marketing, full=True), (45211, 16), [39922, 5289], 9),
    ],
)
def test_tabular_loaders(mirrored_data, loader, shape, counts, n_categorical):
    bunch = loader()
    frame = bunch.frame
    assert frame.shape == shape and len(bunch.target) == shape[0]
    assert _counts(bunch.target) == counts
    assert list(bunch.target_names) == sorted(set(bunch.target.tolist()))
    assert bunch.minority_class == bunch.target_names[np.argmin(counts)]
    assert bunch.feature_names == list(frame.columns)
    assert bunch.categorical.dtype == bool and bunch.categorical.sum() == n_categorical
    for name, is_cat in zip(bunch.feature_names, bunch.categorical, strict=True):
        column = frame[name]
        if is_cat:
            assert isinstance(column.dtype, pd.CategoricalDtype)
            levels = list(column.cat.categories)
            assert levels == sorted(levels) and set(levels) == set(column.unique())
        else:
            assert column.dtype == np.float64
    assert bunch.description and bunch.citation and bunch.license


def test_australian_columns(mirrored_data):
    bunch = ds.load_statlog_australian()
    assert bunch.feature_names == [f"A{i}" for i in range(1, 15)]
    continuous = [n for n, c in zip(bunch.feature_names, bunch.categorical, strict=True) if not c]
    assert continuous == ["A2", "A3", "A7", "A10", "A13", "A14"]
    levels = {n: len(bunch.frame[n].cat.categories) for n in ds.AUSTRALIAN_CATEGORICAL}
    assert levels == {"A1": 2, "A4": 3, "A5": 14, "A6": 8, "A8": 2, "A9": 2, "A11": 2, "A12": 3}
    assert bunch.minority_class == 1


def test_heart_columns(mirrored_data):
    bunch = ds.load_statlog_heart()
    continuous = [n for n, c in zip(bunch.feature_names, bunch.categorical, strict=True) if not c]
    assert continuous == ["age", "resting_bp", "cholesterol", "max_heart_rate", "oldpeak"]
    assert list(bunch.frame["major_vessels"].cat.categories) == [0, 1, 2, 3]
    assert list(bunch.frame["thal"].cat.categories) == [3, 6, 7]
    assert bunch.minority_class == 2


def test_bank_columns(mirrored_data):
    bunch = ds.load_bank_marketing()
    continuous = [n for n, c in zip(bunch.feature_names, bunch.categorical, strict=True) if not c]
    assert continuous == ["age", "balance", "day", "duration", "campaign", "pdays", "previous"]
    assert "unknown" in bunch.frame["poutcome"].cat.categories
    assert (bunch.frame["job"] == "unknown").sum() == 38
    assert bunch.minority_class == "yes"


@pytest.mark.parametrize(
    ("name", "shape", "counts"),
    [
        ("contact-lenses", (24, 6), [15, 5, 4]),
        ("pasture", (36, 25), [12, 12, 12]),
        ("squash-stored", (52, 51), [23, 21, 8]),
        ("newthyroid", (215, 5), [30, 150, 35]),
        ("car", (1728, 21), [1210, 384, 69, 65]),
        ("bondrate", (57, 37), [6, 33, 12, 5, 1]),
    ],
)
def test_orca(mirrored_data, name, shape, counts):
    bunch = ds.load_orca(name)
    assert bunch.data.shape == shape and bunch.data.dtype == np.float64
    assert bunch.target.dtype.kind == "i" and _counts(bunch.target) == counts
    assert list(bunch.target_names) == list(range(1, len(counts) + 1))
    both = np.concatenate([bunch.train_index, bunch.test_index])
    assert np.array_equal(np.sort(both), np.arange(shape[0]))
    assert len(bunch.test_index) == pytest.approx(shape[0] / 4, abs=1)
    assert len(bunch.feature_names) == shape[1]


def test_orca_unknown_name():
    with pytest.raises(ValueError, match="unknown ORCA dataset"):
        ds.load_orca("iris")
    with pytest.raises(ValueError, match="unknown ORCA holdout dataset"):
        ds.load_orca_holdouts("car")  # only its partition 0 exists (orca-ordinal)


@pytest.mark.parametrize("name", sorted(ds.ORCA_HOLDOUT_DATASETS))
def test_orca_holdouts(mirrored_data, name):
    """30 stratified 75/25 partitions, each of every pattern once; partition 0 is
    orca-ordinal's where both have the dataset."""
    n, d, n_classes = ds.ORCA_HOLDOUT_DATASETS[name]
    bunch = ds.load_orca_holdouts(name)
    assert len(bunch.partitions) == ds.ORCA_HOLDOUTS == 30 and bunch.n_classes == n_classes
    rows = set()
    for part in bunch.partitions:
        X = np.vstack([part.X_train, part.X_test])
        y = np.concatenate([part.y_train, part.y_test])
        assert X.shape == (n, d) and len(part.X_test) == pytest.approx(n / 4, abs=n_classes)
        assert set(np.unique(y)) == set(range(1, n_classes + 1))
        rows.add(tuple(sorted(map(tuple, np.column_stack([X, y]).tolist()))))
    assert len(rows) == 1  # the same patterns in every partition, split differently
    splits = {tuple(map(tuple, p.X_test.tolist())) for p in bunch.partitions}
    assert len(splits) > 1
    manifest = mirrored_data.mirror and mirrored_data.mirror / "orca-holdouts" / "HASHES.sha256"
    if manifest and manifest.is_file():  # the registered hashes are the mirror's own list
        registered = {e.path: e.sha256 for e in ds.load_registry()["orca-holdouts"].files}
        listed = _hash_list(manifest.read_text(), "")
        assert {k: v for k, v in listed.items() if k.startswith(f"{name}/")} == {
            k: v for k, v in registered.items() if k.startswith(f"{name}/")
        }
    if name in ds.ORCA_DATASETS:
        first = ds.load_orca(name)
        np.testing.assert_array_equal(bunch.partitions[0].X_train, first.data[first.train_index])


def test_fetched_copies_live_in_the_cache(mirrored_data):
    path = ds.fetch("statlog-heart", "heart.dat")
    assert cache_dir() in path.parents
    assert ds.file_sha256(path) == ds.load_registry().file("statlog-heart", "heart.dat").sha256
    if mirrored_data.mirror is not None:
        assert path.read_bytes() == (mirrored_data.mirror / "statlog-heart/heart.dat").read_bytes()

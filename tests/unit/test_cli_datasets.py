"""The data layer's command line: ``python -m dimred.datasets {fetch,verify,list,add}``.

A toy registry (TOML) points at the loopback server of conftest.py; a server that has
been shut down stands for no network. Only 127.0.0.1 is used.
"""

import os
import subprocess
import sys
import time
import zipfile

import pytest
from conftest import sha

from dimred import datasets as ds
from dimred.datasets import locations as paths

A_BYTES = b"a direct file\n"
B_BYTES = b"a member of the archive\n"


@pytest.fixture(autouse=True)
def restore_mirror_variable(monkeypatch):
    """Undo, after each test, the ``DIMRED_DATA_MIRROR`` an entry point sets when it adopts
    ``../shared/data`` (:func:`~dimred.datasets.locations.adopt_shared_mirror`)."""
    original = os.environ.get("DIMRED_DATA_MIRROR")
    monkeypatch.setenv("DIMRED_DATA_MIRROR", original or "")  # recorded: restored after
    if original is None:
        monkeypatch.delenv("DIMRED_DATA_MIRROR")


@pytest.fixture
def toml(server, tmp_path):
    """A registry file: ``toy`` (a direct file, an archive member) and ``big`` (optional)."""
    (server.root / "a.txt").write_bytes(A_BYTES)
    with zipfile.ZipFile(server.root / "pack.zip", "w") as zf:
        zf.writestr("pack/b.txt", B_BYTES)
    path = tmp_path / "registry.toml"
    path.write_text(f"""
[datasets.toy]
title = "Toy"
citation = "Nobody, 2024."
license = "CC0 1.0"
homepage = "http://127.0.0.1/"
papers = ["toy_paper", "other_paper"]
size = 2_500_000
[datasets.toy.archives.pack]
url = "{server.url}/pack.zip"
[[datasets.toy.files]]
path = "a.txt"
sha256 = "{sha(A_BYTES)}"
url = "{server.url}/a.txt"
[[datasets.toy.files]]
path = "b.txt"
sha256 = "{sha(B_BYTES)}"
archive = "pack"
member = "pack/b.txt"

[datasets.big]
title = "Big"
citation = "c"
license = "All rights reserved: fetch it, never publish it."
homepage = "h"
optional = true
optional_reason = "too big to mirror"
[[datasets.big.files]]
path = "big.bin"
sha256 = "{sha(b"big")}"
url = "{server.url}/big.bin"
""")
    return path


def run(capsys, *argv):
    """``main(argv)``: (exit status, stdout, stderr)."""
    status = ds.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# --------------------------------------------------------------------------- list
def test_list_shows_cached_size_papers_and_licence(toml, server, tmp_path, capsys):
    status, out, _ = run(capsys, "list", "--registry", str(toml))
    header, toy, big, *notes = out.splitlines()
    assert status == 0 and header.split() == [
        "dataset", "files", "size", "cached", "papers", "licence"
    ]  # fmt: skip
    assert toy.split() == [
        "toy",
        "2",
        "~2.5",
        "MB",
        "no",
        "toy_paper,",
        "other_paper",
        "CC0",
        "1.0",
    ]
    assert big.startswith("big (optional)") and big.endswith("fetch it, never publish it.")
    assert big.split()[3:5] == ["?", "no"]  # no size registered, not cached
    assert (
        notes[0]
        == "optional: big: left out of `make data` and `fetch` unless named (too big to mirror)"
    )
    assert notes[1].startswith(f"cache: {tmp_path / 'cache'}; mirror: ")
    ds.fetch("toy", "a.txt", ds.load_registry(toml))
    assert run(capsys, "list", "toy", "--registry", str(toml))[1].splitlines()[1].split()[2:6] == [
        "~2.5", "MB", "partial", "(1/2)"
    ]  # fmt: skip
    ds.fetch("toy", "b.txt", ds.load_registry(toml))
    row = run(capsys, "list", "toy", "--registry", str(toml))[1].splitlines()[1]
    assert row.split()[2:5] == [f"{len(A_BYTES) + len(B_BYTES)}", "B", "yes"]  # the cached size


# -------------------------------------------------------------------------- fetch
def test_fetch_without_network_fails_fast_and_explains(toml, server, capsys):
    server.stop()
    start = time.monotonic()
    status, out, err = run(capsys, "fetch", "--registry", str(toml))
    assert time.monotonic() - start < 10
    assert status == 1 and out == "0 files ok, 2 failed\n"
    lines = err.splitlines()
    assert lines[0] == "2 of the 2 files can be obtained from no source."
    assert "  toy: 2 files missing" in lines
    assert "Two ways to get them:" in lines and "big" not in err  # optional: not asked for


def test_fetch_reports_what_it_fetched_and_what_it_could_not(toml, server, capsys):
    (server.root / "pack.zip").unlink()
    status, out, err = run(capsys, "fetch", "toy", "--registry", str(toml))
    assert status == 1 and out == "1 files ok, 1 failed\n"
    assert "toy/b.txt" not in err.splitlines()[0] and "HTTP 404" in err
    assert (paths.cache_dir() / "toy" / "a.txt").read_bytes() == A_BYTES
    assert server.requests.count("/a.txt") == 2  # the probe's one byte, the download


def test_fetch_finds_the_shared_mirror_as_make_does(toml, server, tmp_path, monkeypatch, capsys):
    shared = tmp_path / "shared" / "data"
    (shared / "toy").mkdir(parents=True)
    (shared / "toy" / "a.txt").write_bytes(A_BYTES)
    (shared / "toy" / "b.txt").write_bytes(B_BYTES)
    monkeypatch.setattr(paths, "SHARED_MIRROR", shared)  # DIMRED_DATA_MIRROR is unset
    status, out, _ = run(capsys, "fetch", "--registry", str(toml))
    assert (status, out) == (0, "2 files ok, 0 failed\n")
    assert server.requests == []


# ---------------------------------------------------------------------------- add
def test_add_copies_files_you_have(toml, server, tmp_path, capsys):
    server.stop()
    mine = tmp_path / "mine.zip"
    with zipfile.ZipFile(mine, "w") as zf:
        zf.writestr("somewhere/b.txt", B_BYTES)
    wrong = tmp_path / "a.txt"
    wrong.write_bytes(b"not a\n")
    status, out, _ = run(capsys, "add", "toy", str(mine), str(wrong), "--registry", str(toml))
    assert status == 1
    a_line, b_line, summary = out.splitlines()
    assert a_line.startswith(
        f" rejected  toy/a.txt: {wrong} has sha256 {sha(b'not a' + bytes([10]))}"
    )
    assert a_line.endswith("(your copy is left as it is)") and wrong.read_bytes() == b"not a\n"
    assert b_line == f"    added  toy/b.txt: from member somewhere/b.txt of {mine}"
    assert summary == f"1 of 2 files of toy are in the cache ({paths.cache_dir() / 'toy'})"
    wrong.write_bytes(A_BYTES)
    status, out, _ = run(capsys, "add", "toy", str(tmp_path), "--registry", str(toml))
    assert (
        status == 0
        and out.splitlines()[1] == "   cached  toy/b.txt: already in the cache, verified"
    )
    assert ds.verify_cache(["toy"], ds.load_registry(toml)) == {
        "toy/a.txt": "ok",
        "toy/b.txt": "ok",
    }


def test_add_refuses_unknown_datasets_and_paths(toml, tmp_path, capsys):
    for argv, message in (
        (["add", "nope", str(tmp_path)], "unknown dataset 'nope'"),
        (["add", "toy", str(tmp_path / "nope.zip")], "no such file or folder"),
    ):
        with pytest.raises(SystemExit) as info:
            ds.main([*argv, "--registry", str(toml)])
        assert info.value.code == 2 and message in capsys.readouterr().err


def test_command_line_prints_warnings_in_one_line(toml, server, monkeypatch):
    """``python -m dimred.datasets``: a rejected copy is one ``warning:`` line."""
    cached = paths.cache_dir() / "toy" / "a.txt"
    cached.parent.mkdir(parents=True)
    cached.write_bytes(b"stale\n")
    monkeypatch.setenv("DIMRED_DATA_MIRROR", "")  # no mirror, not even ../shared/data
    result = subprocess.run(
        [sys.executable, "-m", "dimred.datasets", "fetch", "toy", "--registry", str(toml)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0 and result.stdout == "2 files ok, 0 failed\n"
    [warning] = [line for line in result.stderr.splitlines() if "stale" in line or "moved" in line]
    assert warning.startswith(f"warning: toy/a.txt: cached file {cached} has sha256 ")
    assert "; moved to " in warning and cached.read_bytes() == A_BYTES

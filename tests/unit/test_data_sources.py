"""Where the tests get the data from: the probe, the decision, the fixture and the CI hook.

Only 127.0.0.1 is used: the ``server`` fixture of conftest.py serves the files, and a
server that has been shut down stands for an unreachable canonical URL.
"""

from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import publish_toy, sha

from dimred import datasets as ds
from dimred.datasets import locations as paths

A_BYTES = b"a direct file\n"
B_BYTES = b"a member of the archive\n"


@pytest.fixture
def toy(server):
    """The synthetic files on the server, and their registry."""
    return publish_toy(server, {"a.txt": (A_BYTES, None), "b.txt": (B_BYTES, "pack/b.txt")})


def make_mirror(root: Path, a: bytes | None = A_BYTES, b: bytes | None = B_BYTES) -> Path:
    """A mirror folder laid out as ``toy/<file>`` (``None``: leave the file out)."""
    (root / "toy").mkdir(parents=True)
    for name, data in (("a.txt", a), ("b.txt", b)):
        if data is not None:
            (root / "toy" / name).write_bytes(data)
    return root


def choose(toy, environ=None, shared=None):
    return ds.choose_data_source(environ or {}, shared, registry=toy, timeout=5)


# --------------------------------------------------------------------------------- CI
@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, False), ("", False), ("false", False), ("FALSE", False), ("0", False),
     ("true", True), ("1", True), ("yes", True), ("True", True)],
)  # fmt: skip
def test_ci_enabled(value, expected):
    assert ds.ci_enabled({} if value is None else {"CI": value}) is expected


# ------------------------------------------------------------------------------ probe
def test_probe_finds_cache_then_mirror_then_url(toy, server, tmp_path):
    cache = tmp_path / "cache"
    (cache / "toy").mkdir(parents=True)
    (cache / "toy" / "a.txt").write_bytes(A_BYTES)
    stale_bytes = b"stale\n"
    mirror = make_mirror(tmp_path / "mirror", a=stale_bytes, b=None)
    probes = ds.probe_sources(registry=toy, mirror=mirror)
    assert probes["toy/a.txt"].source == f"cache {cache / 'toy' / 'a.txt'}"
    assert probes["toy/b.txt"].source == f"download {server.url}/pack.zip"
    assert probes["toy/b.txt"].attempts == (
        (f"cache {cache / 'toy' / 'b.txt'}", "not found"),
        (f"mirror {mirror / 'toy' / 'b.txt'}", "not found"),
    )
    probes = ds.probe_sources(registry=toy, cache=False, mirror=mirror)
    assert probes["toy/a.txt"].source == f"download {server.url}/a.txt"
    stale = (f"mirror {mirror / 'toy' / 'a.txt'}", f"sha256 {sha(stale_bytes)}")
    assert probes["toy/a.txt"].attempts == (stale,)
    assert sorted(server.requests) == ["/a.txt", "/pack.zip", "/pack.zip"]
    # Nothing was fetched, written or removed.
    assert sorted(p.name for p in cache.rglob("*") if p.is_file()) == ["a.txt"]
    assert (mirror / "toy" / "a.txt").read_bytes() == stale_bytes


def test_probe_reports_http_errors(toy, server):
    (server.root / "a.txt").unlink()
    probes = ds.probe_sources(registry=toy, cache=False, mirror=False, timeout=5)
    assert not probes["toy/a.txt"].ok and probes["toy/b.txt"].ok
    failure = (f"download {server.url}/a.txt", "HTTP 404 File not found")
    assert probes["toy/a.txt"].attempts == (failure,)


def test_probe_reports_unreachable_urls(toy, server):
    server.stop()
    probes = ds.probe_sources(registry=toy, cache=False, mirror=False, timeout=5)
    assert not any(probe.ok for probe in probes.values())
    [(where, result)] = probes["toy/b.txt"].attempts
    assert where == f"download {server.url}/pack.zip" and result.startswith("unreachable")


# --------------------------------------------------------------------------- decision
def test_mirror_from_the_environment(toy, server, tmp_path):
    mirror = make_mirror(tmp_path / "mirror")
    other = make_mirror(tmp_path / "shared")
    source = choose(toy, {"DIMRED_DATA_MIRROR": str(mirror), "CI": "true"}, other)
    assert (source.kind, source.mirror, source.action) == ("mirror", mirror, "use")
    assert "2 files, 0 of them from the canonical URLs" in source.summary()
    assert server.requests == []  # a complete mirror needs no network


def test_mirror_beside_the_checkout(toy, server, tmp_path):
    shared = make_mirror(tmp_path / "shared")
    for environ in ({}, {"DIMRED_DATA_MIRROR": str(tmp_path / "nowhere")}):
        source = choose(toy, environ, shared)
        assert (source.kind, source.mirror, source.action) == ("mirror", shared, "use")
    assert "not a folder" in source.tried[0]
    assert server.requests == []


def test_partial_mirror_is_completed_from_the_urls(toy, server, tmp_path):
    shared = make_mirror(tmp_path / "shared", b=None)
    source = choose(toy, {}, shared)
    assert (source.kind, source.mirror, source.action) == ("mirror", shared, "use")
    assert source.probes["toy/b.txt"].source == f"download {server.url}/pack.zip"
    assert server.requests == ["/pack.zip"]


def test_canonical_urls_without_a_mirror(toy, server, tmp_path, monkeypatch):
    source = choose(toy, {"CI": "true"}, tmp_path / "absent")
    assert (source.kind, source.mirror, source.action) == ("canonical", None, "use")
    absent = f"mirror {tmp_path / 'absent'} (absent)"
    assert source.tried[:2] == ("DIMRED_DATA_MIRROR (not set)", absent)
    assert sorted(server.requests) == ["/a.txt", "/pack.zip"]
    # What the fixture then does: no mirror, a fresh cache; the files come from the URLs.
    monkeypatch.setenv("DIMRED_DATA_CACHE", str(tmp_path / "fresh"))
    assert ds.fetch("toy", "b.txt", toy).read_bytes() == B_BYTES
    assert server.requests[-1] == "/pack.zip" and len(server.requests) == 3


@pytest.mark.parametrize(
    ("environ", "action"),
    [({}, "skip"), ({"CI": "false"}, "skip"), ({"CI": "0"}, "skip"),
     ({"CI": "true"}, "fail"), ({"CI": "1"}, "fail")],
)  # fmt: skip
def test_nothing_reachable_skips_or_fails_under_ci(toy, server, tmp_path, environ, action):
    server.stop()
    source = choose(toy, environ, tmp_path / "absent")
    assert (source.kind, source.action) == ("unavailable", action)
    assert [probe.name for probe in source.missing] == ["toy/a.txt", "toy/b.txt"]
    summary, *details = source.describe().splitlines()
    assert summary == source.summary()
    for tried in ("DIMRED_DATA_MIRROR (not set)", f"{tmp_path / 'absent'} (absent)"):
        assert tried in summary
    assert "no source for 2 of the 2" in summary and "failed: 127.0.0.1:" in summary
    assert ("CI is set" in summary) == (action == "fail")
    assert details[0].startswith(f"  toy/a.txt: download {server.url}/a.txt: unreachable")
    assert "DIMRED_DATA_MIRROR" in details[-1]


def test_one_unreachable_file_makes_the_data_unavailable(toy, server, tmp_path):
    shared = make_mirror(tmp_path / "shared", b=None)
    server.stop()
    source = choose(toy, {}, shared)
    assert (source.kind, source.mirror, source.action) == ("unavailable", shared, "skip")
    assert [probe.name for probe in source.missing] == ["toy/b.txt"]
    assert f"{server.url}/pack.zip" in source.describe()
    assert "toy/a.txt" not in source.describe()


# --------------------------------------------------------------------- fixture and hook
def test_require_uses_skips_or_fails(conftest, toy, server, tmp_path):
    available = choose(toy, {}, None)
    assert conftest.require(available) is available
    server.stop()
    with pytest.raises(pytest.skip.Exception, match="no source for 2"):
        conftest.require(choose(toy, {}, None))
    with pytest.raises(pytest.fail.Exception, match="CI is set"):
        conftest.require(choose(toy, {"CI": "true"}, None))


def test_probe_timeout_from_the_environment(conftest):
    assert conftest.probe_timeout({}) == 10
    assert conftest.probe_timeout({"DIMRED_DATA_PROBE_TIMEOUT": "2.5"}) == 2.5


def fake_item(fixturenames=(), notebook=False):
    markers = {"notebook": object()} if notebook else {}
    return SimpleNamespace(fixturenames=list(fixturenames), get_closest_marker=markers.get)


def run_hook(conftest, item, report):
    hook = conftest.pytest_runtest_makereport(item, None)
    next(hook)
    with pytest.raises(StopIteration) as stop:
        hook.send(report)
    return stop.value.value


def skipped(reason="Skipped: SCIPY_ARRAY_API is not set"):
    return pytest.TestReport("t", ("t.py", 1, "t"), {}, "skipped", ("t.py", 1, reason), "call")


@pytest.mark.parametrize(
    ("item", "ci", "outcome"),
    [
        (fake_item(["mirrored_data", "tmp_path"]), "true", "failed"),
        (fake_item(["data_source"]), "1", "failed"),
        (fake_item(notebook=True), "true", "failed"),
        (fake_item(["mirrored_data"]), None, "skipped"),
        (fake_item(["mirrored_data"]), "false", "skipped"),
        (fake_item(["tmp_path"]), "true", "skipped"),  # e.g. scikit-learn's platform skips
    ],
)
def test_ci_turns_data_skips_into_failures(conftest, monkeypatch, item, ci, outcome):
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    report = run_hook(conftest, item, skipped("Skipped: no data"))
    assert report.outcome == outcome
    if outcome == "failed":
        assert "CI is set" in str(report.longrepr) and "no data" in str(report.longrepr)


def test_ci_leaves_xfails_and_passes_alone(conftest, monkeypatch):
    monkeypatch.setenv("CI", "true")
    xfailed = skipped()
    xfailed.wasxfail = "known"
    passed = pytest.TestReport("t", ("t.py", 1, "t"), {}, "passed", None, "call")
    for report in (xfailed, passed):
        outcome = report.outcome
        assert run_hook(conftest, fake_item(["mirrored_data"]), report).outcome == outcome


# ------------------------------------------------------------- what a user reads
def test_explain_missing_says_what_where_and_how(toy, server, tmp_path, monkeypatch):
    mirror = make_mirror(tmp_path / "mirror", a=b"stale\n", b=None)
    monkeypatch.setenv("DIMRED_DATA_MIRROR", str(mirror))
    server.stop()
    missing = [p for p in ds.probe_sources(registry=toy, timeout=5).values() if not p.ok]
    message = ds.explain_missing(missing, "paper: not started.")
    lines = message.splitlines()
    assert lines[0] == "paper: not started."
    assert lines[1] == (
        f"  Looked in: the cache {tmp_path / 'cache'}; mirror {mirror}; the canonical URLs."
    )
    assert lines[2:5] == [
        "  toy: 2 files missing",
        "    cache: not found",
        "    mirror: wrong sha256 (1 of 2); not found (1 of 2)",
    ]
    host = server.url.removeprefix("http://")
    assert lines[5].startswith(f"    download from {host}: unreachable (")
    assert lines[6] == "Two ways to get them:"
    assert "DIMRED_DATA_MIRROR" in lines[7] and "python -m dimred.datasets add" in message
    assert f"allow access to {host};" in message and "make data" in message


def test_entry_points_adopt_the_shared_mirror_as_make_does(tmp_path, monkeypatch):
    shared = tmp_path / "shared" / "data"
    monkeypatch.setattr(paths, "SHARED_MIRROR", shared)
    assert paths.adopt_shared_mirror({}) is None  # no ../shared/data: no mirror
    shared.mkdir(parents=True)
    environ = {}
    assert paths.adopt_shared_mirror(environ) == shared
    assert environ == {"DIMRED_DATA_MIRROR": str(shared)}  # the kernel inherits it
    assert paths.adopt_shared_mirror({"DIMRED_DATA_MIRROR": ""}) is None  # empty: no mirror
    other = {"DIMRED_DATA_MIRROR": str(tmp_path)}
    assert paths.adopt_shared_mirror(other) == tmp_path and other == {
        "DIMRED_DATA_MIRROR": str(tmp_path)
    }

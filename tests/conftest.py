"""Shared data fixtures: the mirrored real data beside the checkout."""

import os
from pathlib import Path

import pytest

#: ``../shared/data`` beside the checkout: the hash-checked mirror of the raw data.
SHARED_DATA = Path(__file__).parents[2] / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The shared data folder; skip the test when it is absent."""
    if not SHARED_DATA.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"CI must run with the data mirror at {SHARED_DATA}")
        pytest.skip(f"no shared data mirror at {SHARED_DATA}")
    return SHARED_DATA


@pytest.fixture(scope="module")
def mirrored_data(shared_data, tmp_path_factory):
    """Use the shared folder as DIMRED_DATA_MIRROR and a fresh cache (per test module)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DIMRED_DATA_MIRROR", str(shared_data))
        mp.setenv("DIMRED_DATA_CACHE", str(tmp_path_factory.mktemp("data-cache")))
        yield shared_data

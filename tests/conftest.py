"""Fixtures shared by every test package: where the real INEX data lives."""

from __future__ import annotations

from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]
SHARED_DATA = (REPOSITORY.parent / "shared" / "data").resolve()
DEMO = REPOSITORY / "demo"


def shared_path(*parts: str) -> Path:
    """A path under ../shared/data, skipping the calling test when it is absent."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(
            f"real INEX data not available: {path} is absent (put `shared` beside the repository)"
        )
    return path


@pytest.fixture(scope="session")
def shared_data() -> Path:
    return shared_path()


@pytest.fixture(scope="session")
def inex2010() -> Path:
    return shared_path("inex2010")


@pytest.fixture(scope="session")
def shared_collections() -> Path:
    return shared_path("collections")

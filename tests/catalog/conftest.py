"""Catalog test fixtures: a small seed file (the real seed is tested in test_seed_data.py) and stores."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from catalog import seed
from catalog.store import CatalogStore

FIXTURES = Path(__file__).parent / "fixtures"
SMALL_SEED = FIXTURES / "seed_small.json"


def small_seed_rows() -> list[dict[str, Any]]:
    """A fresh copy of the fixture seed's rows, to alter in a test."""
    return copy.deepcopy(json.loads(SMALL_SEED.read_text(encoding="utf-8")))


@pytest.fixture
def small_seed(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Make the small fixture the bundled seed, so tests do not depend on the real seed's content."""
    monkeypatch.setattr(seed, "seed_source", lambda: SMALL_SEED)
    return SMALL_SEED


@pytest.fixture
def store(catalog_url: str) -> Iterator[CatalogStore]:
    """An empty catalog (not seeded) on each backend."""
    with CatalogStore.open(catalog_url, seed=False) as opened:
        yield opened


@pytest.fixture
def seeded_store(catalog_url: str, small_seed: Path) -> Iterator[CatalogStore]:
    """A catalog seeded from the small fixture, on each backend."""
    with CatalogStore.open(catalog_url) as opened:
        yield opened

"""Fixtures for the view rows: the seed catalog, once per session."""

from __future__ import annotations

import pytest

from catalog.seed import seed_catalog
from models.hardware import HardwareCatalog


@pytest.fixture(scope="session")
def seed() -> HardwareCatalog:
    return seed_catalog()

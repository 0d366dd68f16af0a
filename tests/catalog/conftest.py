"""Catalog test fixtures: both backends, a small seed file (the real seed is tested in test_seed_data.py), stores.

`catalog_url` runs a test once against a SQLite file and once against PostgreSQL
(`REFARCH_TEST_PG_URL`, a fresh schema per test). Without that variable the
PostgreSQL run is skipped on a laptop but fails in CI (`CI=true`), so a CI
misconfiguration cannot silently drop the shared-catalog tests.
"""

from __future__ import annotations

import copy
import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, text

from catalog import seed
from catalog.store import CatalogStore

FIXTURES = Path(__file__).parent / "fixtures"
SMALL_SEED = FIXTURES / "seed_small.json"
PG_URL_ENV = "REFARCH_TEST_PG_URL"


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


@pytest.fixture(scope="session")
def pg_admin_engine() -> Iterator[Engine]:
    """An engine on the test PostgreSQL database, for creating and dropping per-test schemas."""
    url = os.environ.get(PG_URL_ENV, "").strip()
    if not url:
        if _in_ci():
            pytest.fail(f"{PG_URL_ENV} is not set: CI must run the PostgreSQL tests (see .ci/run)")
        pytest.skip(f"{PG_URL_ENV} is not set: no PostgreSQL to test against")
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    yield engine
    engine.dispose()


@pytest.fixture
def pg_url(pg_admin_engine: Engine) -> Iterator[str]:
    """A URL whose default schema is a new, empty schema, dropped after the test."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with pg_admin_engine.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = pg_admin_engine.url.update_query_dict({"options": f"-csearch_path={schema}"})
    yield url.render_as_string(hide_password=False)
    with pg_admin_engine.connect() as conn:
        conn.execute(text("SET lock_timeout = '10s'"))
        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def catalog_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty catalog location on each supported backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'catalog.sqlite'}"
    return str(request.getfixturevalue("pg_url"))


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

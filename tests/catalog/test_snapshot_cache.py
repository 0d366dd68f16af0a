"""The snapshot cache hands back exactly what the database holds, and misses whenever it changed."""

from __future__ import annotations

import dataclasses
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from catalog import snapshot_cache
from catalog.store import CatalogStore
from models.hardware import Drive

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "cache"
    snapshot_cache.configure(folder)
    yield folder
    snapshot_cache.configure(None)


def _cached(url: str) -> None:
    with CatalogStore.open(url) as store:
        token = snapshot_cache.read_token(url)
        snapshot_cache.store(url, token, store.snapshot())


def _fresh(url: str) -> list[object]:
    with CatalogStore.open(url) as store:
        return list(store.snapshot())


def test_an_unchanged_catalog_comes_back_equal(tmp_path: Path, small_seed: Path, cache: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cat.sqlite'}"
    assert snapshot_cache.load(url) is None  # nothing stored yet
    _cached(url)
    hit = snapshot_cache.load(url)
    assert hit is not None and list(hit) == _fresh(url)
    assert hit.rates == CatalogStore.open(url).snapshot().rates


def test_a_write_through_the_store_makes_it_miss(tmp_path: Path, small_seed: Path, cache: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cat.sqlite'}"
    _cached(url)
    with CatalogStore.open(url) as store:
        drive = next(p for p in store.list("drive") if isinstance(p, Drive))
        store.update(dataclasses.replace(drive, price=drive.price + 1.0))
    assert snapshot_cache.load(url) is None
    _cached(url)
    hit = snapshot_cache.load(url)
    assert hit is not None and hit.get(drive.id).price == drive.price + 1.0  # type: ignore[union-attr]


def test_a_write_behind_the_stores_back_makes_it_miss(tmp_path: Path, small_seed: Path, cache: Path) -> None:
    path = tmp_path / "cat.sqlite"
    url = f"sqlite:///{path}"
    _cached(url)
    with sqlite3.connect(path) as con:  # an update that leaves the data_version row alone
        con.execute("UPDATE drives SET price = price + 1, version = version + 1 WHERE rowid = 1")
    assert snapshot_cache.load(url) is None
    _cached(url)
    with sqlite3.connect(path) as con:
        con.execute("DELETE FROM nics WHERE rowid = 1")
    assert snapshot_cache.load(url) is None


def test_off_unless_configured_and_only_for_sqlite_files(tmp_path: Path, small_seed: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cat.sqlite'}"
    _cached(url)
    assert snapshot_cache.load(url) is None and not any(tmp_path.rglob("*.pickle"))
    assert snapshot_cache.sqlite_path("postgresql+psycopg://u@h/db") is None
    assert snapshot_cache.sqlite_path("sqlite:///:memory:") is None
    assert snapshot_cache.sqlite_path("sqlite:///file:x?mode=ro&uri=true") is None
    assert snapshot_cache.sqlite_path(url) == tmp_path / "cat.sqlite"


def test_a_damaged_cache_file_is_a_miss(tmp_path: Path, small_seed: Path, cache: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cat.sqlite'}"
    _cached(url)
    for entry in cache.glob("*.pickle"):
        entry.write_bytes(b"not a pickle")
    assert snapshot_cache.load(url) is None


def test_size_on_an_unchanged_catalog_does_not_import_sqlalchemy(tmp_path: Path) -> None:
    """The second `refarch size` reads the cached snapshot: no SQLAlchemy, no Alembic in the process."""
    db = f"sqlite:///{tmp_path / 'cat.sqlite'}"
    sample = ROOT / "resources" / "samples" / "retail-dw-gen5.json"
    env = dict(os.environ, REFARCH_CATALOG_CACHE=str(tmp_path / "cache"), REFARCH_FIT_CACHE=str(tmp_path / "fits"),
               PYTHONPATH=str(ROOT))
    probe = ("import sys, runpy; sys.argv = ['refarch', '--db', sys.argv[1], 'size', sys.argv[2]]\n"
             "try:\n    runpy.run_module('app.cli.main', run_name='__main__')\n"
             "except SystemExit as e:\n    assert not e.code, e.code\n"
             "print('LOADED', sorted(m for m in ('sqlalchemy', 'alembic') if m in sys.modules))")
    outputs = [subprocess.run([sys.executable, "-c", probe, db, str(sample)], cwd=ROOT, env=env, capture_output=True,
                              text=True, check=True).stdout for _ in range(2)]
    assert "'sqlalchemy'" in outputs[0].split("LOADED")[1]  # the first run creates and seeds the catalog
    assert "LOADED []" in outputs[1]
    assert outputs[0].split("LOADED")[0] == outputs[1].split("LOADED")[0]  # the same design either way

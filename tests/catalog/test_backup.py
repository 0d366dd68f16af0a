"""`catalog backup` and `restore`: a SQLite online copy or a portable JSON dump; a newer schema refused."""

from __future__ import annotations

import json
import sqlite3
from datetime import date
from pathlib import Path

import pytest

from app.cli.main import main
from catalog.errors import CatalogFileError
from catalog.store import CatalogStore
from tests.catalog.conftest import small_seed_rows

NIC = "cx6-25g-2p"


def _fill(store: CatalogStore, tmp_path: Path) -> None:
    store.import_rows(small_seed_rows(), source="seed.json")
    store.import_rates([{"currency": "EUR", "usd_per_unit": 1.08, "as_of": "2026-11-01", "source": "ECB"}])
    quote = tmp_path / "q.csv"
    quote.write_text(f"Part Number,Unit Price,Currency\n{NIC},640,USD\n", encoding="utf-8")
    store.apply_quote(quote, date(2026, 11, 20))


def _state(store: CatalogStore) -> tuple[object, ...]:
    sets = [(s.action, s.who, s.source, s.rows) for s in store.change_sets()]
    return store.export_rows(), list(store.rates()), sets


@pytest.mark.parametrize("fmt", ["sqlite", "json"])
def test_a_backup_restores_parts_rates_quotes_and_history(catalog_url: str, tmp_path: Path, fmt: str) -> None:
    if fmt == "sqlite" and not catalog_url.startswith("sqlite"):
        pytest.skip("a SQLite copy is of a SQLite catalog")
    with CatalogStore.open(catalog_url, seed=False) as store:
        _fill(store, tmp_path)
        saved = _state(store)
        target = tmp_path / f"backup.{fmt}"
        assert store.backup(target, fmt) == fmt
        store.delete(NIC)
        store.import_rates([{"currency": "EUR", "usd_per_unit": 1.2, "as_of": "2026-11-02", "source": "x"}])
        assert _state(store) != saved
        assert store.restore(target) == fmt
        parts, rates, sets = _state(store)
        # the restored catalog, with the backup's history and, on top, the restore itself: who restored which file
        assert (parts, rates, sets[1:]) == saved
        assert sets[0][0] == "restore" and sets[0][2] == target.name
        store.delete(NIC)  # ids carry on after the restored ones (PostgreSQL sequences)
        assert [s.action for s in store.change_sets()[:2]] == ["delete", "restore"]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".refarch-tmp")]


def test_a_json_dump_moves_a_sqlite_catalog_to_another_one(tmp_path: Path) -> None:
    with CatalogStore.open(f"sqlite:///{tmp_path / 'a.sqlite'}", seed=False) as store:
        _fill(store, tmp_path)
        saved = _state(store)
        store.backup(tmp_path / "dump.json", "json")
    with CatalogStore.open(f"sqlite:///{tmp_path / 'b.sqlite'}", seed=False) as other:
        other.restore(tmp_path / "dump.json")
        parts, rates, sets = _state(other)
        assert (parts, rates, sets[1:]) == saved and sets[0][:1] == ("restore",)


def test_a_backup_of_a_newer_schema_is_refused_untouched(tmp_path: Path) -> None:
    with CatalogStore.open(f"sqlite:///{tmp_path / 'c.sqlite'}", seed=False) as store:
        _fill(store, tmp_path)
        store.backup(tmp_path / "b.sqlite", "sqlite")
        store.backup(tmp_path / "b.json", "json")
        with sqlite3.connect(tmp_path / "b.sqlite") as conn:
            conn.execute("UPDATE alembic_version SET version_num = 'refarch_9999'")
        data = json.loads((tmp_path / "b.json").read_text())
        data["schema_revision"] = "refarch_9999"
        (tmp_path / "b.json").write_text(json.dumps(data))
        before = _state(store)
        for name in ("b.sqlite", "b.json"):
            with pytest.raises(CatalogFileError, match="'refarch_9999', newer than this refarch knows"):
                store.restore(tmp_path / name)
        assert _state(store) == before
        data["schema_revision"] = "refarch_0006"
        (tmp_path / "b.json").write_text(json.dumps(data))
        with pytest.raises(CatalogFileError, match="revision refarch_0006; this catalog is at"):
            store.restore(tmp_path / "b.json")
        (tmp_path / "x.txt").write_text("hello")
        with pytest.raises(CatalogFileError, match="not a refarch catalog backup"):
            store.restore(tmp_path / "x.txt")
        assert _state(store) == before


def test_cli_backup_and_restore(tmp_path: Path, capsys: pytest.CaptureFixture[str], small_seed: Path) -> None:
    db = f"sqlite:///{tmp_path / 'c.sqlite'}"
    assert main(["--db", db, "catalog", "backup", str(tmp_path / "b.sqlite")]) == 0
    assert "SQLite copy" in capsys.readouterr().out
    assert main(["--db", db, "catalog", "restore", str(tmp_path / "b.sqlite")]) == 0
    assert "6 part(s)" in capsys.readouterr().out
    assert main(["--db", db, "catalog", "restore", str(tmp_path / "missing.sqlite")]) == 2
    assert "cannot read the backup" in capsys.readouterr().err
    assert main(["--db", db, "catalog", "backup", str(tmp_path / "no-such-dir" / "b.json")]) == 2


@pytest.mark.parametrize("damage", ["bad date", "text for a number", "unknown table", "not a list"])
def test_a_damaged_dump_is_refused_and_the_catalog_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         damage: str) -> None:
    db = f"sqlite:///{tmp_path / 'c.sqlite'}"
    with CatalogStore.open(db, seed=False) as store:
        _fill(store, tmp_path)
        store.backup(tmp_path / "b.json", "json")
        before = _state(store)
    data = json.loads((tmp_path / "b.json").read_text())
    nic = data["tables"]["nics"][0]
    if damage == "bad date":
        nic["price_as_of"] = "20-11-2026"
    elif damage == "text for a number":
        nic["ports"] = "two"
    elif damage == "unknown table":
        data["tables"]["secrets"] = []
    else:
        data["tables"]["nics"] = {"a": 1}
    (tmp_path / "b.json").write_text(json.dumps(data))
    assert main(["--db", db, "catalog", "restore", str(tmp_path / "b.json")]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and "Traceback" not in err
    with CatalogStore.open(db, seed=False) as store:
        assert _state(store) == before

"""The catalog's history: every write recorded (who, when, which file, fields before and after), read per part and
per catalog, and one import or quote reverted as a whole without overwriting anything newer."""

from __future__ import annotations

import dataclasses
import json
from datetime import date
from pathlib import Path

import pytest

from app.cli.main import main
from catalog.errors import CatalogWriteError, InvalidRowsError
from catalog.store import CatalogStore
from models.hardware import Nic, UnknownPartError
from tests.catalog.conftest import small_seed_rows

NIC = "cx6-25g-2p"
WHEN = date(2026, 11, 20)


@pytest.fixture
def filled(store: CatalogStore, monkeypatch: pytest.MonkeyPatch) -> CatalogStore:
    monkeypatch.setenv("REFARCH_USER", "ana")
    store.import_rows(small_seed_rows(), source="seed_small.json")
    return store


def _quote(path: Path, *lines: str) -> Path:
    path.write_text("Part Number,Unit Price,Currency\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_every_write_is_recorded_with_who_when_source_and_fields(filled: CatalogStore, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFARCH_USER", "ben")
    read = filled.get_versioned(NIC)
    assert isinstance(read.part, Nic)
    filled.update(dataclasses.replace(read.part, watts=14.0), read.version)
    filled.apply_quote(_quote(tmp_path / "acme-q7.csv", f"{NIC},640,USD"), WHEN)
    filled.import_rates([{"currency": "EUR", "usd_per_unit": 1.08, "as_of": "2026-11-01", "source": "ECB"}],
                        source="rates.csv")
    filled.delete_rate("EUR")
    sets = filled.change_sets()
    assert [(s.action, s.who, s.rows) for s in sets] == [("rate-delete", "ben", 1), ("rates", "ben", 1),
                                                          ("quote", "ben", 1), ("edit", "ben", 1),
                                                          ("import", "ana", len(small_seed_rows()))]
    assert sets[2].source is not None and sets[2].source.endswith("acme-q7.csv")
    assert sets[-1].source == "seed_small.json"
    quote, edit, added = filled.history_of(NIC)
    assert edit.fields() == [("watts", 12.0, 14.0)]
    assert added.before is None and added.after is not None and added.after["watts"] == 12.0
    assert {n: (b, a) for n, b, a in quote.fields()} == {
        "price": (610.0, 640.0), "price_as_of": (added.after["price_as_of"], "2026-11-20"),
        "price_basis": ("estimate", "quote"), "source": ("test fixture (estimate)", f"quote acme-q7.csv {WHEN}")}
    assert sorted(filled.history_of("EUR")[0].fields()) == [
        ("as_of", "2026-11-01", None), ("currency", "EUR", None), ("source", "ECB", None), ("usd_per_unit", 1.08, None)]


def test_an_import_is_reverted_as_a_whole(filled: CatalogStore) -> None:
    rows = small_seed_rows()
    nic = next(r for r in rows if r["id"] == NIC)
    new = {**nic, "id": "nic-new", "model": "new one"}
    changed = {**nic, "price": 700}
    before = filled.export_rows()
    filled.import_rows([new, changed], replace=True, source="update.csv")
    change = filled.change_sets()[0]
    assert (change.action, change.rows, change.source) == ("import", 2, "update.csv")
    done = filled.revert(change.id)
    assert done.rows == 2
    assert filled.export_rows() == before
    with pytest.raises(UnknownPartError):
        filled.get("nic-new")
    assert filled.change_sets()[1].reverted_by == done.revert
    with pytest.raises(CatalogWriteError, match="reverted already"):
        filled.revert(change.id)


def test_a_revert_never_overwrites_a_newer_change(filled: CatalogStore, tmp_path: Path) -> None:
    filled.apply_quote(_quote(tmp_path / "q.csv", f"{NIC},640,USD", "nvme-7.68,1500,USD"), WHEN)
    quote = filled.change_sets()[0].id
    read = filled.get_versioned(NIC)
    filled.update(dataclasses.replace(read.part, model="renamed"), read.version)
    edit = filled.change_sets()[0].id
    with pytest.raises(InvalidRowsError) as caught:
        filled.revert(quote)
    assert any(f"{NIC} was changed by change {edit} (now at version {read.version + 1})" in line
               for line in caught.value.lines())
    assert filled.get("nvme-7.68").price == 1500  # nothing written: the other row kept the quote too
    filled.revert(edit)  # newest first: the edit, then the quote
    filled.revert(quote)
    assert (filled.get(NIC).price, filled.get(NIC).model, filled.get("nvme-7.68").price) == \
        (610, "ConnectX-6 Lx 2x25GbE", 1450)


def test_a_deleted_part_and_a_rate_come_back_on_revert(filled: CatalogStore) -> None:
    filled.import_rates([{"currency": "EUR", "usd_per_unit": 1.08, "as_of": "2026-11-01", "source": "ECB"}])
    filled.import_rates([{"currency": "EUR", "usd_per_unit": 1.10, "as_of": "2026-11-02", "source": "ECB"}])
    filled.delete(NIC)
    deleted, rate = (s.id for s in filled.change_sets()[:2])
    filled.revert(deleted)
    filled.revert(rate)
    assert filled.get(NIC).price == 610 and filled.rates().rate("EUR", "USD") == 1.08


def test_cli_history_and_revert(tmp_path: Path, capsys: pytest.CaptureFixture[str], small_seed: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFARCH_USER", "carla")
    db = f"sqlite:///{tmp_path / 'c.sqlite'}"
    quote = _quote(tmp_path / "q.csv", f"{NIC},\"640,50\",USD")
    assert main(["--db", db, "catalog", "quote", str(quote), "--date", "2026-11-20"]) == 0
    capsys.readouterr()
    assert main(["--db", db, "catalog", "history"]) == 0
    out = capsys.readouterr().out
    assert "carla" in out and "quote" in out and "q.csv" in out
    assert main(["--db", db, "catalog", "history", NIC]) == 0
    out = capsys.readouterr().out
    assert "price: 610.0 -> 640.5" in out and "carla quote" in out
    assert main(["--db", db, "catalog", "history", "--format", "json"]) == 0
    change = json.loads(capsys.readouterr().out)[0]["change"]
    assert main(["--db", db, "catalog", "revert", str(change)]) == 0
    assert f"reverted change {change}: 1 row(s)" in capsys.readouterr().out
    assert main(["--db", db, "catalog", "revert", str(change)]) == 2
    assert "reverted already" in capsys.readouterr().err
    assert main(["--db", db, "catalog", "revert", "999"]) == 2



def test_seeding_and_reseeding_are_recorded(catalog_url: str, small_seed: Path, tmp_path: Path) -> None:
    with CatalogStore.open(catalog_url) as store:
        (first,) = store.change_sets()
        assert (first.action, first.source) == ("seed", "the bundled seed")
        assert first.rows == len(small_seed_rows()) + len(list(store.rates()))
        rows = small_seed_rows()
        drive = next(r for r in rows if r["id"] == "nvme-7.68")
        old_watts, drive["watts"] = drive["watts"], 99.0  # a newer seed refreshes a part the user never edited
        newer = tmp_path / "newer-seed.json"
        newer.write_text(json.dumps(rows), encoding="utf-8")
        store.reseed(newer)
        last = store.change_sets()[0]
        assert (last.action, last.rows, last.source) == ("seed", 1, str(newer))
        (change,) = store.changes_of(last.id)
        assert (change.row_id, change.fields()) == ("nvme-7.68", [("watts", old_watts, 99.0)])

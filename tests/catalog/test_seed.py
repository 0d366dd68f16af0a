"""Seeding: a new catalog starts from the seed; re-seeding never duplicates and never touches user edits."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from catalog.errors import SeedError
from catalog.seed import seed_catalog, seed_parts
from catalog.store import CatalogStore
from models.hardware import Cpu, Server
from tests.catalog.conftest import SMALL_SEED, small_seed_rows


def _write_seed(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps(rows), encoding="utf-8")
    return path


def test_seed_parts_and_seed_catalog_need_no_database() -> None:
    parts = seed_parts(SMALL_SEED)
    assert [type(p).__name__ for p in parts] == ["Cpu", "Cpu", "Server", "Drive", "Nic", "Dimm"]
    server = seed_catalog(SMALL_SEED).server("r760-2s")
    assert isinstance(server, Server) and isinstance(server.cpu, Cpu) and server.cores_total == 64


def test_an_invalid_seed_is_reported_in_full(tmp_path: Path) -> None:
    rows = small_seed_rows()
    rows[0]["cores"] = 0
    rows[2]["cpu_id"] = "missing-cpu"
    with pytest.raises(SeedError) as caught:
        seed_parts(_write_seed(tmp_path / "seed.json", rows))
    assert [(p.row, p.field) for p in caught.value.problems] == [(1, "cores"), (3, "cpu_id")]


def test_the_first_open_of_an_empty_catalog_loads_the_seed(seeded_store: CatalogStore) -> None:
    assert set(seeded_store.list()) == set(seed_parts(SMALL_SEED))
    assert seeded_store.user_edited_ids() == set()


def test_reseeding_adds_no_duplicates(seeded_store: CatalogStore) -> None:
    before = seeded_store.export_rows()
    report = seeded_store.reseed()
    assert sum(report.added.values()) == 0 and sum(report.updated.values()) == 0 and report.unchanged == 6
    assert seeded_store.export_rows() == before


def test_reseeding_keeps_user_edits_updates_the_rest_and_adds_new_parts(
    seeded_store: CatalogStore, tmp_path: Path
) -> None:
    nic = seeded_store.get("cx6-25g-2p")
    seeded_store.update(dataclasses.replace(nic, price=499.0, source="customer quote 2024-07"))
    seeded_store.delete("ddr5-64g-4800")
    rows = small_seed_rows()
    for row in rows:
        row["price"] = round(row["price"] * 1.1, 2)  # a newer seed with new prices
    new_drive = dict(next(r for r in rows if r["kind"] == "drive"), id="nvme-15.36", capacity_tb=15.36)
    rows.append(new_drive)
    report = seeded_store.reseed(_write_seed(tmp_path / "seed.json", rows))
    assert report.kept_user_edited == ["cx6-25g-2p"]
    assert dict(report.added) == {"drive": 1, "dimm": 1}  # the new drive, and the deleted seed DIMM
    assert sum(report.updated.values()) == 4
    kept = seeded_store.get("cx6-25g-2p")
    assert (kept.price, kept.source) == (499.0, "customer quote 2024-07")
    assert seeded_store.get("xeon-gold-6430").price == round(2128.0 * 1.1, 2)
    ids = [p.id for p in seeded_store.list()]
    assert len(ids) == len(set(ids)) == 7
    assert seeded_store.user_edited_ids() == {"cx6-25g-2p"}


def test_a_seed_id_the_user_took_for_another_kind_is_skipped(store: CatalogStore, tmp_path: Path) -> None:
    rows = small_seed_rows()
    nic = next(r for r in rows if r["kind"] == "nic")
    store.import_rows([dict(nic, id="xeon-gold-6430")])  # the user's NIC has the seed CPU's id
    report = store.reseed(SMALL_SEED)
    assert sorted(report.skipped) == ["r760-2s", "xeon-gold-6430"]  # the server needs that CPU
    assert store.get("xeon-gold-6430").model == nic["model"]


def test_an_emptied_catalog_stays_empty_on_reopen(catalog_url: str, small_seed: Path) -> None:
    with CatalogStore.open(catalog_url) as store:
        for part in reversed(store.list()):  # servers before their CPUs
            store.delete(part.id)
    with CatalogStore.open(catalog_url) as store:
        assert store.list() == []


def test_a_catalog_with_the_users_parts_is_not_seeded_on_open(catalog_url: str, small_seed: Path) -> None:
    with CatalogStore.open(catalog_url, seed=False) as store:
        store.import_rows(small_seed_rows()[:1])
    with CatalogStore.open(catalog_url) as store:
        assert [p.id for p in store.list()] == ["xeon-gold-6430"]


def test_a_broken_seed_fails_the_open_and_writes_nothing(
    catalog_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = small_seed_rows()
    rows[3]["interface"] = "IDE"
    bad = _write_seed(tmp_path / "bad.json", rows)
    monkeypatch.setattr("catalog.seed.seed_source", lambda: bad)
    with pytest.raises(SeedError, match="invalid"):
        CatalogStore.open(catalog_url)
    monkeypatch.setattr("catalog.seed.seed_source", lambda: SMALL_SEED)
    with CatalogStore.open(catalog_url) as store:  # the next open seeds it
        assert len(store.list()) == 6


def test_simultaneous_first_opens_create_and_seed_once(catalog_url: str, small_seed: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    def open_and_count(_: int) -> int:
        with CatalogStore.open(catalog_url) as store:
            return len(store.list())

    with ThreadPoolExecutor(max_workers=4) as pool:
        counts = list(pool.map(open_and_count, range(4)))
    assert counts == [6, 6, 6, 6]


def test_a_catalog_seeded_before_the_slot_counts_gets_them_from_a_reseed_except_where_the_user_edited(
    catalog_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sourced PCIe slot counts reach existing catalogs the way other seed changes do: `refarch catalog seed`
    refreshes the seed's servers the user never touched; a server the user edited keeps the user's row."""
    from catalog import seed as seeding

    real = json.loads(seeding.seed_source().read_text(encoding="utf-8"))
    counted = {r["id"]: r["pcie_slots"] for r in real if r["kind"] == "server" and r["pcie_slots"] is not None}
    older = [dict(r, pcie_slots=None) if r["id"] in counted else r for r in real]  # the seed before the counts
    older_path = _write_seed(tmp_path / "older.json", older)
    bundled = seeding.seed_source()
    monkeypatch.setattr(seeding, "seed_source", lambda: older_path)
    edited_id = "dell-r760-24x-u3-2x-xeon-gold-6530"
    with CatalogStore.open(catalog_url) as store:
        assert all(store.get(sid).pcie_slots is None for sid in counted)  # type: ignore[union-attr]
        mine = store.get(edited_id)
        store.update(dataclasses.replace(mine, price=mine.price + 1.0, source="customer quote"))
        monkeypatch.setattr(seeding, "seed_source", lambda: bundled)
        report = store.reseed()
        assert report.kept_user_edited == [edited_id]
        for sid, slots in counted.items():
            server = store.get(sid)
            assert isinstance(server, Server)
            assert server.pcie_slots == (None if sid == edited_id else slots), sid


def test_a_design_on_a_server_that_gains_its_slot_count_from_a_reseed_loses_the_unchecked_nics_note(
    catalog_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the "nic-slots-unknown" note promises holds end to end: sized on a catalog seeded before the server's
    PCIe slot count, the study-000 test bed (two named NICs on the DL380e Gen8) carries the note naming the server
    and `refarch catalog seed`; after that reseed the same scenario sizes to the same design without the note."""
    from catalog import seed as seeding
    from models.sizing.engine import size
    from tests.models.sizing.conftest import sample

    server_id = "hpe-dl380e-gen8-2x-e5-2470"
    real = json.loads(seeding.seed_source().read_text(encoding="utf-8"))
    slots = next(r["pcie_slots"] for r in real if r["id"] == server_id)
    assert isinstance(slots, int)  # the bundled seed now has it: the case this test is about
    older = [dict(r, pcie_slots=None) if r["id"] == server_id else r for r in real]
    older_path = _write_seed(tmp_path / "older.json", older)
    bundled = seeding.seed_source()
    monkeypatch.setattr(seeding, "seed_source", lambda: older_path)
    scenario = sample("study-000-vsphere")
    assert scenario.platform.server_id == server_id and scenario.platform.nic_id is not None
    with CatalogStore.open(catalog_url) as store:
        before = size(scenario, store.snapshot())
        monkeypatch.setattr(seeding, "seed_source", lambda: bundled)
        report = store.reseed()
        after_server = store.get(server_id)
        after = size(scenario, store.snapshot())
    assert report.updated["server"] == 1 and not report.kept_user_edited
    assert isinstance(after_server, Server) and after_server.pcie_slots == slots
    notes = [w for w in before.warnings if w.code == "nic-slots-unknown"]
    assert len(notes) == 1 and server_id in notes[0].full_text and "refarch catalog seed" in notes[0].full_text
    assert "refarch" not in notes[0].text and server_id not in notes[0].text  # what a customer edition prints
    assert before.design.nics_per_host >= 1
    assert "nic-slots-unknown" not in {w.code for w in after.warnings}
    assert after.design == before.design  # the count only checks the NICs here; nothing else about the design moves
    assert [w for w in before.warnings if w.code != "nic-slots-unknown"] == list(after.warnings)

"""CatalogStore on SQLite and PostgreSQL: reads, writes, all-or-nothing imports."""

from __future__ import annotations

import dataclasses

import pytest

from catalog.errors import ImportCancelled, InvalidRowsError, PartInUseError
from catalog.store import CatalogStore
from models.hardware import Cpu, HardwareCatalog, Nic, Server, UnknownPartError
from models.tasks import Cancelled
from tests.catalog.conftest import small_seed_rows


def test_import_then_read_back_as_dataclasses(store: CatalogStore) -> None:
    report = store.import_rows(small_seed_rows())
    assert report.added == {"cpu": 2, "server": 1, "drive": 1, "nic": 1, "dimm": 1}
    assert [p.id for p in store.list("cpu")] == ["epyc-9354", "xeon-gold-6430"]
    server = store.get("r760-2s")
    assert isinstance(server, Server)
    assert server.cpu.id == "xeon-gold-6430" and server.cores_total == 64
    assert server.price == 18500.5
    snapshot = store.snapshot()
    assert isinstance(snapshot, HardwareCatalog) and len(snapshot) == 6
    assert snapshot.server("r760-2s") == server


def test_an_import_with_any_bad_row_writes_nothing(store: CatalogStore) -> None:
    rows = small_seed_rows()
    rows[-1]["size_gib"] = -64  # only the last row is bad
    with pytest.raises(InvalidRowsError) as caught:
        store.import_rows(rows)
    assert [(p.row, p.field) for p in caught.value.problems] == [(6, "size_gib")]
    assert store.list() == []


def test_a_cancelled_import_is_the_task_protocol_s_cancelled_and_writes_nothing(store: CatalogStore) -> None:
    calls = {"n": 0}

    def cancelled() -> bool:
        calls["n"] += 1
        return calls["n"] > 2  # part-way through the rows

    with pytest.raises(Cancelled) as caught:
        store.import_rows(small_seed_rows(), cancelled=cancelled)
    assert isinstance(caught.value, ImportCancelled) and "nothing was imported" in str(caught.value)
    assert store.list() == []


def test_import_duplicates_need_replace(store: CatalogStore) -> None:
    store.import_rows(small_seed_rows())
    rows = small_seed_rows()
    with pytest.raises(InvalidRowsError) as caught:
        store.import_rows(rows)
    assert {(p.row, p.field) for p in caught.value.problems} == {(i, "id") for i in range(1, 7)}
    rows[0]["price"] = 1999.99
    report = store.import_rows(rows, replace=True)
    assert report.replaced == {"cpu": 2, "server": 1, "drive": 1, "nic": 1, "dimm": 1} and not report.added
    assert store.get("xeon-gold-6430").price == 1999.99
    assert store.user_edited_ids() == {r["id"] for r in rows}


def test_import_refuses_to_change_a_parts_kind(store: CatalogStore) -> None:
    store.import_rows(small_seed_rows())
    nic = next(r for r in small_seed_rows() if r["kind"] == "nic")
    as_dimm = {k: nic[k] for k in ("vendor", "model", "price", "currency", "price_as_of", "source")}
    as_dimm |= {"id": nic["id"], "kind": "dimm", "size_gib": 32, "speed_mt_s": 4800}
    with pytest.raises(InvalidRowsError, match="1 problem"):
        store.import_rows([as_dimm], replace=True)
    assert isinstance(store.get(nic["id"]), Nic)


def test_add_update_delete(store: CatalogStore) -> None:
    store.import_rows(small_seed_rows()[:1])  # one CPU
    cpu = store.get("xeon-gold-6430")
    assert isinstance(cpu, Cpu)
    new_cpu = dataclasses.replace(cpu, id="xeon-gold-6430-b", model="Xeon Gold 6430 (B)")
    store.add(new_cpu)
    assert store.get("xeon-gold-6430-b") == new_cpu
    with pytest.raises(InvalidRowsError, match="already in the catalog"):
        store.add(new_cpu)
    store.update(dataclasses.replace(new_cpu, price=99.5))
    assert store.get("xeon-gold-6430-b").price == 99.5
    store.delete("xeon-gold-6430-b")
    with pytest.raises(UnknownPartError, match="did you mean xeon-gold-6430"):
        store.get("xeon-gold-6430-b")
    with pytest.raises(UnknownPartError):
        store.delete("xeon-gold-6430-b")
    with pytest.raises(UnknownPartError):
        store.update(new_cpu)


def test_saving_an_invalid_part_is_refused_with_its_fields(store: CatalogStore) -> None:
    store.import_rows(small_seed_rows()[:1])
    cpu = store.get("xeon-gold-6430")
    with pytest.raises(InvalidRowsError) as caught:
        store.update(dataclasses.replace(cpu, cores=0, currency="dollars"))
    assert {p.field for p in caught.value.problems} == {"cores", "currency"}
    assert store.get("xeon-gold-6430") == cpu


def test_a_cpu_that_servers_use_cannot_be_deleted(store: CatalogStore) -> None:
    store.import_rows(small_seed_rows())
    with pytest.raises(PartInUseError, match=r"cpu 'xeon-gold-6430' is used by 1 server\(s\) \(r760-2s\)"):
        store.delete("xeon-gold-6430")
    store.delete("epyc-9354")  # unused: fine
    store.delete("r760-2s")
    store.delete("xeon-gold-6430")  # no longer used
    assert [p.id for p in store.list("cpu")] == []


def test_a_server_must_reference_an_existing_cpu(store: CatalogStore) -> None:
    server_row = next(r for r in small_seed_rows() if r["kind"] == "server")
    with pytest.raises(InvalidRowsError, match="1 problem") as caught:
        store.import_rows([server_row])
    assert caught.value.problems[0].field == "cpu_id"


def test_update_marks_the_row_as_the_users(seeded_store: CatalogStore) -> None:
    assert seeded_store.user_edited_ids() == set()
    nic = seeded_store.get("cx6-25g-2p")
    seeded_store.update(dataclasses.replace(nic, price=555.0))
    assert seeded_store.user_edited_ids() == {"cx6-25g-2p"}


def test_url_display_masks_the_password_and_is_shared_tells_the_backend(catalog_url: str) -> None:
    with CatalogStore.open(catalog_url, seed=False) as store:
        assert store.is_shared == catalog_url.startswith("postgresql")
        if store.is_shared:
            assert ":***@" in store.url_display and "refarch:refarch@" not in store.url_display

"""Schema creation and upgrades: from empty, refusing what is not a catalog, all-or-nothing upgrades."""

from __future__ import annotations

import shutil
import sqlite3
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import RowMapping, create_engine, inspect, make_url, text

from catalog.engine import create_catalog_engine, mask_url, parse_url
from catalog.errors import CatalogMigrationError, CatalogOpenError
from catalog.migrate import MIGRATIONS_DIR, ensure_schema, head_revision, read_state
from catalog.orm import CATALOG_TABLES, Base
from catalog.store import CatalogStore
from models.hardware import Drive, Nic, Server


def _state(url: str) -> tuple[frozenset[str], str | None]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            state = read_state(conn)
        return state.tables, state.revision
    finally:
        engine.dispose()


def test_open_creates_the_schema_in_an_empty_database(catalog_url: str) -> None:
    CatalogStore.open(catalog_url, seed=False).close()
    tables, revision = _state(catalog_url)
    assert tables >= CATALOG_TABLES
    assert revision == head_revision()
    CatalogStore.open(catalog_url, seed=False).close()  # opening again is a no-op
    assert _state(catalog_url)[1] == head_revision()


def test_the_orm_matches_the_migrations(catalog_url: str) -> None:
    CatalogStore.open(catalog_url, seed=False).close()
    engine = create_engine(catalog_url)
    try:
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), Base.metadata)
    finally:
        engine.dispose()
    assert diff == []


def _run_sql(url: str, *statements: str) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            for statement in statements:
                conn.execute(text(statement))
    finally:
        engine.dispose()


def test_a_database_with_other_tables_is_refused_untouched(catalog_url: str) -> None:
    _run_sql(catalog_url, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR(50))")
    with pytest.raises(CatalogOpenError, match=r"not a refarch catalog.*customers"):
        CatalogStore.open(catalog_url)
    assert _state(catalog_url) == (frozenset({"customers"}), None)


def test_another_applications_alembic_database_is_refused(catalog_url: str) -> None:
    _run_sql(
        catalog_url,
        "CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY)",
        "INSERT INTO alembic_version VALUES ('3f2a9c1b7e55')",
        "CREATE TABLE invoices (id INTEGER PRIMARY KEY)",
    )
    with pytest.raises(CatalogOpenError, match="revision '3f2a9c1b7e55' is unknown"):
        CatalogStore.open(catalog_url)


def _migrations_with(tmp_path: Path, upgrade_body: str) -> Path:
    """A copy of the real migrations plus a revision after the head whose upgrade() runs `upgrade_body`."""
    location = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, location, ignore=shutil.ignore_patterns("__pycache__"))
    (location / "versions" / "0002_test.py").write_text(
        textwrap.dedent('''\
            import sqlalchemy as sa
            from alembic import op

            revision = "refarch_9999"
            down_revision = "HEAD"
            branch_labels = None
            depends_on = None


            def upgrade():
            ''') + textwrap.indent(textwrap.dedent(upgrade_body), "    "),
        encoding="utf-8",
    )
    test_file = location / "versions" / "0002_test.py"
    test_file.write_text(test_file.read_text(encoding="utf-8").replace('"HEAD"', repr(head_revision())),
                         encoding="utf-8")
    return location


def _upgrade(url: str, location: Path) -> None:
    parsed = parse_url(url)
    engine = create_catalog_engine(parsed)
    try:
        ensure_schema(parsed, engine, mask_url(url), script_location=location)
    finally:
        engine.dispose()


def test_a_failed_upgrade_leaves_the_catalog_as_it_was(
    catalog_url: str, small_seed: Path, tmp_path: Path
) -> None:
    with CatalogStore.open(catalog_url) as store:
        before = store.export_rows()
    broken = _migrations_with(tmp_path, '''
        op.create_table("widgets", sa.Column("id", sa.Integer, primary_key=True))
        with op.batch_alter_table("cpus") as batch:
            batch.add_column(sa.Column("socket", sa.String(20), nullable=True))
        op.execute("UPDATE cpus SET cores = 999")
        raise RuntimeError("boom halfway")
    ''')
    with pytest.raises(CatalogMigrationError, match=r"boom halfway.*left as it was"):
        _upgrade(catalog_url, broken)
    tables, revision = _state(catalog_url)
    assert revision == head_revision()
    assert "widgets" not in tables
    engine = create_engine(catalog_url)
    try:
        assert "socket" not in {c["name"] for c in inspect(engine).get_columns("cpus")}
    finally:
        engine.dispose()
    with CatalogStore.open(catalog_url) as store:
        assert store.export_rows() == before
    if catalog_url.startswith("sqlite"):
        assert Path(f"{make_url(catalog_url).database}.bak-{head_revision()}").is_file()


def test_an_upgrade_backs_up_the_sqlite_file_and_keeps_data_and_foreign_keys(
    tmp_path: Path, small_seed: Path
) -> None:
    path = tmp_path / "catalog.sqlite"
    url = f"sqlite:///{path}"
    with CatalogStore.open(url) as store:
        before = store.export_rows()
    # recreate="always": SQLite rebuilds `cpus`, which `servers` references.
    newer = _migrations_with(tmp_path, '''
        with op.batch_alter_table("cpus", recreate="always") as batch:
            batch.add_column(sa.Column("socket", sa.String(20), nullable=True))
    ''')
    _upgrade(url, newer)
    assert _state(url)[1] == "refarch_9999"
    backup = tmp_path / f"catalog.sqlite.bak-{head_revision()}"
    with sqlite3.connect(backup) as copy:
        assert copy.execute("SELECT version_num FROM alembic_version").fetchone() == (head_revision(),)
        assert copy.execute("SELECT count(*) FROM cpus").fetchone() == (2,)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        assert [r[2] for r in db.execute("PRAGMA foreign_key_list(servers)")] == ["cpus"]
        assert db.execute("SELECT count(*) FROM cpus").fetchone() == (2,)
    # This refarch does not know refarch_9999: the catalog is "too new", and left alone.
    with pytest.raises(CatalogOpenError, match="newer refarch"):
        CatalogStore.open(url)
    assert len(before) == 6


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("not a url", "not a database URL"),
        ("catalog.sqlite", "sqlite:///catalog.sqlite"),
        ("foo://localhost/db", "unknown database type 'foo'"),
        ("sqlite:////nonexistent-dir/sub/catalog.sqlite", "directory /nonexistent-dir/sub does not exist"),
    ],
)
def test_unusable_urls_are_refused_clearly(url: str, expected: str) -> None:
    with pytest.raises(CatalogOpenError) as caught:
        CatalogStore.open(url)
    assert expected in str(caught.value)


def test_a_file_that_is_not_sqlite_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite"
    path.write_text("meeting notes, not a database\n" * 100, encoding="utf-8")
    with pytest.raises(CatalogOpenError, match="is not a SQLite database"):
        CatalogStore.open(f"sqlite:///{path}")
    assert path.read_text(encoding="utf-8").startswith("meeting notes")
    with pytest.raises(CatalogOpenError, match="is a directory"):
        CatalogStore.open(f"sqlite:///{tmp_path}")


def test_an_unreachable_server_is_refused_without_showing_the_password() -> None:
    with pytest.raises(CatalogOpenError) as caught:
        CatalogStore.open("postgresql://refarch:s3cr3t-pw@127.0.0.1:1/catalog")
    message = str(caught.value)
    assert "s3cr3t-pw" not in message
    assert "refarch:***@127.0.0.1:1" in message and "refused" in message.lower()


def test_default_location_is_the_user_data_dir_or_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, small_seed: Path
) -> None:
    with CatalogStore.open() as store:
        assert store.url_display.endswith("refarch/catalog.sqlite")
        assert not store.is_shared
        assert len(store.list()) == 6
    monkeypatch.setenv("REFARCH_DB", f"sqlite:///{tmp_path / 'env.sqlite'}")
    with CatalogStore.open() as store:
        assert store.url_display == f"sqlite:///{tmp_path / 'env.sqlite'}"


def test_quick_head_matches_alembic_head() -> None:
    from catalog.migrate import quick_head_revision

    assert quick_head_revision() == head_revision()


def test_quick_head_follows_the_chain_and_gives_up_on_branches(tmp_path: Path) -> None:
    from catalog.migrate import quick_head_revision

    versions = tmp_path / "versions"
    versions.mkdir()
    (versions / "a.py").write_text('revision: str = "r1"\ndown_revision: str | None = None\n')
    (versions / "b.py").write_text('revision = "r2"\ndown_revision = "r1"\n')
    assert quick_head_revision(tmp_path) == "r2"
    (versions / "c.py").write_text('revision = "r3"\ndown_revision = "r1"\n')  # two heads: Alembic decides
    assert quick_head_revision(tmp_path) is None



_COMMON_VALUES = ("'2026-11-01', 'vendor datasheet', 'list', false, 1, '2026-11-01 00:00:00', "
                  "'2026-11-01 00:00:00'")  # price_as_of .. updated_at of every old row


def _upgrade_to(url: str, revision: str) -> None:
    """An empty catalog at an old schema revision, as an earlier refarch left it."""
    from alembic import command

    from catalog.migrate import alembic_config

    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(connection=conn), revision)
    finally:
        engine.dispose()


def _table_rows(url: str, tables: tuple[str, ...]) -> dict[str, list[RowMapping]]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return {t: list(conn.execute(text(f"SELECT * FROM {t} ORDER BY id")).mappings().all()) for t in tables}
    finally:
        engine.dispose()


def _assert_old_columns_kept(url: str, before: dict[str, list[RowMapping]]) -> list[RowMapping]:
    """Every old row is still there with every old column's value; returns the upgraded rows."""
    upgraded: list[RowMapping] = []
    for table, new_rows in _table_rows(url, tuple(before)).items():
        old_rows = before[table]
        assert len(new_rows) == len(old_rows)
        for old, new in zip(old_rows, new_rows, strict=True):
            assert {k: new[k] for k in old} == dict(old)  # every old column's value kept
            upgraded.append(new)
    return upgraded


def test_an_upgrade_from_0003_keeps_every_row_and_gives_part_numbers_empty(catalog_url: str) -> None:
    """A 0003 catalog with rows of several kinds upgrades to the head with nothing lost; the new
    `part_number` is "" (unknown) on old rows, never a guess, and can then be set."""
    _upgrade_to(catalog_url, "refarch_0003")
    common = _COMMON_VALUES
    cols = "vendor, model, price, currency, price_as_of, source, price_basis, user_edited, version, " \
           "created_at, updated_at"
    _run_sql(
        catalog_url,
            f"INSERT INTO cpus (id, {cols}, cores, threads, base_ghz, tdp_w) "
            f"VALUES ('cpu-a', 'AMD', 'EPYC 9354', 3420, 'USD', {common}, 32, 64, 3.25, 280)",
            f"INSERT INTO servers (id, {cols}, form_factor, rack_u, sockets, cpu_id, numa_nodes_per_socket, "
            f"memory_gib, dimm_slots, data_bays, data_bay_form_factor, os_drives, psu_w, idle_w, max_w) "
            f"VALUES ('srv-a', 'Dell', 'PowerEdge R7625', 21000, 'USD', {common}, '2U rack', 2, 2, 'cpu-a', 1, "
            f"768, 24, 24, 'U.3', 2, 1400, 350, 1100)",
            f"INSERT INTO drives (id, {cols}, interface, form_factor, capacity_tb, seq_read_mb_s, seq_write_mb_s, "
            f"random_read_iops, random_write_iops, watts) VALUES ('drv-a', 'Samsung', 'PM1743 7.68TB', 1900, "
            f"'EUR', {common}, 'NVMe Gen5', 'E3.S', 7.68, 13000, 6600, 2500000, 300000, 25)",
            f"INSERT INTO switches (id, {cols}, ports, speed_gbps, uplink_ports, uplink_speed_gbps, rack_u, watts) "
        f"VALUES ('sw-a', 'NVIDIA', 'SN2700', 30000, 'USD', {common}, 32, 100, 0, 100, 1, 400)",
    )
    before = _table_rows(catalog_url, ("cpus", "servers", "drives", "switches"))
    with CatalogStore.open(catalog_url, seed=False) as store:
        rows = {r["id"]: r for r in store.export_rows()}
    assert _state(catalog_url)[1] == head_revision()
    assert set(rows) == {"cpu-a", "srv-a", "drv-a", "sw-a"}
    for new in _assert_old_columns_kept(catalog_url, before):
        assert new["part_number"] == ""
    assert rows["srv-a"]["cpu_id"] == "cpu-a" and rows["drv-a"]["currency"] == "EUR"
    with CatalogStore.open(catalog_url, seed=False) as store:
        store.update(replace(store.get("drv-a"), part_number="MZWLO7T6HBLA-00A07"))
        assert store.get("drv-a").part_number == "MZWLO7T6HBLA-00A07"


def test_an_upgrade_from_0004_keeps_every_row_and_leaves_slots_and_memory_types_unknown(catalog_url: str) -> None:
    """A 0004 catalog with servers and DIMMs upgrades to the head with nothing lost; the new `pcie_slots` and
    `memory_type` are NULL (unknown) on old rows, never a guess, read back as None, and can then be set."""
    _upgrade_to(catalog_url, "refarch_0004")
    common = _COMMON_VALUES
    cols = "vendor, model, part_number, price, currency, price_as_of, source, price_basis, user_edited, " \
           "version, created_at, updated_at"
    _run_sql(
        catalog_url,
            f"INSERT INTO cpus (id, {cols}, cores, threads, base_ghz, tdp_w) "
            f"VALUES ('cpu-a', 'AMD', 'EPYC 9354', '100-000000798', 3420, 'USD', {common}, 32, 64, 3.25, 280)",
            f"INSERT INTO servers (id, {cols}, form_factor, rack_u, sockets, cpu_id, numa_nodes_per_socket, "
            f"memory_gib, dimm_slots, data_bays, data_bay_form_factor, os_drives, psu_w, idle_w, max_w) "
            f"VALUES ('srv-a', 'Dell', 'PowerEdge R7625', '', 21000, 'USD', {common}, '2U rack', 2, 2, 'cpu-a', 1, "
            f"768, 24, 24, 'U.3', 2, 1400, 350, 1100)",
            f"INSERT INTO dimms (id, {cols}, size_gib, speed_mt_s) "
        f"VALUES ('dimm-a', 'Generic', '64 GiB DDR5-4800 RDIMM', '', 480, 'USD', {common}, 64, 4800)",
    )
    before = _table_rows(catalog_url, ("cpus", "servers", "dimms"))
    with CatalogStore.open(catalog_url, seed=False) as store:
        rows = {r["id"]: r for r in store.export_rows()}
    assert _state(catalog_url)[1] == head_revision()
    assert set(rows) == {"cpu-a", "srv-a", "dimm-a"}
    _assert_old_columns_kept(catalog_url, before)
    after = _table_rows(catalog_url, ("servers", "dimms"))
    assert [(r["pcie_slots"], r["memory_type"]) for r in after["servers"]] == [(None, None)]
    assert [r["memory_type"] for r in after["dimms"]] == [None]
    assert rows["srv-a"]["pcie_slots"] is None and rows["srv-a"]["memory_type"] is None
    assert rows["dimm-a"]["memory_type"] is None and rows["cpu-a"]["part_number"] == "100-000000798"
    with CatalogStore.open(catalog_url, seed=False) as store:
        store.update(replace(store.get("srv-a"), pcie_slots=8, memory_type="DDR5"))
        store.update(replace(store.get("dimm-a"), memory_type="DDR5"))
        server = store.get("srv-a")
        assert (server.pcie_slots, server.memory_type) == (8, "DDR5")
        assert store.get("dimm-a").memory_type == "DDR5"


def test_an_upgrade_from_0009_leaves_pcie_generations_and_link_rates_unknown(catalog_url: str) -> None:
    """A 0009 catalog's server, drive and NIC upgrade with their PCIe generation, drive link and lanes NULL
    (unknown: not checked), read back as None, and can then be set."""
    _upgrade_to(catalog_url, "refarch_0009")
    common = _COMMON_VALUES
    cols = "vendor, model, part_number, price, currency, price_as_of, source, price_basis, user_edited, " \
           "version, created_at, updated_at"
    _run_sql(
        catalog_url,
        f"INSERT INTO cpus (id, {cols}, cores, threads, base_ghz, tdp_w) "
        f"VALUES ('cpu-b', 'Intel', 'Xeon E5620', '', 390, 'USD', {common}, 4, 8, 2.4, 80)",
        f"INSERT INTO servers (id, {cols}, form_factor, rack_u, sockets, cpu_id, numa_nodes_per_socket, "
        f"memory_gib, dimm_slots, data_bays, data_bay_form_factor, os_drives, psu_w, idle_w, max_w) "
        f"VALUES ('srv-b', 'HP', 'ProLiant ML350 G6', '', 3350, 'USD', {common}, 'tower', 5, 2, 'cpu-b', 1, "
        f"12, 18, 8, 'SFF', 0, 750, 130, 300)",
        f"INSERT INTO drives (id, {cols}, interface, form_factor, capacity_tb, seq_read_mb_s, seq_write_mb_s, "
        f"random_read_iops, random_write_iops, watts) VALUES ('drv-b', 'Intel', 'SSD 520 240GB', '', 300, 'USD', "
        f"{common}, 'SATA', 'SFF', 0.24, 550, 520, 50000, 80000, 0.85)",
        f"INSERT INTO nics (id, {cols}, ports, speed_gbps, watts) "
        f"VALUES ('nic-b', 'Broadcom', '57810 2x10GbE', '', 600, 'USD', {common}, 2, 10, 8)",
    )
    with CatalogStore.open(catalog_url, seed=False) as store:
        server, drive, nic = store.get("srv-b"), store.get("drv-b"), store.get("nic-b")
        assert isinstance(server, Server) and isinstance(drive, Drive) and isinstance(nic, Nic)
        assert (server.pcie_gen, server.drive_link_gbps, drive.link_gbps, nic.pcie_gen, nic.pcie_lanes) == (None,) * 5
        store.update(replace(server, pcie_gen=2, drive_link_gbps=6.0))
        store.update(replace(nic, pcie_gen=2, pcie_lanes=8))
        server, nic = store.get("srv-b"), store.get("nic-b")
        assert isinstance(server, Server) and isinstance(nic, Nic) and (server.pcie_gen, nic.pcie_lanes) == (2, 8)
    assert _state(catalog_url)[1] == head_revision()

"""Measurement profiles in the catalog (SQLite and PostgreSQL): stored with provenance, read back through the
parsers, all-or-nothing, deleted whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalog.errors import CatalogError
from catalog.measurements import ImportedFile, UnknownProfileError
from catalog.store import CatalogStore
from models.measurements.detect import parse_measurement
from models.measurements.profile import host_rates, network_rates, sweeps

FIXTURES = Path(__file__).resolve().parents[1] / "models" / "measurements" / "fixtures"


def imported(name: str) -> ImportedFile:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    return ImportedFile(name, text, parse_measurement(text, name))


def test_a_profile_keeps_its_files_and_provenance_across_opens(seeded_store: CatalogStore, catalog_url: str) -> None:
    server = seeded_store.list("server")[0].id
    report = seeded_store.import_measurements(
        "lab-gen5", [imported("gpcheckperf_dsN_D.txt"), imported("pgbench_tpcb_sweep.txt")], server)
    assert report.created and report.added == ("gpcheckperf_dsN_D.txt", "pgbench_tpcb_sweep.txt")
    with CatalogStore.open(catalog_url, seed=False) as again:
        assert again.measurement_profile_names() == ["lab-gen5"]
        profile = again.measurement_profile("lab-gen5")
    assert profile.server_id == server and profile.hosts == ("sdw1", "sdw2", "sdw3", "sdw4")
    gp = profile.files[0]
    assert gp.kind == "gpcheckperf" and gp.measured_at is not None and gp.measured_at.year == 2026
    assert gp.imported_at.tzinfo is not None
    rates = host_rates(profile)
    assert rates["disk_read"].slowest_host == "sdw3"
    assert rates["disk_read"].design_mb_s == pytest.approx(2434.59 * 1.048576)
    net = network_rates(profile)
    assert net is not None and net.no_good == (("sdw3", "sdw4"),)
    assert [s.clients[-1] for s in sweeps(profile)] == [128.0]


def test_importing_a_file_of_the_same_name_again_replaces_it(store: CatalogStore) -> None:
    store.import_measurements("p", [imported("hammerdb_sweep.csv")])
    report = store.import_measurements("p", [imported("hammerdb_sweep.csv"), imported("hammerdb_v3.log")])
    assert not report.created and report.replaced == ("hammerdb_sweep.csv",) and report.added == ("hammerdb_v3.log",)
    assert [f.file_name for f in store.measurement_profile("p").files] == ["hammerdb_sweep.csv", "hammerdb_v3.log"]


def test_an_unknown_server_writes_nothing(store: CatalogStore) -> None:
    with pytest.raises(CatalogError, match="no server 'nope' in the catalog"):
        store.import_measurements("p", [imported("hammerdb_sweep.csv")], "nope")
    assert store.measurement_profile_names() == []


def test_delete_removes_the_profile_and_its_files(store: CatalogStore) -> None:
    store.import_measurements("lab", [imported("hammerdb_sweep.csv")])
    with pytest.raises(UnknownProfileError, match="did you mean lab"):
        store.measurement_profile("lab2")
    store.delete_measurement_profile("lab")
    assert store.measurement_profile_names() == []
    with pytest.raises(UnknownProfileError):
        store.delete_measurement_profile("lab")


@pytest.mark.parametrize("name", ["", "   ", "x" * 81, "tab\tname"])
def test_profile_names_are_checked(store: CatalogStore, name: str) -> None:
    with pytest.raises(CatalogError, match="1-80 printable characters"):
        store.import_measurements(name, [imported("hammerdb_sweep.csv")])


def test_the_measured_hosts_drives_are_kept_and_checked(seeded_store: CatalogStore, catalog_url: str) -> None:
    from catalog.measurements import MeasuredDrives

    server = seeded_store.list("server")[0]
    drive = seeded_store.list("drive")[0].id
    files = [imported("gpcheckperf_dsN_D.txt")]
    bays = server.data_bays  # type: ignore[attr-defined]
    with pytest.raises(CatalogError, match=rf"data drives per measured host: must be 1-{bays} "):
        seeded_store.import_measurements("lab", files, server.id, MeasuredDrives(bays + 1, drive))
    with pytest.raises(CatalogError, match="measured hosts' drive: no drive 'nope' in the catalog"):
        seeded_store.import_measurements("lab", files, server.id, MeasuredDrives(2, "nope"))
    assert seeded_store.measurement_profile_names() == []  # refused whole
    seeded_store.import_measurements("lab", files, server.id, MeasuredDrives(bays, drive))
    seeded_store.import_measurements("lab", [imported("hammerdb_sweep.csv")])  # more files: the drives stay
    with CatalogStore.open(catalog_url, seed=False) as again:
        p = again.measurement_profile("lab")
    assert (p.data_drives, p.drive_id, len(p.files)) == (bays, drive, 2)

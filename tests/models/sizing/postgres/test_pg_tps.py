"""A PostgreSQL design's throughput: estimates.tps, each database's share with what binds, and the short warning."""

from __future__ import annotations

import pytest

from models.hardware import HardwareCatalog
from models.perf.pg_tps import PgTpsInputs, page_reads_per_txn, pg_tps, storage_margin
from models.scenario import PgDatabase
from models.sizing.engine import size
from models.sizing.postgres.storage import GIB_PER_GB, database_io
from tests.models.sizing.conftest import sample

R6625 = "dell-r6625-10x-u3-2x-epyc-9354"
R670 = "dell-r670-10x-u3-2x-xeon-6740e"
DBS = [{"name": "ledger", "size_gb": 40, "peak_clients": 40, "working_set_gb": 4.0, "peak_tps": 500.0},
       {"name": "archive", "size_gb": 900, "peak_clients": 40, "working_set_gb": 600.0, "peak_tps": 3000.0}]


def test_design_reports_tps_and_each_database_share(catalog: HardwareCatalog) -> None:
    r = size(sample("pg-consolidation", workload={"databases": DBS}), catalog)
    tps = r.estimates["tps"]
    assert 0 < tps.p10 < tps.p50 < tps.p90 and tps.unit == "TPS"
    rows = {row["database"]: row for row in r.to_dict()["databases"]}
    assert set(rows) == {"ledger", "archive"}
    assert sum(vm_tps for vm_tps in (d.tps_p50 or 0 for v in r.vms for d in v.disks)) <= tps.p50 + 1
    assert rows["ledger"]["binding"] == "CPU"


def test_a_database_its_vm_cannot_carry_is_warned_with_what_binds(catalog: HardwareCatalog) -> None:
    # VMs of a stated 32 GiB: the 600 GB working set stays far beyond memory, so most reads reach storage
    r = size(sample("pg-consolidation", workload={"databases": DBS, "vm_memory_gib": 32},
                    platform={"datastore_iops": 2000.0}), catalog)
    rows = {row["database"]: row for row in r.to_dict()["databases"]}
    assert rows["archive"]["binding"] == "storage IOPS"  # 600 GB working set, far beyond its VM's memory
    short = [w for w in r.warnings if w.code == "pg-tps-short"]
    assert any("archive" in w.text and "storage IOPS binds" in w.text for w in short)
    assert not any("ledger" in w.text for w in short)


def test_stated_storage_latency_bounds_few_clients(catalog: HardwareCatalog) -> None:
    dbs = [{"name": "slow", "size_gb": 500, "peak_clients": 2, "working_set_gb": 400.0}]
    r = size(sample("pg-consolidation", workload={"databases": dbs, "vm_memory_gib": 32},
                    platform={"datastore_iops": 1e6, "datastore_latency_ms": 20.0}), catalog)
    assert r.to_dict()["databases"][0]["binding"] == "storage latency"


def test_a_processor_without_a_benchmark_score_is_said(catalog: HardwareCatalog) -> None:
    small = [{"name": "a", "size_gb": 3, "peak_clients": 10, "working_set_gb": 1.0}]
    ml350 = size(sample("pg-consolidation", workload={"databases": small},
                        platform={"server_id": "hpe-ml350-g6-2x-e5620"}), catalog)
    assert any(w.code == "pg-tps-cpu-unscored" and "E5620" in w.text for w in ml350.warnings)
    r = size(sample("pg-consolidation", workload={"databases": DBS}), catalog)
    assert not any(w.code == "pg-tps-cpu-unscored" for w in r.warnings)


def test_storage_is_sized_for_a_stated_rate_at_the_confidence_asked(catalog: HardwareCatalog) -> None:
    # 10k SAS drives and a 200 GB working set against a 32 GiB VM: most reads miss the cache and reach the drives
    db = [{"name": "archive", "size_gb": 600, "peak_clients": 40, "working_set_gb": 200.0, "peak_tps": 300.0}]
    for confidence in ("P50", "P90"):
        r = size(sample("pg-consolidation", workload={"databases": db, "vm_memory_gib": 32, "shared_storage": "local",
                                                      "vsphere_ha": False},
                        platform={"server_id": "dell-r750-2x-gold-6342-24sas", "drive_id": "dell-2400gb-sas-10k-sff"},
                        targets={"confidence": confidence}), catalog)
        (vm,) = r.vms
        (disk,) = vm.disks
        reach = disk.tps_p10 if confidence == "P90" else disk.tps_p50
        assert reach is not None and reach >= 300.0  # the drives carry the rate at the confidence asked
        assert disk.tps_binding == "storage IOPS" and not [w for w in r.warnings if w.code == "pg-tps-short"]
    miss = 1 - 24.0 / (200.0 * GIB_PER_GB)
    for margin in (1.0, 1.3):  # the reads the model's storage bound counts, with a P90 rate's margin
        io = database_io(PgDatabase(**db[0]), 24.0, 0.7, 300.0, read_margin=margin)  # type: ignore[arg-type]
        assert io.data_read_iops == pytest.approx(300.0 * page_reads_per_txn() * miss * margin)


def test_a_p90_rate_reads_with_the_storage_band_as_margin() -> None:
    x = PgTpsInputs(vcpus=8, clients=64, cache_gib=8.0, working_set_gib=80.0, storage_iops=4_000.0)
    margin = storage_margin(x, "P90")
    assert storage_margin(x, "P50") == 1.0 and margin > 1.0
    # IOPS enough for the rate's reads times the margin: the band's P10 of the storage bound reaches the rate
    rate = pg_tps(x, samples=2_000).iops_tps / margin
    assert pg_tps(x, samples=2_000).estimate.p10 == pytest.approx(rate, rel=0.06)


UNSTATED = [{"name": "claims", "size_gb": 80, "peak_clients": 90, "working_set_gb": 6.0}]


def _estimated(r: object) -> dict[str, object]:
    return {d.database: d for v in r.vms for d in v.disks}  # type: ignore[attr-defined]


def test_an_unstated_peak_is_what_the_throughput_model_gives_its_clients_on_the_designs_cpu(
        catalog: HardwareCatalog) -> None:
    """A database with no stated peak is sized (its WAL and IOPS) on the rate the same model reports its VM carries:
    90 clients take 9 vCPUs at study 001's 10 per vCPU, and the estimate lies at the VM's P50 (was 90 x 61 = 5,484
    TPS, DBT-2 units, far below the band of the VM the design reports)."""
    from models.sizing.postgres import clients_tps, host_cpu

    r = size(sample("pg-consolidation", workload={"databases": UNSTATED}, platform={"server_id": R6625}), catalog)
    (vm,) = r.vms
    (disk,) = vm.disks
    assert vm.vcpus == 9 and disk.tps_binding == "CPU"
    assert disk.peak_tps == pytest.approx(clients_tps(90, host_cpu(catalog.server(R6625), "P50")), abs=0.1)
    assert disk.tps_p10 < disk.peak_tps < disk.tps_p90
    assert disk.peak_tps == pytest.approx(disk.tps_p50, rel=0.05)  # the band's median, up to Monte Carlo noise
    assert disk.wal_write_iops == pytest.approx(disk.peak_tps, rel=1e-3)  # one WAL flush per commit, at that rate


def test_a_faster_processor_raises_an_unstated_peak_by_its_specrate_per_core(catalog: HardwareCatalog) -> None:
    """The CPU enters an unstated peak as it enters a stated one: SPECrate2017_int_base per core, EPYC 9354 against
    Xeon 6740E (11.7 against 5.5 per core in the benchmark table); study 001's rate per client ignored the CPU."""
    from models.estate import socket_score

    peaks = {}
    for server in (R6625, R670):
        r = size(sample("pg-consolidation", workload={"databases": UNSTATED}, platform={"server_id": server}), catalog)
        peaks[server] = _estimated(r)["claims"].peak_tps  # type: ignore[attr-defined]
    per_core = {s: socket_score(catalog.server(s).cpu.model) / catalog.server(s).cpu.cores  # type: ignore[operator]
                for s in (R6625, R670)}
    assert peaks[R6625] / peaks[R670] == pytest.approx(per_core[R6625] / per_core[R670], rel=1e-4)  # 0.1 TPS


def test_the_small_vm_warning_counts_in_the_rate_the_design_reports(catalog: HardwareCatalog) -> None:
    """A stated 4-vCPU VM for 120 clients: the warning's 'A of B transactions/s' are the throughput model's (A the
    rate the VM's row reports at P50, B what the clients drive on the same CPU), not study 001's 609 per vCPU."""
    import re

    from models.sizing.postgres import clients_tps, host_cpu

    dbs = [{"name": "desk", "size_gb": 30, "peak_clients": 120, "working_set_gb": 3.0}]
    r = size(sample("pg-consolidation", workload={"databases": dbs, "vm_vcpus": 4}, platform={"server_id": R6625}),
             catalog)
    (warn,) = [w for w in r.warnings if w.code == "small-vm"]
    kept, got, full = re.search(r"about (\d+) % of the throughput they would drive, ([\d,]+) of ([\d,]+)",
                                warn.text).groups()  # type: ignore[union-attr]
    reached, drive = float(got.replace(",", "")), float(full.replace(",", ""))
    (disk,) = r.vms[0].disks
    assert reached == pytest.approx(disk.tps_p50, rel=0.05)
    assert drive == pytest.approx(clients_tps(120, host_cpu(catalog.server(R6625), "P50")), abs=1)
    assert int(kept) == round(100 * reached / drive) and int(kept) < 40  # 4 of the 12 vCPUs the clients take


def test_an_unstated_peak_on_a_slow_log_device_is_what_its_clients_can_commit(catalog: HardwareCatalog) -> None:
    """Six clients on external storage of 8 ms a flush: each commits at most once per flush (group commit), so the
    database is sized for 6 / 0.008 = 750 TPS of WAL and writes, not for the CPU rate of its vCPUs (the model's WAL
    bound, which also binds the rate its VM reports)."""
    from models.calibration_data import figure

    dbs = [{"name": "ledger", "size_gb": 40, "peak_clients": 6, "working_set_gb": 2.0}]
    r = size(sample("pg-consolidation", workload={"databases": dbs},
                    platform={"server_id": R6625, "datastore_iops": 50_000.0, "datastore_latency_ms": 8.0}), catalog)
    (disk,) = r.vms[0].disks
    wal = 6 / (figure("pg_tuning_docs", "wal_flushes_per_commit") * 8.0 / 1000.0)
    assert disk.peak_tps == pytest.approx(wal, abs=0.1) and disk.wal_write_iops == pytest.approx(wal, rel=1e-3)
    assert disk.tps_binding == "WAL flush" and disk.tps_p10 < disk.peak_tps < disk.tps_p90
    fast = size(sample("pg-consolidation", workload={"databases": dbs}, platform={"server_id": R6625}), catalog)
    assert fast.vms[0].disks[0].peak_tps > 3 * wal  # the same clients without a stated latency: the CPU rate

"""postgresql.conf as a DBA expects it: the release drives what it may, parallel workers from the vCPUs (capped,
and the cap said), work_mem counting them, huge pages with their count and the vSphere reservation, the planner's
I/O from the drives behind the datastore."""

from __future__ import annotations

import pytest

from models.hardware import HardwareCatalog
from models.scenario import ScenarioFileError, parse_scenario
from models.sizing.engine import size
from models.sizing.postgres.config import PgVmInputs, postgres_config
from tests.models.sizing.conftest import sample


def _vm(vcpus: int = 16, memory_gib: float = 64, version: int = 17, overcommitted: bool = False,
        drive: str = "ssd", drives: int = 4) -> PgVmInputs:
    return PgVmInputs("vm-x", memory_gib, vcpus, 60, True, overcommitted, drive, drives, 500.0,  # type: ignore[arg-type]
                      version=version)


@pytest.mark.parametrize(("vcpus", "gather", "capped"), [(24, 4, True), (6, 3, False), (4, 2, False)])
def test_parallel_workers_follow_the_vcpus_and_say_the_cap(vcpus: int, gather: int, capped: bool) -> None:
    c = postgres_config(_vm(vcpus))
    assert c.get("max_worker_processes").value == vcpus == c.get("max_parallel_workers").value
    per_gather = c.get("max_parallel_workers_per_gather")
    assert per_gather.value == gather and ("capped at 4" in per_gather.reason) == capped
    assert f"up to {gather} parallel workers" in c.get("work_mem").reason


def test_below_four_vcpus_the_defaults_stay_and_work_mem_counts_their_workers() -> None:
    c = postgres_config(_vm(2, memory_gib=16))
    assert c.get("max_parallel_workers_per_gather").value == 2 and "default" in c.get("max_worker_processes").reason
    ram = 16 * 1024
    sb = c.get("shared_buffers").value
    conns = c.get("max_connections").value
    assert c.get("work_mem").value == (ram - sb) // ((conns + c.get("max_worker_processes").value) * 3)


@pytest.mark.parametrize(("version", "compression", "exact_count"), [(14, "on", False), (15, "lz4", True),
                                                                      (18, "lz4", True)])
def test_the_release_drives_wal_compression_and_the_huge_page_count(version: int, compression: str,
                                                                     exact_count: bool) -> None:
    c = postgres_config(_vm(version=version))
    assert c.get("wal_compression").value == compression
    assert c.get("jit").value == "off" and f"PostgreSQL {version}" in c.get("jit").reason
    huge = c.get("huge_pages")
    assert huge.value == "try" and "vm.nr_hugepages" in huge.reason
    assert ("shared_memory_size_in_huge_pages" in huge.reason) == exact_count


def test_huge_pages_ask_for_the_full_reservation_only_where_the_host_can_give_it() -> None:
    reserved = postgres_config(_vm(memory_gib=64)).get("huge_pages").reason
    assert "reserve 100 % of the VM's 64 GiB" in reserved
    squeezed = postgres_config(_vm(memory_gib=64, overcommitted=True)).get("huge_pages").reason
    assert "no full memory reservation" in squeezed and "reserve 100 %" not in squeezed


def test_spinning_disks_get_one_io_request_per_drive() -> None:
    c = postgres_config(_vm(drive="hdd", drives=10))
    assert c.get("effective_io_concurrency").value == 10 and "10 spinning disks" in c.get(
        "effective_io_concurrency").reason
    assert c.get("random_page_cost").value == 4.0


def test_postgres_version_is_an_input_bounded_by_the_supported_releases(catalog: HardwareCatalog) -> None:
    r = size(sample("pg-consolidation", workload={"postgres_version": 14}), catalog)
    values = {g.get("wal_compression").value for g in r.design.settings if g.product == "postgresql"}
    assert values == {"on"}
    raw = sample("pg-consolidation").model_dump(mode="json")
    raw["workload"]["postgres_version"] = 12
    with pytest.raises(ScenarioFileError) as e:
        parse_scenario(raw)
    assert "workload.postgres_version" in str(e.value) and "14 to 18" in str(e.value)

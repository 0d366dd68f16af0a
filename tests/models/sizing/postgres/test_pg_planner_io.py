"""random_page_cost and effective_io_concurrency from the storage the design builds (issue 28, item 5): local
spinning disks (one request per drive), local SSD and NVMe, an all-flash vSAN datastore (network storage: PGTune's
SAN figures), a hybrid vSAN datastore (spinning capacity: the default cost, one request per disk holding a copy) and
an external array stated by platform.datastore_iops; each value with its reason and a source refarch can resolve."""

from __future__ import annotations

from typing import Any

import pytest

from models.calibration_data import figure
from models.references import unresolved
from models.sizing.result import SizingResult
from models.sizing.settings import Setting
from tests.models.sizing.conftest import SizeOnce, sample

DS = "pg_tuning_docs"


def _planner(r: SizingResult) -> list[tuple[Setting, Setting]]:
    """Each VM's random_page_cost and effective_io_concurrency."""
    out = []
    for g in r.design.settings:
        by = {s.name: s for s in g.settings}
        out.append((by["random_page_cost"], by["effective_io_concurrency"]))
    return out


def _sized(size_once: SizeOnce, n: int, platform: dict[str, Any] | None = None, **workload: Any) -> SizingResult:
    dbs = [{"name": f"p{i}", "size_gb": round(0.8 * 1.8 ** i, 1), "peak_clients": 3 + 4 * i,
            "working_set_gb": round(0.2 * 1.6 ** i, 1), "busy_hours": [(7 * i) % 24]} for i in range(n)]
    more = {"platform": platform} if platform else {}
    return size_once(sample("pg-consolidation", workload={"databases": dbs, **workload}, **more))


def _queued(eio_id: str) -> int:
    """The storage's figure within what a PVSCSI virtual disk queues at once."""
    return min(int(figure(DS, eio_id)), int(figure(DS, "pvscsi_disk_queue_depth")))


def _check(r: SizingResult, rpc: float, eio: int, words: str) -> None:
    for cost, conc in _planner(r):
        assert (cost.value, conc.value) == (rpc, eio), (cost, conc)
        assert words in cost.reason or words in conc.reason
        assert not unresolved(cost.source) and not unresolved(conc.source)


def test_an_all_flash_vsan_datastore_is_network_storage(size_once: SizeOnce) -> None:
    r = _sized(size_once, 9, vsan_architecture="esa")
    assert r.design.vsan_architecture == "esa"
    _check(r, figure(DS, "random_page_cost_ssd"), _queued("effective_io_concurrency_san"), "all-flash vSAN")


def test_a_hybrid_vsan_datastore_reads_from_spinning_disks(size_once: SizeOnce) -> None:
    """One small database: the cheapest vSAN is a 10K SAS capacity disk behind a flash cache (hybrid): the default
    cost and one request per capacity disk holding a copy of the VM disk (RAID-1: two)."""
    r = _sized(size_once, 1, vsan_architecture="osa")
    drive = next(x for x in r.bom if x.part_id == r.design.drive_id)
    if "SSD" in drive.description or "NVMe" in drive.description:
        pytest.skip("the catalog's cheapest capacity drive is flash")
    _check(r, figure(DS, "random_page_cost_hdd"), 2, "hybrid vSAN")


def test_an_external_array_is_planned_as_a_san(size_once: SizeOnce) -> None:
    r = _sized(size_once, 4, platform={"datastore_iops": 15000, "datastore_latency_ms": 0.8})
    _check(r, figure(DS, "random_page_cost_ssd"), _queued("effective_io_concurrency_san"), "external array")


@pytest.mark.parametrize("server_id", ["hpe-ml350-g6-2x-e5620", "dell-r670-10x-u3-2x-xeon-6740e"])
def test_local_datastores_follow_their_drives(size_once: SizeOnce, server_id: str) -> None:
    """Local RAID on a 2010 server (its own era's SATA SSDs) and on an NVMe server: the drive type's figures."""
    r = _sized(size_once, 3, platform={"server_id": server_id}, shared_storage="local")
    media = "nvme" if "NVMe" in next(x.description for x in r.bom if x.part_id == r.design.drive_id) else "ssd"
    _check(r, figure(DS, "random_page_cost_ssd"), _queued(f"effective_io_concurrency_{media}"),
           f"local {media.upper()}")


@pytest.mark.parametrize("version", [15, 18])
def test_no_value_exceeds_the_virtual_disk_queue_and_the_reason_names_the_release_default(
        size_once: SizeOnce, version: int) -> None:
    """Six databases on local NVMe (a 1,000-request figure), then an external array (300): every VM's value is within
    the requests its PVSCSI virtual disk queues at once, a capped one says so with the figure it was capped from, and
    each reason gives the default of the PostgreSQL release asked for (1 before 18, 16 from 18)."""
    queue = int(figure(DS, "pvscsi_disk_queue_depth"))
    default = int(figure(DS, "effective_io_concurrency_default_18" if version >= 18
                         else "effective_io_concurrency_default_before_18"))
    capped = 0
    for r in (_sized(size_once, 6, platform={"server_id": "dell-r670-10x-u3-2x-xeon-6740e"}, shared_storage="local",
                     postgres_version=version),
              _sized(size_once, 6, platform={"datastore_iops": 40000, "datastore_latency_ms": 0.5},
                     postgres_version=version)):
        settings = [conc for _, conc in _planner(r)]
        assert settings
        for conc in settings:
            assert 0 < int(conc.value) <= queue
            assert f"default for PostgreSQL {version} is {default})" in conc.reason
            if "capped at" in conc.reason:
                capped += 1
                assert int(conc.value) == queue and "PVSCSI" in conc.reason
            assert "Linux kernel" in conc.source and not unresolved(conc.source)
    assert capped  # not vacuous: local NVMe's figure is above the queue

"""`shared-vm` keeps the databases in the VM the user stated (study 001's scheme 1); only a size left free splits
them, and the design says why."""

from __future__ import annotations

import re
from typing import Any

import pytest

from models.hardware import HardwareCatalog
from models.sizing.engine import size
from tests.models.sizing.conftest import sample
from tests.models.sizing.postgres.test_pg_overcommit import ML350, R670, STUDY_DBS


def _scheme_1(available: float) -> Any:
    return sample("pg-consolidation", workload={
        "databases": STUDY_DBS, "placement": "shared-vm", "vm_vcpus": 3, "vm_memory_gib": 8,
        "host_memory_available_gib": available, "vsphere_ha": False, "shared_storage": "local"},
        platform={"server_id": ML350, "raid": "raid1"})


@pytest.mark.parametrize("rate", [0.30, 0.55, 0.69])
def test_study_001_scheme_1_is_one_vm_at_its_overcommit(catalog: HardwareCatalog, rate: float) -> None:
    """One 8 GiB VM of 3 vCPUs for both databases, 2 GiB shared_buffers (Table 3), at 30/55/69 % overcommit. Before,
    two VMs with one database each and 75 % shared_buffers ('a VM dedicated to one database')."""
    r = size(_scheme_1(round((1 - rate) * 8, 2)), catalog)
    (vm,) = r.vms
    assert (vm.memory_gib, vm.vcpus, sorted(vm.databases)) == (8.0, 3, ["DB_1", "DB_2"])
    (group,) = [g for g in r.design.settings if g.product == "postgresql"]
    assert group.get("shared_buffers").value == 2048
    assert "several databases share this VM" in group.get("shared_buffers").reason
    assert abs(r.design.overcommit_rate - rate) <= 0.05


def test_a_stated_vm_short_of_vcpus_is_kept_with_the_throughput_it_costs(catalog: HardwareCatalog) -> None:
    """12 databases of 40 clients busy all day in one shared VM of 8 vCPUs (they take 48): one VM, and a warning
    giving the share of their throughput it keeps (8 / 48)."""
    dbs = [{"name": f"app{i}", "size_gb": 30, "peak_clients": 40, "working_set_gb": 2.0} for i in range(12)]
    r = size(sample("pg-consolidation", workload={"databases": dbs, "placement": "shared-vm", "vm_vcpus": 8},
                    platform={"server_id": R670}), catalog)
    assert len(r.vms) == 1 and r.vms[0].vcpus == 8
    text = next(w.text for w in r.warnings if w.code == "small-vm")
    kept = re.search(r"about (\d+) % of the throughput", text)
    assert kept is not None and int(kept[1]) == round(100 * 8 / 48)


def test_a_split_happens_only_with_the_size_left_free_and_says_why(catalog: HardwareCatalog) -> None:
    """The same databases with the VM size left free: split within NUMA nodes, the rationale naming what one VM
    would take; with memory stated too small for their working sets, split at that size, saying so."""
    dbs = [{"name": f"app{i}", "size_gb": 30, "peak_clients": 40, "working_set_gb": 2.0} for i in range(12)]
    one = size(sample("pg-consolidation", workload={"databases": dbs, "placement": "shared-vm"},
                      platform={"server_id": R670}), catalog)
    assert len(one.vms) == 1 and "split" not in next(x.text for x in one.rationale if x.decision == "Database VMs")
    busy = [{**d, "peak_clients": 400} for d in dbs]  # 480 vCPUs' worth of clients: more than a NUMA node's cores
    free = size(sample("pg-consolidation", workload={"databases": busy, "placement": "shared-vm"},
                       platform={"server_id": R670}), catalog)
    text = next(x.text for x in free.rationale if x.decision == "Database VMs")
    assert len(free.vms) > 1 and f"split over {len(free.vms)} shared VMs" in text
    assert "480 vCPUs" in text and "(vm_vcpus left free)" in text
    small = size(sample("pg-consolidation", workload={"databases": dbs, "placement": "shared-vm", "vm_vcpus": 64,
                                                      "vm_memory_gib": 8}, platform={"server_id": R670}), catalog)
    assert len(small.vms) > 1 and all(vm.memory_gib == 8 for vm in small.vms)
    assert "more than the 8 GiB stated (vm_memory_gib)" in next(
        x.text for x in small.rationale if x.decision == "Database VMs")

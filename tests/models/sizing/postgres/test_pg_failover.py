"""vSphere HA simulated: every single-host failure with the restarts HA would make, the result on the design and
the text written from it; admission control for N+0, N+1 and N+2."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from models.hardware import HardwareCatalog
from models.scenario import PgDatabase
from models.sizing.engine import size
from models.sizing.parts import current
from models.sizing.postgres.placement import make_vm, pack_hosts, restart, survives_failures
from models.sizing.postgres.tps_vcpus import HostCpu
from tests.models.sizing.conftest import sample

R670 = "dell-r670-10x-u3-2x-xeon-6740e"  # 2 x 92 cores, 512 GiB


def _vms(*ws_gb: float) -> list[Any]:
    w = sample("pg-consolidation").workload
    return [make_vm(f"v{i}", (PgDatabase(name=f"d{i}", size_gb=10, peak_clients=10, working_set_gb=ws),),
                    HostCpu(64), w, 0.7)
            for i, ws in enumerate(ws_gb)]


def test_an_empty_spare_host_takes_the_restarts_before_a_loaded_one() -> None:
    """Host 0 fails; host 1 is half full and host 2 empty: both VMs go to the spare first (before: the first
    survivor where they fit, host 1, while the spare sat empty)."""
    a, b, c = _vms(40, 30, 100)
    after = restart([[a, b], [c], []], (0,), 64, 400.0)
    assert after.onto == {"v0": 2, "v1": 2} and not after.stranded


def test_two_vms_of_a_failed_host_go_one_to_each_equal_survivor() -> None:
    a, b, c, d = _vms(60, 60, 60, 60)
    after = restart([[a, b], [c], [d]], (0,), 64, 300.0)
    assert sorted(after.onto.values()) == [1, 2]


def test_a_vm_no_survivor_can_hold_is_stranded() -> None:
    a, b, c = _vms(150, 150, 150)
    after = restart([[a], [b], [c]], (0,), 64, 200.0)
    assert after.stranded == ("v0",) and after.onto == {}


@pytest.mark.parametrize("failures", [1, 2])
def test_admission_control_for_n_failures_survives_every_set_of_n(failures: int) -> None:
    vms = _vms(*(20 + 17 * (i % 5) for i in range(14)))
    hosts = pack_hosts(vms, 64, 260.0, failures, 2, 32)
    assert hosts is not None
    bins = [list(h.vms) for h in hosts]
    assert len(bins) >= failures + 1
    for failed in itertools.combinations(range(len(bins)), failures):
        assert not restart(bins, failed, 64, 260.0).stranded
    if failures == 2:
        n1 = pack_hosts(vms, 64, 260.0, 1, 2, 32)
        assert n1 is not None and len(n1) < len(hosts)
        assert not survives_failures([list(h.vms) for h in n1], 2, 64, 260.0)


def _big_estate(failures: int) -> Any:
    dbs = [{"name": f"big{i}", "size_gb": 400, "peak_clients": 40, "working_set_gb": 130} for i in range(9)]
    return sample("pg-consolidation", workload={"databases": dbs, "ha_host_failures": failures},
                  platform={"server_id": R670})


def test_n_plus_0_reports_the_vms_that_cannot_restart(catalog: HardwareCatalog) -> None:
    """Nine 130 GB working sets on 512 GiB hosts with no HA reserve: a failed host's VMs find no room; the design
    names them, the rationale says so and a critical warning points at ha_host_failures. N+1 restarts them all."""
    r = size(_big_estate(0), catalog)
    hf = r.design.host_failure
    assert hf is not None and hf.tolerated == 0 and hf.not_restarted
    assert set(hf.not_restarted) <= {vm.name for vm in r.vms if vm.host == hf.failed_host}
    warning = next(w for w in r.warnings if w.code == "ha-cannot-restart")
    assert warning.severity == "critical" and warning.field == "workload.ha_host_failures"
    text = next(x.text for x in r.rationale if x.decision == "Hosts and overcommit")
    assert f"{len(hf.not_restarted)} VM(s) cannot restart" in text
    n1 = size(_big_estate(1), catalog)
    assert n1.design.host_failure is not None and not n1.design.host_failure.not_restarted
    assert n1.design.segment_hosts > r.design.segment_hosts
    assert "ha-cannot-restart" not in {w.code for w in n1.warnings}


def test_the_rationale_is_written_from_the_simulated_failure(catalog: HardwareCatalog) -> None:
    """Squeezed host memory (overcommitted survivors): each survivor's overcommit and throughput on the design,
    the busiest one in the text, every restart of the worst failure placed on a survivor."""
    dbs = [{"name": f"d{i}", "size_gb": 100, "peak_clients": 20 + 10 * (i % 4), "working_set_gb": 8 + 6 * (i % 5)}
           for i in range(16)]
    r = size(sample("pg-consolidation", workload={"databases": dbs, "host_memory_available_gib": 90,
                                                  "vm_memory_gib": 48}, platform={"server_id": R670}), catalog)
    hf = r.design.host_failure
    assert hf is not None and not hf.not_restarted
    failed_vms = {vm.name for vm in r.vms if vm.host == hf.failed_host}
    assert {n for s in hf.survivors for n in s.restarted} == failed_vms
    assert len(hf.survivors) == r.design.segment_hosts - 1
    hot = max(hf.survivors, key=lambda s: (s.overcommit_rate, -s.host))
    assert hot.overcommit_rate <= hot.safe_overcommit_rate + 1e-9  # restarts keep the working sets resident
    text = next(x.text for x in r.rationale if x.decision == "Hosts and overcommit")
    assert f"host {hot.host}, then runs at {round(hot.overcommit_rate * 100)} % overcommit" in text
    assert "fit in the others" not in text
    assert r.to_dict()["design"]["host_failure"]["failed_host"] == hf.failed_host


def test_a_three_host_vsan_is_warned_that_it_cannot_re_protect(catalog: HardwareCatalog) -> None:
    """A 1 GB database on vSAN RAID-1 takes the policy's 3 hosts: after a failure 2 are left, below the 3 the policy
    needs, so vSAN cannot rebuild (before: no warning)."""
    tiny = [{"name": "tiny", "size_gb": 1, "peak_clients": 5, "working_set_gb": 0.2}]
    r = size(sample("pg-consolidation", workload={"databases": tiny}), catalog)
    assert r.design.raid == "vsan-raid1-ftt1" and r.design.segment_hosts == 3
    w = next(x for x in r.warnings if x.code == "vsan-no-rebuild-host")
    assert "2 left are fewer than the 3" in w.text and w.field == "workload.vsan_policy"
    local = size(sample("pg-consolidation", workload={"databases": tiny, "shared_storage": "local"}), catalog)
    assert "vsan-no-rebuild-host" not in {x.code for x in local.warnings}


def test_a_small_vsan_estate_gets_the_nic_vsan_needs_not_100_gbe(catalog: HardwareCatalog) -> None:
    """6 GB of data on vSAN: the cheapest NIC per port at vSAN OSA all-flash's 10 GbE (before: 100 GbE cards, the
    Greenplum study's speed); a named NIC is kept."""
    small = [{"name": f"s{i}", "size_gb": 2, "peak_clients": 10, "working_set_gb": 0.5} for i in range(3)]
    r = size(sample("pg-consolidation", workload={"databases": small}), catalog)
    nic = catalog.nic(r.design.nic_id or "")
    floor = 10.0
    assert nic.speed_gbps >= floor
    offered = [n for n in current(catalog.nics, catalog) if n.speed_gbps >= floor]
    assert nic.price / nic.ports == min(n.price / n.ports for n in offered) and nic.speed_gbps < 100
    named = size(sample("pg-consolidation", workload={"databases": small},
                        platform={"nic_id": "mellanox-connectx-5-2x100gbe"}), catalog)
    assert named.design.nic_id == "mellanox-connectx-5-2x100gbe"

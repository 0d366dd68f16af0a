"""Mirror placement: acting primaries after a host failure, the hosts a policy needs, vSphere failures."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.hardware import HardwareCatalog
from models.scenario import ScenarioFileError
from models.sizing import mirroring
from models.sizing.engine import size
from models.sizing.gp_memory import memory_plan
from tests.models.sizing.conftest import sample


def test_documented_block_example_and_group_default() -> None:
    # "a 4-host block with 8 primary segments per host ... max_acting_primary_segments ... is 11"
    assert mirroring.max_acting_primaries("block", 8, 16, block_hosts=4) == 11
    assert mirroring.max_acting_primaries("group", 8, 16) == 16
    assert mirroring.max_acting_primaries("spread", 8, 16) == 9
    assert mirroring.max_acting_primaries(None, 8, 16) == 8


def test_spread_needs_more_hosts_than_primaries_and_block_whole_blocks() -> None:
    assert mirroring.min_physical_hosts("spread", 16).tolist() == 17
    assert mirroring.min_physical_hosts("group", 16).tolist() == 2
    assert mirroring.round_hosts("block", [9], 1, 4).tolist() == [12]
    assert mirroring.round_hosts("block", [9], 2, 4).tolist() == [10]  # 20 VMs = 5 blocks of 4


@settings(max_examples=200, deadline=None)
@given(
    p=st.integers(1, 64), hosts=st.integers(2, 500), ram=st.floats(16, 4096), swap=st.floats(0, 256),
    block=st.integers(2, 16),
)
def test_group_never_gives_a_higher_vmem_limit_than_spread_or_block(
    p: int, hosts: int, ram: float, swap: float, block: int
) -> None:
    group = mirroring.max_acting_primaries("group", p, hosts)
    spread = mirroring.max_acting_primaries("spread", p, max(hosts, p + 1))
    blk = mirroring.max_acting_primaries("block", p, hosts, block)
    assert group >= spread and group >= blk >= p
    limit = {n: memory_plan(ram, swap, p, n, 10, 10, "group", None, False).settings.gp_vmem_protect_limit_mb
             for n in (group, spread, blk)}
    assert limit[group] <= limit[spread] and limit[group] <= limit[blk]


def test_default_is_group_mirroring_so_the_vmem_limit_halves(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5", targets={}), catalog)
    g = r.greenplum
    assert g is not None and g.mirroring == "group"
    assert g.max_acting_primary_segments == 2 * r.design.primary_segments_per_host
    assert r.design.gp_vmem_protect_limit_mb == g.gp_vmem_protect_limit_mb
    spread = size(sample("retail-dw-gen5", targets={}, workload={"mirroring": "spread"}), catalog)
    assert spread.design.segment_hosts > spread.design.primary_segments_per_host  # spread needs hosts > P
    assert spread.greenplum.max_acting_primary_segments == spread.design.primary_segments_per_host + 1
    assert spread.design.gp_vmem_protect_limit_mb > r.design.gp_vmem_protect_limit_mb


def test_block_mirroring_fills_whole_blocks(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5", workload={"mirroring": "block", "mirror_block_hosts": 4}), catalog)
    assert r.design.segment_hosts % 4 == 0
    p = r.design.primary_segments_per_host
    assert r.greenplum.max_acting_primary_segments == p + -(-p // 3)


def test_block_without_a_size_is_bad_input() -> None:
    with pytest.raises(ScenarioFileError, match="mirror_block_hosts"):
        sample("retail-dw-gen5", workload={"mirroring": "block"})


def test_vsphere_states_anti_affinity_and_counts_per_vm(catalog: HardwareCatalog) -> None:
    r = size(sample("study-000-vsphere"), catalog)
    g = r.greenplum
    assert g is not None and g.mirror_anti_affinity
    per_vm = r.design.primary_segments_per_host // r.design.vms_per_host
    assert g.primaries_per_segment_host == per_vm and g.max_acting_primary_segments == 2 * per_vm
    assert any(x.decision == "Mirror anti-affinity" and "physical host" in x.text for x in r.rationale)


def test_spread_on_vsphere_needs_more_physical_hosts_than_primaries_per_vm(catalog: HardwareCatalog) -> None:
    r = size(sample("study-000-vsphere", workload={"mirroring": "spread"}), catalog)
    per_vm = r.design.primary_segments_per_host // r.design.vms_per_host
    assert r.design.segment_hosts > per_vm


def test_no_mirrors_has_no_failover_load(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5", workload={"mirrors": False}, targets={}), catalog)
    g = r.greenplum
    assert g is not None and g.mirroring is None
    assert g.max_acting_primary_segments == r.design.primary_segments_per_host

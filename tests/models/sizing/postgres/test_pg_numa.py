"""VMs pinned to a NUMA node never take more memory than the node has: a VM the node cannot hold after the VMs
pinned before it spans nodes (wide), as a VM larger than a node does."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from models.sizing.postgres.placement import HOURS, PgVm, _numa


def _vm(name: str, memory_gib: float, vcpus: int = 2) -> PgVm:
    return PgVm(name, (), vcpus, memory_gib, np.zeros(HOURS), np.full(HOURS, memory_gib), 0, ())


def test_a_third_vm_the_two_nodes_cannot_hold_spans_them() -> None:
    """60 + 60 + 60 GiB on two 100 GiB nodes: before, the third was pinned to a node left with 40 GiB."""
    nodes = _numa([_vm("a", 60), _vm("b", 60), _vm("c", 60)], 2, 16, 100.0)
    assert nodes[:2] == (0, 1) and nodes[2] is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(1, 300), min_size=1, max_size=12), st.integers(1, 8), st.floats(16, 512))
def test_no_node_holds_more_than_its_memory(sizes: list[float], nodes: int, node_mem: float) -> None:
    vms = [_vm(f"vm{i}", m) for i, m in enumerate(sizes)]
    placed = _numa(vms, nodes, 16, node_mem)
    for node in range(nodes):
        assert sum(vm.resident_peak_gib for vm, n in zip(vms, placed, strict=True) if n == node) <= node_mem + 1e-6
    # a VM is wide only when no node could take it at its turn: not larger than a node and alone, it is pinned
    if len(vms) == 1 and sizes[0] <= node_mem:
        assert placed == (0,)

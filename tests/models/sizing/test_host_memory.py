"""Memory that can be bought: whole DIMMs within the slots; beyond them is bad input; below the base is warned."""

from __future__ import annotations

import pytest

from models.hardware import HardwareCatalog
from models.sizing.engine import size
from models.sizing.parts import SizingInputError
from tests.models.sizing.conftest import sample

GEN5 = "supermicro-asg-1115s-ne316r-1x-epyc-9454p"  # 512 GiB base, 24 slots


def test_memory_above_the_base_is_whole_dimms_within_the_slots(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5", platform={"memory_gib": 1024}, targets={}), catalog)
    (dimms,) = [b for b in r.bom if b.kind == "dimm"]
    server = catalog.server(GEN5)
    dimm = next(d for d in catalog.dimms if d.id == dimms.part_id)
    assert dimms.qty_per_host * dimm.size_gib >= 1024 - server.memory_gib
    assert -(-server.memory_gib // dimm.size_gib) + dimms.qty_per_host <= server.dimm_slots


def test_memory_beyond_the_slots_is_bad_input_naming_the_limit(catalog: HardwareCatalog) -> None:
    with pytest.raises(SizingInputError, match=r"platform.memory_gib: 65,536 GiB .*at most [\d,]+ GiB"):
        size(sample("retail-dw-gen5", platform={"memory_gib": 65536}), catalog)
    free = sample("retail-dw-gen5", platform={"memory_gib": 65536, "server_id": None})
    with pytest.raises(SizingInputError, match=r"platform.memory_gib: 65,536 GiB") as err:
        size(free, catalog)
    assert [p.path for p in err.value.problems] == ["platform.memory_gib"]  # the GUI marks that field


def test_memory_below_the_base_is_warned(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5", platform={"memory_gib": 256}, targets={}), catalog)
    assert "memory-below-base" in {w.code for w in r.warnings}
    assert not [b for b in r.bom if b.kind == "dimm"]


def test_no_mirrors_and_no_raid_is_warned(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5", workload={"mirrors": False}, platform={"raid": "none"}, targets={}), catalog)
    assert "no-redundancy" in {w.code for w in r.warnings}


@pytest.mark.parametrize("reserve", [512, 513, 1000])
def test_a_hypervisor_reserve_leaving_the_vms_no_memory_is_bad_input(catalog: HardwareCatalog, reserve: int) -> None:
    """Before: the 512 GiB host's two VMs got -244 GiB each and the design was priced with gp_vmem_protect_limit 0."""
    s = sample("retail-dw-gen5", platform={"deployment": "vsphere", "hypervisor_reserve_gib": reserve,
                                           "memory_gib": 512})
    with pytest.raises(SizingInputError, match=r"platform.hypervisor_reserve_gib: .* at most 512 GiB"):
        size(s, catalog)


def test_a_reserve_below_the_host_memory_still_sizes(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5", platform={"deployment": "vsphere", "hypervisor_reserve_gib": 64},
                    targets={}), catalog)
    assert r.design.vm is not None and r.design.vm.memory_gib > 0

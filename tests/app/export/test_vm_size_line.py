"""The VM line of a design in every renderer: one size when every worker VM has it, the range when the VMs are
sized per database, so a consolidation never reads as if every VM were as large as its biggest."""

from __future__ import annotations

from collections.abc import Callable

from app.cli.commands.size import render_text
from app.formatting import gib, vm_size, vm_sizes_differ
from app.views.design import design_rows
from models.scenario import Scenario
from models.sizing.result import SizingResult

Sized = Callable[[str], tuple[Scenario, SizingResult]]


def test_a_consolidation_states_the_range_of_its_vm_sizes(sized: Sized) -> None:
    _, r = sized("pg-consolidation.json")
    vms = [v for h in r.design.hosts for v in h.vms]
    small, large = min(v.memory_gib for v in vms), max(v.memory_gib for v in vms)
    assert small < large and vm_sizes_differ(r.design)
    line = vm_size(r.design)
    assert line is not None and line.startswith("sized per database")
    assert gib(large) in line and gib(small).removesuffix(" GiB") in line
    assert line in render_text(r)
    facts = {f.label: f.text for f in design_rows(r)}
    assert facts["VM size"] == line
    sb = [float(s.value) / 1024 for g in r.design.settings if g.product == "postgresql" for s in g.settings
          if s.name == "shared_buffers"]
    assert len(set(sb)) > 1  # so is each VM's shared_buffers: the range, and the ratio said to be the first VM's
    assert facts["shared_buffers"] == f"per database VM: {gib(min(sb)).removesuffix(' GiB')} to {gib(max(sb))}"
    assert facts["shared_buffers ratio, first VM"].endswith("of VM memory")


def test_uniform_segment_vms_state_their_one_size(sized: Sized) -> None:
    _, r = sized("study-000-vsphere.json")
    assert r.design.vm is not None and not vm_sizes_differ(r.design)
    line = f"{r.design.vm.vcpus} vCPU, {gib(r.design.vm.memory_gib)}"
    assert vm_size(r.design) == line
    assert line in render_text(r)
    facts = {f.label: f.text for f in design_rows(r)}
    assert (facts["VMs per host"], facts["VM size"]) == (str(r.design.vms_per_host), line)


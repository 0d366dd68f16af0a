"""Design.settings: every sizer states the settings it decides, in the unit the product reads."""

from __future__ import annotations

import pytest

from models.hardware import HardwareCatalog
from models.sizing.engine import size
from models.sizing.settings import SettingGroup, groups_for
from tests.models.sizing.conftest import sample


def test_greenplum_states_its_vmem_limit(catalog: HardwareCatalog) -> None:
    """Set on Greenplum 7, which enforces it under resource groups; stated as left unset on Greenplum 6, which ignores
    it there (tests/app/export/config/test_release_memory_and_disks.py)."""
    r = size(sample("retail-dw-gen5", workload={"greenplum_version": "7"}), catalog)
    (gp,) = [g for g in groups_for(r.design.settings, "greenplum") if g.target == "cluster"]
    setting = gp.get("gp_vmem_protect_limit")
    assert setting is not None and setting.unit == "MB"
    assert setting.value == r.design.gp_vmem_protect_limit_mb
    assert setting.reason and setting.source


def test_no_mirror_mode_without_mirrors(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5", workload={"mirrors": False}), catalog)
    assert groups_for(r.design.settings, "greenplum-init") == []


def test_postgres_has_one_group_per_vm(catalog: HardwareCatalog) -> None:
    r = size(sample("pg-consolidation"), catalog)
    groups = groups_for(r.design.settings, "postgresql")
    vms = {vm.name: vm.memory_gib for vm in r.vms}
    assert {g.target for g in groups} == set(vms)
    for g in groups:
        sb = g.get("shared_buffers")
        assert sb is not None and sb.unit == "MB"
        # within one MiB of a study-001 / documentation ratio of the VM's memory (per VM: 75 % only for small
        # dedicated VMs, 25 % otherwise), never above it
        ratio = 0.75 if sb.value > vms[g.target] * 1024 / 2 else 0.25
        exact = vms[g.target] * 1024 * ratio
        assert exact - 1 < sb.value <= exact
    assert r.design.shared_buffers_ratio in {0.25, 0.75}


def test_sap_iq_caches_match_the_design(catalog: HardwareCatalog) -> None:
    r = size(sample("sap-iq"), catalog)
    (g,) = groups_for(r.design.settings, "sap-iq-server")
    assert g.get("iqmc").value == int(r.design.iq_main_cache_gib * 1024)  # type: ignore[union-attr]
    assert g.get("iqtc").value == int(r.design.iq_temp_cache_gib * 1024)  # type: ignore[union-attr]


def test_unknown_product_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown settings product"):
        SettingGroup("oracle", "x", ())

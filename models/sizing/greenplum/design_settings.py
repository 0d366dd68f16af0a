"""The product settings each sizer already decides, packaged as `SettingGroup`s for `Design.settings`.

Each function takes the values a sizer computed (and their rationale) and only states them in
the unit the product reads; the sizing decisions stay in the sizers and rules.
"""

from __future__ import annotations

from collections.abc import Sequence

from models.percent import percent
from models.sizing.greenplum.memory import MemoryPlan
from models.sizing.result import Rationale
from models.sizing.settings import Setting, SettingGroup

MIB_PER_GIB = 1024


def greenplum_settings(plan: MemoryPlan, mirror_why: Rationale | None = None) -> tuple[SettingGroup, ...]:
    """gpconfig values, the gpinitsystem mirroring mode and the default resource group of a Greenplum design.

    The values come from `memory.memory_plan` (sized for the worst host failure); the reasons
    are its rationale. Coordinator-only values are a "greenplum" group with target "coordinator".

    >>> from models.sizing.greenplum.memory import memory_plan
    >>> g = greenplum_settings(memory_plan(512, 32, 16, 32, 20, 20, "group", None, False))
    >>> g[0].get("gp_vmem_protect_limit").value, g[2].get("mirror_mode").value
    (13973, 'group')
    """
    v = plan.settings
    vmem_why, rg_why, conn_why = plan.rationale[:3]
    groups = [
        SettingGroup("greenplum", "cluster", (
            Setting("gp_vmem_protect_limit", v.gp_vmem_protect_limit_mb, "MB", vmem_why.text, vmem_why.source),
            Setting("gp_resource_manager", v.gp_resource_manager, "", rg_why.text, rg_why.source),
            Setting("gp_resource_group_memory_limit", v.gp_resource_group_memory_limit, "", rg_why.text,
                    rg_why.source),
            Setting("statement_mem", v.statement_mem_mb, "MB", rg_why.text, rg_why.source),
            Setting("max_statement_mem", v.max_statement_mem_mb, "MB", rg_why.text, rg_why.source),
            Setting("max_connections", v.max_connections_segment, "", conn_why.text, conn_why.source),
            Setting("max_prepared_transactions", v.max_prepared_transactions, "", conn_why.text, conn_why.source),
        )),
        SettingGroup("greenplum", "coordinator", (
            Setting("max_connections", v.max_connections_coordinator, "", conn_why.text, conn_why.source),
        )),
    ]
    if v.mirroring is not None:
        why = mirror_why or vmem_why
        init = [Setting("mirror_mode", v.mirroring, "", why.text, why.source)]
        if v.mirror_block_hosts:
            init.append(Setting("mirror_block_hosts", v.mirror_block_hosts, "", why.text, why.source))
        groups.append(SettingGroup("greenplum-init", "cluster", tuple(init)))
    groups.append(SettingGroup("greenplum-resource-group", "default_group", (
        Setting("concurrency", v.resource_group_concurrency, "", rg_why.text, rg_why.source),
        Setting("memory_spill_ratio", v.memory_spill_ratio, "", rg_why.text, rg_why.source),
    )))
    # the kernel settings the memory plan is computed with: without them the plan does not hold
    groups.append(SettingGroup("linux-sysctl", "segment hosts", (
        Setting("vm.overcommit_memory", v.vm_overcommit_memory, "", rg_why.text, rg_why.source),
        Setting("vm.overcommit_ratio", v.vm_overcommit_ratio, "", rg_why.text, rg_why.source),
    )))
    return tuple(groups)


def postgres_settings(
    vms: Sequence[tuple[str, float]], shared_buffers_ratio: float, reason: str, source: str
) -> tuple[SettingGroup, ...]:
    """One postgresql.conf group per VM `(name, memory_gib)`: shared_buffers at the design's ratio.

    >>> postgres_settings([("vm-a", 4.0)], 0.75, "r", "s")[0].get("shared_buffers").value
    3072
    """
    return tuple(
        SettingGroup("postgresql", name, (
            Setting(
                "shared_buffers", int(memory_gib * shared_buffers_ratio * MIB_PER_GIB), "MB",
                f"{percent(shared_buffers_ratio)} of the VM's {memory_gib:g} GiB."
                f" {reason[:1].upper()}{reason[1:]}", source,
            ),
        ))
        for name, memory_gib in vms
    )


def sap_iq_settings(
    main_cache_gib: float, temp_cache_gib: float, reason: str, source: str
) -> tuple[SettingGroup, ...]:
    """start_iq cache switches in MB (-iqmc main cache, -iqtc temp cache) for every node.

    >>> [s.value for s in sap_iq_settings(25.6, 25.6, "r", "s")[0].settings]
    [26214, 26214]
    """
    return (SettingGroup("sap-iq-server", "all nodes", (
        Setting("iqmc", int(main_cache_gib * MIB_PER_GIB), "MB", f"IQ main cache. {reason}", source),
        Setting("iqtc", int(temp_cache_gib * MIB_PER_GIB), "MB", f"IQ temporary cache. {reason}", source),
    )),)

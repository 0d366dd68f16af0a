"""The product settings each sizer already decides, packaged as `SettingGroup`s for `Design.settings`.

Each function takes the values a sizer computed (and their rationale) and only states them in
the unit the product reads; the sizing decisions stay in the sizers and rules.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from models.calibration_data import figure, point
from models.hardware import Drive, DriveMedia
from models.percent import percent
from models.scenario import GreenplumAnalytics, GreenplumOltp
from models.sizing.greenplum.memory import MemoryPlan
from models.sizing.greenplum.releases import gp7_family, group_memory_keyword, release_name, role_word
from models.sizing.result import Rationale, SizingResult
from models.sizing.settings import Setting, SettingGroup

MIB_PER_GIB = 1024
DOCS = "vendor_docs"


def greenplum_settings(plan: MemoryPlan, mirror_why: Rationale | None = None) -> tuple[SettingGroup, ...]:
    """gpconfig values, the gpinitsystem mirroring mode and the default resource group of a Greenplum design.

    The values come from `memory.memory_plan` (sized for the worst host failure); the reasons
    are its rationale. Coordinator-only values are a "greenplum" group with target "coordinator".

    >>> from models.sizing.greenplum.memory import MirrorLayout, memory_plan
    >>> g = greenplum_settings(memory_plan(512, 32, 16, 32, 20, 20, MirrorLayout("group", None, False)))
    >>> g[0].get("gp_vmem_protect_limit").value, g[2].get("mirror_mode").value
    (13973, 'group')
    """
    v = plan.settings
    vmem_why, rg_why, conn_why = plan.rationale[:3]
    groups = [
        SettingGroup("greenplum", "cluster", (
            Setting("gp_vmem_protect_limit", v.gp_vmem_protect_limit_mb, "MB", vmem_why.text, vmem_why.source_text),
            Setting("gp_resource_manager", v.gp_resource_manager, "", rg_why.text, rg_why.source_text),
            Setting("gp_resource_group_memory_limit", v.gp_resource_group_memory_limit, "", rg_why.text,
                    rg_why.source_text),
            Setting("statement_mem", v.statement_mem_mb, "MB", rg_why.text, rg_why.source_text),
            Setting("max_statement_mem", v.max_statement_mem_mb, "MB", rg_why.text, rg_why.source_text),
            Setting("max_connections", v.max_connections_segment, "", conn_why.text, conn_why.source_text),
            Setting("max_prepared_transactions", v.max_prepared_transactions, "", conn_why.text, conn_why.source_text),
        )),
        SettingGroup("greenplum", "coordinator", (
            Setting("max_connections", v.max_connections_coordinator, "", conn_why.text, conn_why.source_text),
        )),
    ]
    if v.pooled_sessions:
        groups.append(SettingGroup("pgbouncer", "coordinator", (
            Setting("pool_mode", "transaction", "", conn_why.text, conn_why.source_text),
            Setting("max_client_conn", v.pooled_sessions, "", conn_why.text, conn_why.source_text),
            Setting("default_pool_size", v.pool_size, "", conn_why.text, conn_why.source_text),
            Setting("max_db_connections", v.pool_size, "", conn_why.text, conn_why.source_text),
        )))
    if v.mirroring is not None:
        why = mirror_why or vmem_why
        init = [Setting("mirror_mode", v.mirroring, "", why.text, why.source_text)]
        if v.mirror_block_hosts:
            init.append(Setting("mirror_block_hosts", v.mirror_block_hosts, "", why.text, why.source_text))
        groups.append(SettingGroup("greenplum-init", "cluster", tuple(init)))
    groups.append(SettingGroup("greenplum-resource-group", "default_group", (
        Setting("concurrency", v.resource_group_concurrency, "", rg_why.text, rg_why.source_text),
        Setting("memory_spill_ratio", v.memory_spill_ratio, "", rg_why.text, rg_why.source_text),
    )))
    # the kernel settings the memory plan is computed with: without them the plan does not hold
    groups.append(SettingGroup("linux-sysctl", "segment hosts", (
        Setting("vm.overcommit_memory", v.vm_overcommit_memory, "", rg_why.text, rg_why.source_text),
        Setting("vm.overcommit_ratio", v.vm_overcommit_ratio, "", rg_why.text, rg_why.source_text),
    )))
    return tuple(groups)


GP7_DOC = "Greenplum Database 7 Administrator Guide, About Changes to Resource Groups in Greenplum 7"
CLOUDBERRY_SRC = "Apache Cloudberry 2 source, src/backend/commands/resgroupcmds.c (getResgroupOptionType: memory_quota)"
DEFAULT_GROUP = "default_group"


def greenplum_dialect(
    groups: tuple[SettingGroup, ...], version: str, coordinator_on_host: bool = False
) -> tuple[tuple[SettingGroup, ...], Rationale | None]:
    """The settings restated in `version`'s dialect: Greenplum 7 and its forks drop gp_resource_group_memory_limit
    and MEMORY_SPILL_RATIO, run resource groups on cgroup v2 (group-v2) and cap default_group's CPU at 20 % unless
    told otherwise; memory per group is MEMORY_LIMIT in MB per segment (MEMORY_QUOTA in Apache Cloudberry 2), and a
    query gets MEMORY_LIMIT / CONCURRENCY, so MEMORY_LIMIT = statement_mem x CONCURRENCY, statement_mem being the
    release's own 0.9 x gp_vmem_protect_limit / CONCURRENCY (`memory.memory_plan` with the version, whose reason
    the memory lines keep). Greenplum 6 keeps its settings but gp_vmem_protect_limit (`vmem_not_set`).

    >>> from models.sizing.greenplum.memory import MirrorLayout, memory_plan
    >>> plan = memory_plan(512, 32, 16, 32, 20, 20, MirrorLayout("group", None, False), version="7")
    >>> g, why = greenplum_dialect(greenplum_settings(plan), "7")
    >>> rg = [x for x in g if x.product == "greenplum-resource-group"][0]
    >>> [(s.name, s.value) for s in rg.settings]
    [('concurrency', 20), ('memory_limit', 12560), ('cpu_max_percent', 100), ('cpu_weight', 100), ('min_cost', 0)]
    >>> greenplum_dialect(greenplum_settings(plan), "6")[1].decision
    'gp_vmem_protect_limit on Greenplum 6'
    """
    if not gp7_family(version):
        return vmem_not_set(groups, coordinator_on_host)
    cluster = next(g for g in groups if g.product == "greenplum" and g.target == "cluster")
    stmt = cluster.get("statement_mem")
    rg = next(g for g in groups if g.product == "greenplum-resource-group" and g.target == DEFAULT_GROUP)
    conc = rg.get("concurrency")
    assert stmt is not None and conc is not None  # greenplum_settings states both
    word = group_memory_keyword(version)
    cpu = int(figure(DOCS, "gp7_rg_cpu_max_percent_max"))
    text = (f"{release_name(version)} resource groups: gp_resource_manager=group-v2 (cgroup v2, the default of"
            " Enterprise Linux 9; 'group' on cgroup v1 hosts); gp_resource_group_memory_limit and MEMORY_SPILL_RATIO"
            f" no longer exist. {DEFAULT_GROUP} runs CONCURRENCY={conc.value} with {word}="
            f"{int(stmt.value) * int(conc.value):,} MB per segment (see Resource groups); CPU_MAX_PERCENT={cpu}"
            f" lifts the {figure(DOCS, 'gp7_default_group_cpu_max_percent'):g} % cap the release gives"
            f" {DEFAULT_GROUP}, so the workload uses every core the sizing counts; CPU_WEIGHT and MIN_COST stay at"
            " their defaults.")
    source = (f"{GP7_DOC}; {_cite('gp7_rg_cpu_max_percent_max')}; {_cite('gp7_default_group_cpu_max_percent')};"
              f" {_cite('gp7_rg_cpu_weight_default')}; {_cite('gp7_rg_min_cost_default')}")
    memory_source = stmt.source + (f"; {CLOUDBERRY_SRC}" if version == "cloudberry-2" else "")
    new_rg = SettingGroup("greenplum-resource-group", DEFAULT_GROUP, (  # memory after CONCURRENCY: one reason
        conc,
        Setting(word.lower(), int(stmt.value) * int(conc.value), "", stmt.reason, memory_source),
        Setting("cpu_max_percent", cpu, "", text, source),
        Setting("cpu_weight", int(figure(DOCS, "gp7_rg_cpu_weight_default")), "", text, source),
        Setting("min_cost", int(figure(DOCS, "gp7_rg_min_cost_default")), "", text, source),
    ))
    kept = tuple(Setting(s.name, "group-v2", "", text, source) if s.name == "gp_resource_manager" else
                 _vmem_enforced(s, version) if s.name == VMEM else s
                 for s in cluster.settings if s.name != "gp_resource_group_memory_limit")
    out = tuple(SettingGroup(g.product, g.target, kept) if g is cluster else new_rg if g is rg else g for g in groups)
    return out, Rationale("Resource groups of the release", text, source)


VMEM = "gp_vmem_protect_limit"
NOT_SET = "greenplum-not-set"  # parameters the design leaves at their default, each with why (commented in gpconfig.sh)


def vmem_not_set(groups: tuple[SettingGroup, ...], coordinator_on_host: bool = False
                 ) -> tuple[tuple[SettingGroup, ...], Rationale | None]:
    """Greenplum 6 with resource groups: gp_vmem_protect_limit moves out of the gpconfig settings into the
    parameters left unset, with the documentation's reason (it is enforced only under resource queues; each segment's
    memory is then gp_resource_group_memory_limit's share). Nothing changes where it is not set or not under groups.

    >>> from models.sizing.greenplum.memory import MirrorLayout, memory_plan
    >>> g, why = vmem_not_set(greenplum_settings(memory_plan(512, 32, 16, 32, 20, 20, MirrorLayout("group", None,
    ...                                                                                              False))))
    >>> [x.product for x in g if any(s.name == VMEM for s in x.settings)], why.decision
    (['greenplum-not-set'], 'gp_vmem_protect_limit on Greenplum 6')
    """
    cluster = next((g for g in groups if g.product == "greenplum" and g.target == "cluster"), None)
    vmem = None if cluster is None else cluster.get(VMEM)
    manager = None if cluster is None else cluster.get("gp_resource_manager")
    if cluster is None or vmem is None or manager is None or manager.value != "group":
        return groups, None
    text = (f"Not set: Greenplum 6 enforces {VMEM} only under resource queues and ignores it when resource groups"
            " are active, as they are here (gp_resource_manager=group); each segment's memory is"
            " gp_resource_group_memory_limit's share of the host, rg_perseg_mem (see Resource groups). The value"
            " resource queues would take, gp_vmem / max_acting_primary_segments"
            + (f" (plus the {role_word('6')} on the first segment host)" if coordinator_on_host else "")
            + f" = {vmem.value:,} MB, stays the bound"
            " statement_mem is checked against.")
    source = f"{_cite('gp6_vmem_protect_limit_queues_only')}; {_cite('gp6_vmem_protect_limit_ignored_by_groups')}"
    kept = SettingGroup(cluster.product, cluster.target, tuple(s for s in cluster.settings if s.name != VMEM))
    unset = SettingGroup(NOT_SET, "cluster", (Setting(VMEM, vmem.value, vmem.unit, text, source),))
    out = tuple(g for x in groups for g in ((kept, unset) if x is cluster else (x,)))
    return out, Rationale(f"{VMEM} on Greenplum 6", text, source)


def _vmem_enforced(s: Setting, version: str) -> Setting:
    """gp_vmem_protect_limit on the Greenplum 7 line: enforced under resource groups too, so it stays set."""
    why = (f"{s.reason} {release_name(version)} enforces it under resource groups as well as resource queues, so it"
           " is set.")
    return Setting(s.name, s.value, s.unit, why, f"{s.source}; {_cite('gp7_vmem_protect_limit_both_managers')}")


SCHEDULER_GUIDE = {"6": "gp6", "7": "gp7", "warehousepg-7": "gp7", "cloudberry-2": "cloudberry2"}  # whose table
MEDIA_WORDS = {"nvme": "NVMe drives", "ssd": "SAS/SATA solid-state drives", "hdd": "spinning disks"}


def io_scheduler(media: DriveMedia, version: str) -> SettingGroup:
    """The installation guide's I/O scheduler for data drives of `media` (`Drive.media`) on `version`: the name on
    current kernels (RHEL 8 and later, Ubuntu) and the name RHEL 7's single-queue kernels give it.

    >>> [s.value for s in io_scheduler("nvme", "6").settings], [s.value for s in io_scheduler("hdd", "7").settings]
    (['nvme', 'none', 'none'], ['hdd', 'mq-deadline', 'deadline'])
    >>> [s.value for s in io_scheduler("ssd", "6").settings], [s.value for s in io_scheduler("ssd", "cloudberry-2")
    ...                                                        .settings]
    (['ssd', 'none', 'noop'], ['ssd', 'none', 'none'])
    """
    p = point(DOCS, f"{SCHEDULER_GUIDE[version]}_io_scheduler_{'other' if media == 'hdd' else media}")
    now, el7 = str(p.conditions["scheduler"]), str(p.conditions["scheduler_el7"])
    guide = "Greenplum 7" if version == "warehousepg-7" else release_name(version)
    why = (f"The data drives are {MEDIA_WORDS[media]}: the {guide} installation guide's I/O scheduler for them is"
           f" {now}" + (f" ({el7} on RHEL 7's single-queue kernels)" if el7 != now else "")
           + (" (WarehousePG 7 follows Greenplum 7's guide)" if version == "warehousepg-7" else "")
           + ". data-disks.sh sets it on every data device and a udev rule keeps it across reboots.")
    src = p.source.cite()
    return SettingGroup("linux-block", "data drives", (Setting("media", media, "", why, src),
                                                       Setting("scheduler", now, "", why, src),
                                                       Setting("scheduler_el7", el7, "", why, src)))


def for_release(result: SizingResult, workload: GreenplumAnalytics | GreenplumOltp,
                drive: Drive | None = None) -> SizingResult:
    """The design's settings in the dialect of the release it is configured for (Greenplum 6: as sized, but
    gp_vmem_protect_limit), with the OLTP settings of study 004 for a transactional workload and, on bare metal, the
    I/O scheduler of the data drives (`drive`)."""
    version = workload.greenplum_version
    shared = isinstance(workload, GreenplumOltp) and workload.coordinator_on_segment_host
    settings, why = greenplum_dialect(result.design.settings, version, shared)
    if drive is not None and result.design.deployment == "bare-metal":
        settings = (*settings, io_scheduler(drive.media, version))
    oltp = oltp_settings(workload.mix, version) if isinstance(workload, GreenplumOltp) else None
    if oltp is not None:  # into the cluster's gpconfig group, after the memory and connection settings
        settings = tuple(SettingGroup(g.product, g.target, (*g.settings, *oltp.settings))
                         if g.product == "greenplum" and g.target == "cluster" else g for g in settings)
        settings = _onto_coordinator(settings, oltp_coordinator_settings(version))
    design = dataclasses.replace(result.design, settings=settings, greenplum_version=version)
    return dataclasses.replace(result, design=design, rationale=result.rationale + ((why,) if why else ()))


UPDATING_MIXES = ("tpcb", "update")  # pgbench mixes whose transactions UPDATE rows (study 004)
OLTP_STUDY = "gp6_oltp_004"
GDD_SOURCE_7 = ("Apache Cloudberry 2 source, src/backend/utils/misc/guc_gp.c (gp_enable_global_deadlock_detector,"
                " default false, PGC_POSTMASTER)")


def oltp_settings(mix: str, version: str) -> SettingGroup | None:
    """Study 004's Greenplum 6 OLTP settings: global deadlock detection for mixes that update rows (off by default,
    also in Greenplum 7 and its forks), no statement logging, and (Greenplum 6 only, its PostgreSQL 9.4 base)
    checkpoint_segments 2.

    >>> [(s.name, s.value) for s in oltp_settings("update", "6").settings]
    [('gp_enable_global_deadlock_detector', True), ('log_statement', 'none'), ('checkpoint_segments', 2)]
    >>> [s.name for s in oltp_settings("select", "7").settings]
    ['log_statement']
    """
    cite = point(OLTP_STUDY, "gp_enable_global_deadlock_detector").source.cite()
    out: list[Setting] = []
    if mix in UPDATING_MIXES:
        why = (f"The {mix} mix updates rows from many clients at once: with the global deadlock detector off (the"
               " default) an UPDATE or DELETE locks the whole table and the clients run one at a time; on, rows are"
               " locked and distributed deadlocks detected. Takes effect after a restart.")
        out.append(Setting("gp_enable_global_deadlock_detector",
                           bool(figure(OLTP_STUDY, "gp_enable_global_deadlock_detector")), "", why,
                           cite if version == "6" else f"{cite}; {GDD_SOURCE_7}"))
    out.append(Setting("log_statement", "none", "", "No statement logging: at thousands of transactions per second the"
                       " log's writes interfere with the segments' I/O.", cite))
    if version == "6":
        ckpt = point(OLTP_STUDY, "checkpoint_segments")
        out.append(Setting("checkpoint_segments", int(ckpt.value), "",
                           "Checkpoints more often, each flushing less: the default 8 makes every flush a pause of the"
                           " whole cluster. Greenplum 6 refuses the value without gpconfig --skipvalidation.",
                           ckpt.source.cite()))
    return SettingGroup("greenplum", "cluster", tuple(out))


ORCA_DOC = {"6": "gp6_orca_short_query_regression", "7": "gp7_orca_short_query_regression",
            "warehousepg-7": "gp7_orca_short_query_regression",
            "cloudberry-2": "cloudberry2_orca_short_query_regression"}


def oltp_coordinator_settings(version: str) -> tuple[Setting, ...]:
    """What study 004 ran that the coordinator alone sets: the Postgres planner (optimizer off). The study's
    Greenplum 6 was built without GPORCA, so the TPS curves a design is scaled from were planned by the Postgres
    planner; every release since ships optimizer on, and its documentation lists short running queries and DML
    among GPORCA's performance regressions.

    >>> [(s.name, s.value) for s in oltp_coordinator_settings("7")]
    [('optimizer', False)]
    """
    study = point(OLTP_STUDY, "built_without_orca")
    why = ("The TPS this design is sized on is scaled from study 004, whose Greenplum 6 was built without GPORCA"
           " (configure --disable-orca): every statement was planned by the Postgres planner. The release's default,"
           " optimizer on, plans each statement with GPORCA, whose documentation lists short running queries and DML"
           " among its performance regressions. Off, the workload's statements are planned as in the study; a"
           " database or session that runs analytic queries can turn it back on (ALTER DATABASE name SET optimizer ="
           " on). A reload (gpstop -u) applies it.")
    return (Setting("optimizer", not bool(study.value), "", why,
                    f"{study.source.cite()}; {_cite(ORCA_DOC[version])}"),)


def _onto_coordinator(groups: tuple[SettingGroup, ...], extra: tuple[Setting, ...]) -> tuple[SettingGroup, ...]:
    """`extra` added to the coordinator's gpconfig group (after its own values), or as that group."""
    if not any(g.product == "greenplum" and g.target == "coordinator" for g in groups):
        return (*groups, SettingGroup("greenplum", "coordinator", extra))
    return tuple(SettingGroup(g.product, g.target, (*g.settings, *extra))
                 if g.product == "greenplum" and g.target == "coordinator" else g for g in groups)


def _cite(pid: str) -> str:
    return point(DOCS, pid).source.cite()


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

"""PostgreSQL databases consolidated on vSphere: VMs, hosts with HA, storage and each VM's configuration.

Databases -> VMs -> hosts come from `placement` (busiest-hour sums, NUMA, vSphere HA N+1), the I/O per
database from `storage`, the datastores' drives from `datastore`, the postgresql.conf values from `config`, the
memory state of the packed cluster from `state`; this module picks the cheapest server and drive that hold it
all and explains the result.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NoReturn

import numpy as np

from models.calibration_data import figure, point
from models.hardware import HardwareCatalog
from models.percent import percent
from models.perf import cost_power, memory
from models.problems import Problem
from models.scenario import PostgresConsolidation, Scenario
from models.sizing import bom, licence_rank
from models.sizing.parts import (
    NetworkChoice,
    ResolvedParts,
    SizingInputError,
    candidate_servers,
)
from models.sizing.postgres import throughput
from models.sizing.postgres import warnings as pg_warnings
from models.sizing.postgres.choice import (
    nic_of,
    vsan_sources,
    vsan_words,
)
from models.sizing.postgres.config import PgConfig, PgVmInputs, config_of, drive_kind
from models.sizing.postgres.datastore import (
    DS,
    GB_PER_TB,
    raid_write_penalty,
)
from models.sizing.postgres.limits import (
    CLUSTER_WORDS,
    below_working_sets,
    cluster_limit_source,
    larger_than_any_host,
    largest_working_set,
    physical_memory,
)
from models.sizing.postgres.placement import (
    HA_RESTARTS,
    PgVm,
    pinned,
    placed_vms,
    shared_split,
)
from models.sizing.postgres.search import DATABASE_HOST, Ask, cheapest, rank
from models.sizing.postgres.state import Overcommit, Packing, host_failure, overcommit
from models.sizing.postgres.tps_vcpus import clients_per_vcpu, host_cpu, model_rates
from models.sizing.result import (
    BomLine,
    Design,
    HostFailure,
    HostLayout,
    Rationale,
    SizingResult,
    Totals,
    VmLayout,
)
from models.sizing.rules import (
    DOCS,
    RULES,
    cite,
    raid_capacity_factor,
)
from models.sizing.shared_storage import ESA_SHORT, esa_devices_problem, esa_refusal, policy_factor, write_penalty
from models.uncertainty import Estimate
from models.vocabulary import KINDS, RAIDS, SHARE, SHARE_OF_BASELINE


def size_postgres(
    scenario: Scenario, w: PostgresConsolidation, catalog: HardwareCatalog, parts: ResolvedParts
) -> SizingResult:
    """The cheapest server and drive that hold the database VMs on hosts (with HA when asked) and their storage."""
    vsan = (w.shared_storage or ("vsan" if w.vsphere_ha else "local")) == "vsan"
    raid = f"vsan-{w.vsan_policy}" if vsan else (scenario.platform.raid or "raid10")
    if vsan and (few := esa_devices_problem(scenario.platform.drives_per_host, w.vsan_architecture, parts.drive)):
        raise SizingInputError([few])
    ask = Ask(scenario, w, catalog, parts, vsan, raid, figure(DOCS, "gp_capacity_max_fill"))
    found = cheapest(ask, candidate_servers(catalog, parts, scenario.platform.nics_per_host or 1))
    best, too_small = found.best, found.too_small
    if best is None and too_small and all(ESA_SHORT in t for t in too_small):
        raise SizingInputError([esa_refusal(too_small)])
    if best is None:
        _refuse(w, catalog, parts, scenario, too_small, vsan)
    physical = physical_memory(scenario, best.server)[1]
    if physical > best.available_gib:  # memory made available below the host's: NUMA nodes are the host's own
        s = best.server
        best = replace(best, hosts=pinned(best.hosts, s.numa_nodes, s.cores_per_numa_node, physical / s.numa_nodes))
    return _explain(scenario, catalog, w, best, nic_of(found.nets_of[best.server.id], best), best.raid or raid)


def _refuse(w: PostgresConsolidation, catalog: HardwareCatalog, parts: ResolvedParts, scenario: Scenario,
            too_small: list[str], vsan: bool) -> NoReturn:
    """No server and drive hold the VMs: the most telling reason (the stated host memory below the working sets, a
    database larger than any host, else the first servers' reasons with the cluster limit first)."""
    # the cluster limit first: it is the one a bigger server does not lift
    too_small.sort(key=lambda t: CLUSTER_WORDS[vsan] not in t)
    detail = "; ".join(too_small[:3])
    if CLUSTER_WORDS[vsan] in detail:
        detail += (f"; {cluster_limit_source(vsan)}: split the databases over several clusters (one scenario"
                   " each)")
    stated = w.host_memory_available_gib
    resident, configured = largest_working_set(w, catalog, parts)
    if stated is not None and stated < resident:
        raise SizingInputError([below_working_sets(stated, resident, configured)])
    oversized = larger_than_any_host(scenario, w, catalog, parts)
    if oversized:
        raise SizingInputError(oversized)
    raise SizingInputError([Problem(
        "workload.databases",
        "no server and drive in the catalog hold the database VMs (each VM within the host's memory and cores)"
        " with drives for their data, WAL and IOPS" + (f" ({detail})" if detail else ""),
    )])


def _configs(p: Packing, w: PostgresConsolidation, overcommitted: list[bool], external: bool) -> list[PgConfig]:
    """Each VM's postgresql.conf; the planner's storage is the datastore the design builds (`external`: the stated
    platform.datastore_iops of an array), on vSAN the capacity disks holding a VM disk's copies."""
    kind = drive_kind(p.drive)
    datastore = "san" if external else "vsan" if p.vsan is not None else "local"
    drives = round(policy_factor(p.vsan.policy)) if p.vsan is not None else p.drives_per_host
    out = []
    alike: dict[tuple[object, ...], PgConfig] = {}
    for hi, host in enumerate(p.hosts):
        for vm in host.vms:
            out.append(config_of(PgVmInputs(
                vm.name, vm.memory_gib, vm.vcpus, vm.clients_at_once, len(vm.databases) == 1, overcommitted[hi],
                kind, drives, sum(io.wal_mb_per_checkpoint for io in vm.io),
                w.shared_buffers_policy == "conventional", w.postgres_version, datastore,
            ), alike))
    return out


def _storage_rationale(w: PostgresConsolidation, p: Packing, raid: str) -> Rationale:
    """Where the DATA and WAL disks live (one vSAN datastore or each host's local RAID), the write penalty the
    I/O is sized at, and which databases' transaction rates are estimated rather than given."""
    drive, lay = p.drive, p.vsan
    all_vms = [vm for h in p.hosts for vm in h.vms]
    est = {io.name for vm in all_vms for io in vm.io if io.tps_estimated}
    estimated = [d.name for d in w.databases if d.name in est]  # the scenario's order
    named = pg_warnings.some_of(estimated, len(w.databases))
    if lay is not None:
        penalty = write_penalty(lay.policy)
        where = vsan_words(lay, len(p.hosts))
    else:
        penalty = raid_write_penalty(raid)
        where = f"each host's local {raid} datastore of {p.drives_per_host} x {drive.capacity_tb:g} TB {drive.model}"
        if raid == "raid1" and p.drives_per_host == RAIDS["raid1"].min_drives:
            where += (" (one mirrored pair, RAID 10's two-drive form: the same write penalty and half the raw capacity"
                      " usable; two drives hold the disks and serve the busiest hour, so no more are bought)")
    return Rationale(
        "Storage",
        f"Each VM gets a DATA and a WAL virtual disk (study 001 best practice) on {where}: capacity for every"
        f" database at the {percent(figure(DOCS, 'gp_capacity_max_fill'))} fill limit plus 2x max_wal_size of WAL, and"
        " IOPS for the busiest hour (data pages written back once per checkpoint at most, one WAL flush per"
        f" commit, write penalty {penalty:g}) at most {percent(figure(DS, 'storage_busy_max'))} busy."
        + (f" Transactions for {named} are estimated at what their clients drive by the throughput model on the"
           f" {p.server.cpu.vendor} {p.server.cpu.model}: the median CPU rate of the vCPUs the clients take at"
           f" {clients_per_vcpu():g} per vCPU (study 001's zero-think-time clients), about"
           f" {model_rates(p.server)[0]:,.0f} per client per second, at most what the VM's vCPUs carry; the same rate"
           " a stated peak is sized on. State each database's peak throughput (TPS) for a tighter design."
           if estimated else ""),
        "001_8432df66bbca52f5.txt, Performance Best Practices; "
        + (f"{vsan_sources(lay)}; " if lay is not None else "")
        + f"{point(DS, 'raid_write_penalty_mirror').source.cite()}"
        + (f"; {point('pg_tps_model', 'notpm_per_pcpu').source.cite()}" if estimated else ""),
    )


def _rationale(
    w: PostgresConsolidation, p: Packing, first_cfg: PgConfig, oc: Overcommit, raid: str, hf: HostFailure,
    confidence: str,
) -> list[Rationale]:
    """Why shared_buffers, the VMs, the busy-hour sums, the hosts with their HA reserve, and the storage."""
    all_vms = [vm for h in p.hosts for vm in h.vms]
    sum_peaks = sum(h.sum_of_peaks_gib for h in p.hosts)
    busiest = sum(h.resident_peak_gib for h in p.hosts)
    return [
        Rationale("shared_buffers", first_cfg.get("shared_buffers").reason, first_cfg.get("shared_buffers").source),
        Rationale(
            "Database VMs",
            f"{len(all_vms)} VM(s) ({w.placement}) for {len(w.databases)} database(s); vCPUs cover the clients"
            f" connected at once at {clients_per_vcpu():g} clients per vCPU, and a stated peak TPS at"
            f" {confidence} on the {p.server.cpu.model}'s cores (the throughput model's CPU rate); memory is sized so"
            f" {percent(figure(DS, 'effective_cache_size_ratio'))} of it (PGTune's effective_cache_size share) holds"
            " the working sets"
            f" plus the per-client memory, and grown (within a NUMA node) until each client has a connection at the"
            f" {figure(DS, 'work_mem_min_mb'):g} MB work_mem floor, so a pooler is asked for only where even that"
            " cannot hold them. VMs are pinned to one NUMA node where their vCPUs and memory fit one."
            + _split_text(w, p, confidence),
            f"{cite(RULES, 'pg_clients_per_vcpu')}; {point(DS, 'effective_cache_size_ratio').source.cite()};"
            f" {point(DS, 'work_mem_min_mb').source.cite()}; 001_8432df66bbca52f5.txt, Working set sizes",
        ),
        Rationale(
            "Busy hours",
            f"CPU and memory are sized on the busiest hour: the highest hourly sum of resident memory is"
            f" {busiest:,.0f} GiB against {sum_peaks:,.0f} GiB for the sum of the peaks (databases outside their busy"
            " hours run at the off-peak share, study 001's 2 of 30 clients unless given).",
            "001_8432df66bbca52f5.txt, Table 2 (complementary traffic streams)",
        ),
        Rationale(
            "Hosts and overcommit",
            f"{len(p.hosts)} host(s) of {p.server.model}"
            + (f", vSphere HA admission control reserving room for {w.ha_host_failures} host failure(s)"
               if w.vsphere_ha else ", no vSphere HA reserve (opted out)")
            + f". Memory overcommit (Equation 1: 1 - available / configured) is {percent(oc.rate)} on the busiest"
            f" host; the working sets allow up to {percent(oc.safe[oc.worst])}. " + _failure_text(hf),
            f"{point(DS, 'ha_min_hosts').source.cite()}; {HA_RESTARTS};"
            " 001_8432df66bbca52f5.txt, Equation 1",
        ),
        _storage_rationale(w, p, raid),
    ]


def _failure_text(hf: HostFailure) -> str:
    """The worst single-host failure in words, as simulated: where HA restarted the VMs, the survivors'
    overcommit and throughput, and the VMs that cannot restart."""
    moved = [(s, n) for s in hf.survivors for n in s.restarted]
    text = f"Every single-host failure was simulated; the worst is host {hf.failed_host}'s"
    if moved:
        onto = "; ".join(f"{n} on host {s.host}" for s, n in moved[:6]) + (" ..." if len(moved) > 6 else "")
        text += (f": vSphere HA restarts {onto} (each VM, largest working set first, on the survivor with the most"
                 " memory left unconfigured where its working set fits hour by hour)")
    hot = max(hf.survivors, key=lambda s: (s.overcommit_rate, -s.host), default=None)
    if hot is not None:
        text += (f"; the busiest survivor, host {hot.host}, then runs at {percent(hot.overcommit_rate)} overcommit"
                 f" (its working sets allow {percent(hot.safe_overcommit_rate)}) and the cluster keeps"
                 f" {percent(hf.performance_preserved)} of baseline throughput until the host is back")
    if hf.not_restarted:
        text += (f"; {len(hf.not_restarted)} VM(s) cannot restart ({', '.join(hf.not_restarted[:5])}"
                 f"{' ...' if len(hf.not_restarted) > 5 else ''}): {hf.why_not}")
    return text + "."


def _split_text(w: PostgresConsolidation, p: Packing, confidence: str) -> str:
    split = shared_split(w, [vm for h in p.hosts for vm in h.vms], p.server.cores_per_numa_node,
                         p.available_gib / p.server.numa_nodes, host_cpu(p.server, confidence))
    return f" {split}" if split else ""


def _overcommit_kept(w: PostgresConsolidation, oc: Overcommit, kept: float) -> Rationale:
    """The throughput study 001's curve keeps at the overcommit the design runs (host memory below the VMs'
    configured memory is a valid input: Equation 1 reports it, the working sets bound it)."""
    scheme = "one VM per database" if w.placement == "vm-per-database" else "databases sharing a VM"
    return Rationale(
        "Throughput under overcommit",
        f"The VMs are configured with more memory than the host makes available ({percent(oc.rate)} overcommit on"
        f" the busiest host, within the {percent(oc.safe[oc.worst])} its working sets allow): study 001 ran its"
        f" database VMs exactly so, and its curve for {scheme} keeps about {percent(kept)} of the throughput"
        f" without overcommit (the schemes part from {percent(figure(memory.DATASET, 'oc_divergence_rate'))} on;"
        f" up to {percent(figure(memory.DATASET, 'ws_safe_overcommit_rate'))} the working sets stayed covered).",
        f"{point(memory.DATASET, 'oc_divergence_rate').source.cite()};"
        f" {point(memory.DATASET, 'ws_safe_overcommit_rate').source.cite()}; 001_8432df66bbca52f5.txt, Equation 1",
    )


def _performance(w: PostgresConsolidation, p: Packing, by_vm: dict[str, PgConfig],
                 oc: Overcommit) -> tuple[dict[str, Estimate], float]:
    """The estimates (overcommit on the busiest host, and the throughput study 001's scheme keeps for the VM that
    keeps least: each VM at its own shared_buffers ratio and its host's overcommit) and the first VM's ratio, which
    the design reports next to that VM's shape and shared_buffers."""
    scheme: memory.Scheme = "vm-per-database" if w.placement == "vm-per-database" else "shared-instance"

    def ratio(vm: PgVm) -> float:
        return float(by_vm[vm.name].get("shared_buffers").value) / (vm.memory_gib * 1024.0)

    # one array call: arithmetic, interpolation and clipping give each VM the bits a scalar call does (test_memory)
    rates, ratios = np.array([(min(rate, 0.999), ratio(vm)) for h, rate in zip(p.hosts, oc.rates, strict=True)
                              for vm in h.vms]).T
    preserved = float(np.min(memory.performance_preserved(rates, scheme, ratios)))
    return {
        "overcommit_rate": Estimate.exact(oc.rate, SHARE),
        "performance_preserved": Estimate.exact(preserved, SHARE_OF_BASELINE),
    }, round(ratio(_first_vm(p)), 2)


def _first_vm(p: Packing) -> PgVm:
    """The VM the design's single-VM fields describe: the first one placed."""
    return next(vm for h in p.hosts for vm in h.vms)


def _capacity_drives(p: Packing) -> int:
    """Data drives per host as layouts and the design count them: vSAN cache devices are their own BOM line."""
    return p.vsan.capacity_per_host if p.vsan is not None else p.drives_per_host


def _host_layouts(p: Packing, host_mem: float, raid: str, net: NetworkChoice) -> tuple[HostLayout, ...]:
    """One layout per database host with its VMs, their NUMA node and databases."""
    server = p.server
    layouts = []
    for hi, h in enumerate(p.hosts):
        vm_layouts = tuple(
            VmLayout(n, vm.vcpus, vm.memory_gib, 0, databases=tuple(d.name for d in vm.databases))
            for vm, n in zip(h.vms, h.numa_nodes, strict=True)
        )
        layouts.append(HostLayout(
            f"{DATABASE_HOST} {hi + 1}", 1, server.id, server.sockets, server.numa_nodes_per_socket,
            server.cores_per_numa_node, host_mem, _capacity_drives(p), p.drive.id, raid, vm_layouts, net.ports,
            net.nic.speed_gbps if net.nic else 0.0, priced_as=DATABASE_HOST,
        ))
    return tuple(layouts)


def _design(w: PostgresConsolidation, p: Packing, net: NetworkChoice, raid: str, host_mem: float,
            oc: Overcommit, configs: list[PgConfig], first_ratio: float) -> Design:
    """The design as the result reports it: parts, counts, capacity, the first VM's shape and its settings."""
    if p.vsan is not None:
        raw_tb, usable_tb = p.vsan.raw_tb, p.vsan.usable_tb
    else:
        raw_tb = len(p.hosts) * p.drives_per_host * p.drive.capacity_tb
        usable_tb = raw_tb * float(raid_capacity_factor(raid, p.drives_per_host))
    first = _first_vm(p)
    first_sb = {c.group.target: c for c in configs}[first.name].get("shared_buffers")
    return Design(
        kind=w.kind, deployment="vsphere", server_id=p.server.id, drive_id=p.drive.id,
        nic_id=net.nic.id if net.nic else None, segment_hosts=len(p.hosts), data_drives_per_host=_capacity_drives(p),
        raid=raid, memory_gib_per_host=host_mem,
        vms_per_host=max(len(h.vms) for h in p.hosts), vm=VmLayout(None, first.vcpus, first.memory_gib, 0),
        nics_per_host=net.nics_per_host, network_gbps_per_host=net.gbps_per_host,
        shared_buffers_ratio=first_ratio,
        shared_buffers_gib=round(float(first_sb.value) / 1024.0, 2),
        overcommit_rate=round(oc.rate, 4), safe_overcommit_rate=round(oc.safe[oc.worst], 4),
        hosts=_host_layouts(p, host_mem, raid, net),
        raw_capacity_tb=round(raw_tb, 3), usable_capacity_tb=round(usable_tb, 3),
        data_needed_tb=round(sum(s.capacity_gb for s in p.storage) / GB_PER_TB, 3),
        settings=tuple(c.group for c in configs),
    )


def _bom(scenario: Scenario, p: Packing, net: NetworkChoice) -> tuple[list[BomLine], Totals]:
    """The database hosts' BOM lines (vSAN cache devices as their own line) and the totals with their power."""
    server, drive = p.server, p.drive
    lines = bom.host_lines(DATABASE_HOST, len(p.hosts), bom.HostBuild(server, drive, _capacity_drives(p), net.nic,
                                                                      net.nics_per_host))
    if p.vsan is not None and p.vsan.disk_groups_per_host:  # OSA's cache devices; ESA has no cache tier
        lines.insert(2, bom.line(DATABASE_HOST, p.vsan.cache_drive, p.vsan.disk_groups_per_host, len(p.hosts),
                                 "drive"))
    power = len(p.hosts) * float(cost_power.host_power_w(
        server.idle_w, server.max_w, scenario.assumptions.utilization_pct / 100.0, p.drives_per_host,
        drive.watts, net.nics_per_host, net.nic.watts if net.nic else 0.0,
    ))
    return lines, bom.totals(lines, power, len(p.hosts) * server.rack_u, scenario)


def _explain(
    scenario: Scenario,
    catalog: HardwareCatalog,
    w: PostgresConsolidation,
    p: Packing,
    nic_why: Rationale | None,
    raid: str,
) -> SizingResult:
    """The result of the chosen packing: design, estimates, BOM, rationale and warnings."""
    net = p.net
    host_mem = float(scenario.platform.memory_gib or p.server.memory_gib)
    oc = overcommit(p)
    configs = _configs(p, w, [r > 0 for r in oc.rates], scenario.platform.datastore_iops is not None)
    by_vm = {c.group.target: c for c in configs}
    estimates, first_ratio = _performance(w, p, by_vm, oc)
    tps = throughput.vm_throughput(scenario, p)
    estimates["tps"] = throughput.total(tps)
    hf = host_failure(w, p, by_vm)
    rationale = _rationale(w, p, by_vm[_first_vm(p).name], oc, raid, hf, scenario.targets.confidence)
    if oc.rate > 0:
        rationale.insert(4, _overcommit_kept(w, oc, estimates["performance_preserved"].p50))
    rationale.append(licence_rank.rationale(scenario, p.server, "holds the VMs with the vCPUs they need"
                                            if rank(scenario, catalog, p)[0] == 0 else
                                            "leaves the VMs short by the fewest vCPUs"))
    if nic_why:
        rationale.append(nic_why)
    lines, totals = _bom(scenario, p, net)
    return SizingResult(
        scenario_name=scenario.name,
        design=replace(_design(w, p, net, raid, host_mem, oc, configs, first_ratio), host_failure=hf,
                       vsan_architecture=p.vsan.architecture if p.vsan is not None else None),
        estimates=estimates, binding_resource="memory",
        bom=tuple(lines), totals=totals, rationale=tuple(rationale),
        warnings=tuple(pg_warnings.warnings(w, p, oc, raid, configs, hf, estimates["performance_preserved"].p50)
                       + throughput.short_warnings(p, tps, scenario.targets.confidence)),
        main_metric=KINDS[w.kind].main_metric,
        vms=throughput.with_tps(placed_vms(p.hosts), p, tps,
                                lambda v: v.memory_gib if by_vm[v.name].reserve_memory else 0.0),
    )

"""SAP IQ multiplex: node roles, shared storage that survives a failure, DQP mode and caches (study 003).

* Main and temp dbspaces are sized once (data at the horizon after compression, temp at study
  003's 1:1 unless given) and that one figure drives both the node count and the drive count.
* Shared storage: vSAN disk groups under a storage policy (`shared_storage`), or an external SAN
  as a BOM line; a multiplex never runs on local disks.
* Each node is one VM (vSphere) with the share of the host's cores study 003 gave its VMs
  (14 vCPU of 16 cores); the performance model scales on those vCPUs times a per-core speed
  factor (base clock / the study's 2.9 GHz).
* Roles: one coordinator, writers (1 by default from 3 nodes), the rest readers.
"""

from __future__ import annotations

import dataclasses
from typing import NoReturn

import numpy as np

from models.calibration_data import figure, point
from models.hardware import Drive, HardwareCatalog, Server
from models.percent import percent
from models.perf import cost_power, sap_iq
from models.problems import Problem
from models.scenario import SapIqMultiplex, Scenario
from models.sizing import bom, licence_rank
from models.sizing.infrastructure import HostGroup
from models.sizing.parts import (
    NetworkChoice,
    ResolvedParts,
    SizingInputError,
    candidate_drives,
    candidate_servers,
    choose_nic,
    nics_per_host,
)
from models.sizing.result import (
    Design,
    HostLayout,
    IqMultiplex,
    Rationale,
    SizingResult,
    VmLayout,
)
from models.sizing.rules import data_needed_tb
from models.sizing.sap_iq import caches as sap_iq_caches
from models.sizing.sap_iq import failure as sap_iq_failure
from models.sizing.sap_iq import rules as sap_iq_rules
from models.sizing.sap_iq import streams as sap_iq_streams
from models.sizing.sap_iq import warnings as sap_iq_warnings
from models.sizing.sap_iq.node import (
    STUDY,
    IqOption,
    Node,
    cpu_doublings,
    hypervisor_reserve,
    node_shape,
    node_vcpus,
    speed_factor,
    vcpu_share,
)
from models.sizing.sap_iq.start import start_parameters
from models.sizing.sap_iq.storage import (
    IQ_NODE,
    SharedStorage,
    cache_choices,
    carries_vsan,
    esa_floor,
    network_floor,
    san_storage,
    vsan_storage,
)
from models.sizing.settings import Setting, SettingGroup
from models.sizing.shared_storage import (
    ESA_SHORT,
    VsanLayout,
    esa_devices_problem,
    esa_host_short,
    esa_refusal,
    fewest_hosts,
    is_flash,
    layout_for,
    san_usable_tb,
    vsan_architectures,
    vsan_max_hosts,
)
from models.sizing.software import Licensing

VS = "vsan_storage"
MIB_PER_GIB = 1024
MAX_NODES = 128  # the tool's bound on a multiplex (workload.nodes' limit): answers stay bounded


def _cite(pid: str, ds: str = STUDY) -> str:
    return point(ds, pid).source.cite()


def _need_tb(w: SapIqMultiplex) -> float:
    return data_needed_tb(w.data_tb, w.growth_pct_per_year, w.horizon_years, w.compression_ratio)


def _temp_ratio(w: SapIqMultiplex) -> float:
    return w.temp_to_main_ratio if w.temp_to_main_ratio is not None else figure(STUDY, "temp_to_main_dbspace_ratio")


def _check_memory(scenario: Scenario) -> None:
    """platform.memory_gib must leave the IQ node memory after the hypervisor reserve (vSphere)."""
    mem = scenario.platform.memory_gib
    if mem is None or scenario.platform.deployment != "vsphere":
        return
    reserve = hypervisor_reserve(scenario, mem)
    if mem <= reserve:
        raise SizingInputError([Problem(
            "platform.memory_gib",
            f"{mem} GiB leaves no memory for the SAP IQ VM after the {reserve:g} GiB hypervisor reserve;"
            f" give more than {reserve:g} GiB (got {mem})",
        )])


def _storage_kind(scenario: Scenario, w: SapIqMultiplex) -> str:
    return w.shared_storage or ("vsan" if scenario.platform.deployment == "vsphere" else "san")


def node_limit(storage: str) -> int:
    """The most nodes a multiplex on `storage` can have: one vSAN cluster's hosts, else the tool's bound.

    >>> node_limit("vsan"), node_limit("san")
    (64, 128)
    """
    return vsan_max_hosts() if storage == "vsan" else MAX_NODES


def _open_architectures(scenario: Scenario, w: SapIqMultiplex, parts: ResolvedParts) -> tuple[str, ...]:
    """The vSAN architectures the named parts leave open: ESA takes an NVMe drive and a server at its minimums,
    OSA a SAS/SATA drive (OSA when nothing is left, for the host count the refusal names)."""
    archs: tuple[str, ...] = (w.vsan_architecture,) if w.vsan_architecture else ("osa", "esa")
    if parts.drive is not None:
        archs = tuple(a for a in archs if (a == "esa") == parts.drive.interface.startswith("NVMe"))
    if parts.server is not None:
        memory = float(scenario.platform.memory_gib or parts.server.memory_gib)
        archs = tuple(a for a in archs if a in vsan_architectures(None, parts.server.cores_total, memory))
    return archs or ("osa",)


def _check_inputs(scenario: Scenario, w: SapIqMultiplex, storage: str, parts: ResolvedParts) -> None:
    problems: list[Problem] = []
    least = fewest_hosts(w.vsan_policy, _open_architectures(scenario, w, parts))
    few = esa_devices_problem(scenario.platform.drives_per_host, w.vsan_architecture, parts.drive)
    if storage == "vsan" and few is not None:
        problems.append(few)
    if w.nodes is not None and w.nodes > node_limit(storage):
        problems.append(Problem("workload.nodes", f"{w.nodes} nodes exceed the {node_limit(storage)} hosts of one vSAN"
                                f" cluster ({_cite('vsan_max_hosts_per_cluster', VS)}); give at most"
                                f" {node_limit(storage)}, or shared_storage 'san'"))
    if storage == "vsan" and w.nodes is not None and w.nodes < least:
        problems.append(Problem("workload.nodes", f"{w.nodes} is below the {least} hosts the vSAN policy"
                                f" {w.vsan_policy} needs to survive a host failure; give at least {least}, another"
                                " vsan_policy, or shared_storage 'san'"))
    if w.nodes is not None and w.writer_nodes is not None and w.writer_nodes > w.nodes - 1:
        problems.append(Problem("workload.writer_nodes", f"{w.writer_nodes} writers need at least"
                                f" {w.writer_nodes + 1} nodes (one is the coordinator); nodes is {w.nodes}"))
    if problems:
        raise SizingInputError(problems)


def size_sap_iq(
    scenario: Scenario, workload: SapIqMultiplex, catalog: HardwareCatalog, parts: ResolvedParts
) -> SizingResult:
    _check_memory(scenario)
    storage = _storage_kind(scenario, workload)
    _check_inputs(scenario, workload, storage, parts)
    vsphere = scenario.platform.deployment == "vsphere"
    nic, nic_why = choose_nic(catalog, parts)
    net = NetworkChoice(nic, nics_per_host(nic, scenario.platform.nics_per_host))
    main_tb = _need_tb(workload)
    stored_tb = main_tb * (1.0 + _temp_ratio(workload))
    options: list[IqOption] = []
    too_small: list[str] = []  # servers below vSAN ESA's minimums where only ESA was asked for
    slow: list[tuple[float, str, str]] = []  # the network floors of layouts the chosen card is too slow for
    limit = node_limit(storage)
    for server in candidate_servers(catalog, parts, net.nics_per_host):
        eff = node_vcpus(server, vsphere) * speed_factor(server)
        conc = sap_iq_rules.recommend_nodes(main_tb, workload.query_streams, cores_per_node=eff, vsan=False).nodes
        # beyond the node limit, or the nodes refarch grows a multiplex to for its streams, the streams cannot keep
        # their share: size at the cap and say what it achieves (bounded); a stated node count is kept; nodes whose
        # temp caches hold the floor of what the streams need are added past the cap (else the design is refused)
        cache_floor = sap_iq_caches.floor_nodes(node_shape(scenario, server), workload.query_streams)
        needed = workload.nodes or max(conc, cache_floor)
        floor_nodes = workload.nodes or min(max(min(needed, sap_iq_streams.node_cap()), cache_floor), limit)
        if storage == "san":
            san_tb = san_usable_tb(stored_tb)
            price = workload.san_price_per_tb or 0.0
            options.append(IqOption(floor_nodes * (server.price + net.price_per_host) + san_tb * price, server,
                                    floor_nodes, None, san_tb, needed, floor_nodes * eff))
            continue
        archs = _host_architectures(scenario, workload, server, net)
        if not archs:
            _shut_out(scenario, server, too_small, slow)
            continue
        flash = [d for d in catalog.drives if server.accepts(d) and is_flash(d)]
        # the drives asked for per host, else as many as the policy's stripe width spreads a replica over
        capacity_floor = scenario.platform.drives_per_host or int(figure(STUDY, "vsan_stripe_width"))
        capacity = [parts.drive] if parts.drive else candidate_drives(catalog, parts, server)
        start = max(floor_nodes, fewest_hosts(workload.vsan_policy, archs))
        hosts = range(start, (start if workload.nodes is not None else limit) + 1)
        for drive in capacity:
            lay = _first_layout(workload, server, drive, cache_choices(flash, drive), hosts, (stored_tb,
                                                                                              capacity_floor), archs)
            if lay is None:
                continue
            if not carries_vsan(lay, net):  # the card was chosen before the layout: the layout must run on it
                slow.append(network_floor(lay))
                continue
            per_host = lay.capacity_per_host * drive.price + lay.disk_groups_per_host * lay.cache_drive.price
            options.append(IqOption(lay.hosts * (server.price + per_host + net.price_per_host), server,
                                    lay.hosts, lay, 0.0, needed, lay.hosts * eff))
    if not options:
        _refuse_slow(parts, net, slow)
        _refuse(workload, storage, too_small, limit)
    best = min((dataclasses.replace(o, cost=licence_rank.ranked_cost(
        Licensing(scenario, catalog, round(stored_tb, 3), vsan=o.vsan is not None),
        HostGroup(IQ_NODE, o.server, o.nodes, 0.0, 0, 0.0), o.capex, o.nodes if vsphere else 0)) for o in options),
        key=IqOption.rank)
    return _explain(scenario, workload, best, storage, main_tb, stored_tb, net, nic_why)


def _shut_out(scenario: Scenario, server: Server, too_small: list[str], slow: list[tuple[float, str, str]]) -> None:
    """Why `server`, with only ESA asked for, takes no layout: below ESA's host minimums (`too_small`), else its card,
    chosen before the layout, below ESA's network (`slow`)."""
    short = esa_host_short(server.cores_total, float(scenario.platform.memory_gib or server.memory_gib))
    if short:
        too_small.append(f"{server.id}: {ESA_SHORT} ({short})")
    else:
        slow.append(esa_floor())


def _first_layout(w: SapIqMultiplex, server: Server, drive: Drive, cache: list[Drive], hosts: range,
                  need: tuple[float, int], archs: tuple[str, ...]) -> VsanLayout | None:
    """The layout of `drive` on the fewest of `hosts` that holds the dbspaces (`need`: stored TB, the capacity drives
    asked for per host), or None where the server does not take the drive or no host count does."""
    if not server.accepts(drive):
        return None
    for n in hosts:
        lay = layout_for(need[0], w.vsan_policy, n, drive, cache, server.data_bays, need[1], archs)
        if lay is not None:
            return lay
    return None


def _refuse_slow(parts: ResolvedParts, net: NetworkChoice, slow: list[tuple[float, str, str]]) -> None:
    """Refuses a design whose only layouts need a faster network than the card chosen (`slow`: their floors, as
    `network_floor` gives them); nothing when none does."""
    if not slow:
        return
    floor, pid, what = min(slow, key=lambda t: t[0])
    card = f"the {net.nic.speed_gbps:g} GbE {net.nic.model}" if net.nic else "no network card"
    field = "platform.nic_id" if parts.nic else "catalog"
    fix = ("name a card of at least" if parts.nic else "add a card of at least") + f" {floor:g} GbE"
    other = ", vsan_architecture 'osa'" if pid == "vsan_esa_min_gbps" else ""
    raise SizingInputError([Problem(field, f"{card} is below the {floor:g} GbE per host {what} datastore needs"
                                           f" ({_cite(pid, VS)}), the least of the vSAN layouts the servers take;"
                                           f" {fix}{other}, or shared_storage 'san'")])


def _host_architectures(scenario: Scenario, w: SapIqMultiplex, server: Server, net: NetworkChoice) -> tuple[str, ...]:
    """The vSAN architectures `server`'s hosts may take with the card chosen (ESA: core, memory, 25 GbE minimums)."""
    return vsan_architectures(w.vsan_architecture, server.cores_total,
                              float(scenario.platform.memory_gib or server.memory_gib),
                              net.nic.speed_gbps if net.nic else 0.0)


def _refuse(w: SapIqMultiplex, storage: str, too_small: list[str], limit: int) -> NoReturn:
    """No server and drive hold the dbspaces: ESA asked for on servers below its minimums names the architecture;
    else the platform, with the layouts tried."""
    if too_small and w.vsan_architecture == "esa":
        raise SizingInputError([esa_refusal(too_small)])
    what = ("no server and drive in the catalog hold the main and temp dbspaces in vSAN OSA disk groups (1 flash"
            " cache device and up to 7 SAS/SATA capacity drives per group, up to 5 groups per host) or an ESA"
            " storage pool of NVMe devices within their bays" if storage == "vsan" else "no server in the catalog")
    raise SizingInputError([Problem("platform", what + (f" on {w.nodes} nodes" if w.nodes
                                                        else f" on up to {limit} nodes"))])


def _roles(w: SapIqMultiplex, nodes: int) -> tuple[int, int, int]:
    writers = w.writer_nodes if w.writer_nodes is not None else (1 if nodes >= 3 else 0)
    writers = min(writers, nodes - 1)
    return 1, writers, nodes - 1 - writers


def _cache_settings(node_memory_gib: float) -> tuple[sap_iq_rules.CacheSplit, SettingGroup]:
    """The IQ main, temporary and large-memory caches of every node (the split `sap_iq_rules.cache_split` decides)."""
    caches = sap_iq_rules.cache_split(node_memory_gib)
    return caches, SettingGroup("sap-iq-server", "all nodes", (
        Setting("iqmc", int(round(float(caches.main_cache_gib), 1) * MIB_PER_GIB), "MB",
                f"IQ main cache. {caches.reason}", caches.source),
        Setting("iqtc", int(round(float(caches.temp_cache_gib), 1) * MIB_PER_GIB), "MB",
                f"IQ temporary cache. {caches.reason}", caches.source),
        Setting("iqlm", int(round(figure(STUDY, "iq_memory_share_of_ram") * node_memory_gib
                                  * figure(STUDY, "iq_cache_fraction_large_memory"), 1) * MIB_PER_GIB), "MB",
                f"IQ large memory. {caches.reason}", caches.source),
    ))


def _rationale(w: SapIqMultiplex, server: Server, nodes: int, node: Node, choice: sap_iq_rules.DqpChoice,
               main_tb: float, stored_tb: float) -> list[Rationale]:
    """Why the DQP mode, the dbspace sizes, and the node count with its roles and per-core speed."""
    _, writers, readers = _roles(w, nodes)
    node_desc = (f"is a VM with {node.vcpus} vCPUs ({percent(vcpu_share())} of the host cores, as study 003 gave its"
                 " VMs)"
                 if node.vsphere else f"runs on {node.vcpus} cores")
    return [
        Rationale("DQP mode", choice.reason, choice.source),
        Rationale(
            "Dbspaces",
            f"Main store {main_tb:,.2f} TB (data at the horizon after compression) and temp"
            f" {main_tb * _temp_ratio(w):,.2f} TB"
            f" (temp:main {_temp_ratio(w):g}:1"
            + (", as given" if w.temp_to_main_ratio is not None else ", study 003's layout: SAP states no fixed ratio,"
               f" \"{point(STUDY, 'temp_store_size_vendor_rule').source.quote}\" Give the ratio your queries need")
            + f") = {stored_tb:,.2f} TB of shared dbspaces, sized once for the node"
            " count and the drive count. IQ_SYSTEM_MAIN/IQ_USER_MAIN and IQ_SHARED_TEMP are shared by every node;"
            " IQ_SYSTEM_TEMP is local to each.",
            f"{_cite('temp_to_main_dbspace_ratio')}; {_cite('dbspace_vmdks_total')};"
            f" {_cite('temp_store_size_vendor_rule')}",
        ),
        Rationale(
            "Multiplex nodes",
            f"{nodes} node(s): 1 coordinator (also runs queries, DQP leader), {writers} writer(s), {readers}"
            f" reader(s). Each node {node_desc} at {server.cpu.base_ghz:g} GHz:"
            f" {node.speed:.2f} x the study's per-core speed (base clock; newer cores do more per clock, so this is"
            f" conservative) = {node.eff:,.1f} study-equivalent cores per node against"
            f" {int(figure(STUDY, 'vm_vcpus'))} in the study.",
            f"{_cite('vm_vcpus')}; {_cite('cpu_base_ghz')}",
        ),
    ]


def _caches_rationale(w: SapIqMultiplex, nodes: int, caches: sap_iq_rules.CacheSplit, main_tb: float,
                      pred: sap_iq.IqPrediction) -> Rationale:
    """Why the caches, and what they hold of what the data and the streams need."""
    why = sap_iq_caches.explain(w, nodes, caches, main_tb, pred, sap_iq_caches.assumed())
    return Rationale("IQ caches", f"{caches.reason} {why}",
                     f"{caches.source}; {_cite('cache_miss_slowdown_main')}; {_cite('temp_cache_floor_share')};"
                     f" {_cite('hash_thrashing_percent_default')}")


def _design(scenario: Scenario, w: SapIqMultiplex, o: IqOption, node: Node, st: SharedStorage,
            net: NetworkChoice, choice: sap_iq_rules.DqpChoice, caches: sap_iq_rules.CacheSplit) -> Design:
    """The design as the result reports it: one layout per role (coordinator, writers, readers), one VM each (the
    caller adds its settings and the dbspace size)."""
    server, nodes = o.server, o.nodes
    coord, writers, readers = _roles(w, nodes)
    numa = None if node.vcpus > server.cores_per_numa_node else 0
    vm = VmLayout(numa, node.vcpus, node.memory_gib, st.drives_per_node)
    layouts = tuple(
        HostLayout(role, count, server.id, server.sockets, server.numa_nodes_per_socket, server.cores_per_numa_node,
                   node.host_memory_gib, st.drives_per_node, st.drive_id, st.raid, (vm,), net.ports,
                   net.nic.speed_gbps if net.nic else 0.0, priced_as=IQ_NODE)
        for role, count in (("IQ coordinator", coord), ("IQ writer", writers), ("IQ reader", readers)) if count
    )
    return Design(
        kind=w.kind, deployment=scenario.platform.deployment, server_id=server.id, drive_id=st.drive_id,
        nic_id=net.nic.id if net.nic else None, segment_hosts=nodes, data_drives_per_host=st.drives_per_node,
        raid=st.raid, memory_gib_per_host=node.host_memory_gib, vms_per_host=1 if node.vsphere else 0,
        vm=vm if node.vsphere else None, raw_capacity_tb=round(st.raw_tb, 3), usable_capacity_tb=round(st.usable_tb, 3),
        nics_per_host=net.nics_per_host, network_gbps_per_host=net.gbps_per_host,
        dqp_mode=choice.mode, iq_main_cache_gib=round(float(caches.main_cache_gib), 1),
        iq_temp_cache_gib=round(float(caches.temp_cache_gib), 1), hosts=layouts, vsan_architecture=st.architecture,
    )


def _explain(
    scenario: Scenario,
    w: SapIqMultiplex,
    o: IqOption,
    storage: str,
    main_tb: float,
    stored_tb: float,
    net: NetworkChoice,
    nic_why: Rationale | None,
) -> SizingResult:
    """The result of the chosen option: design, estimates, BOM, rationale and warnings."""
    server, nodes = o.server, o.nodes
    node = node_shape(scenario, server)
    choice = sap_iq_rules.dqp_choice(w.query_streams, w.dqp_mode)
    caches, cache_group = _cache_settings(node.memory_gib)
    sap_iq_caches.check_floor(scenario, w, nodes, node, caches)
    cache_group = dataclasses.replace(cache_group, settings=(*start_parameters(w.query_streams),
                                                             *cache_group.settings))
    away = sap_iq.Away(node.speed, sap_iq_caches.fit(caches, main_tb), cpu_doublings(server))
    pred = sap_iq.predict_iq(choice.mode, nodes, w.query_streams, node.eff,
                             dqp_network_gbps=net.nic.speed_gbps if net.nic else None, away=away)
    st = (vsan_storage(o.vsan, nodes, server, stored_tb, net) if o.vsan is not None
          else san_storage(w, o, server, stored_tb, net))
    failure = sap_iq_failure.node_failure(w, o, choice.mode, node.eff, pred, net.nic.speed_gbps if net.nic else None,
                                          node.vsphere, away)
    rationale = [*_rationale(w, server, nodes, node, choice, main_tb, stored_tb),
                 _caches_rationale(w, nodes, caches, main_tb, pred), st.rationale,
                 sap_iq_failure.rationale(failure),
                 licence_rank.rationale(scenario, server, "gives the query streams their cores" if not o.capped
                                        else "gives the streams the most cores the node limit allows")]
    if nic_why:
        rationale.append(nic_why)
    power = nodes * float(cost_power.host_power_w(
        server.idle_w, server.max_w, scenario.assumptions.utilization_pct / 100.0, st.drives_for_power, st.drive_w,
        net.nics_per_host, net.nic.watts if net.nic else 0.0,
    ))
    coord, writers, readers = _roles(w, nodes)
    return SizingResult(
        scenario_name=scenario.name,
        design=dataclasses.replace(_design(scenario, w, o, node, st, net, choice, caches),
                                   settings=(cache_group, *st.settings), data_needed_tb=round(stored_tb, 3)),
        estimates={"power_metric": pred.power, "throughput_metric": pred.throughput},
        binding_resource=pred.binding_resource, bom=tuple(st.lines),
        totals=bom.totals(st.lines, power, nodes * server.rack_u, scenario), rationale=tuple(rationale),
        warnings=(*st.warnings, *sap_iq_warnings.warnings(w, o, node, pred, net,
                                                          node_limit("vsan" if o.vsan else "san"), choice),
                  *sap_iq_failure.warnings(failure), *sap_iq_caches.warnings(w, nodes, caches, main_tb, pred)),
        main_metric="throughput_metric" if w.query_streams > 1 else "power_metric",
        iq=IqMultiplex(coord, writers, readers, float(np.asarray(choice.network_advantage)), round(node.eff, 2),
                       round(main_tb, 3), round(main_tb * _temp_ratio(w), 3), sap_iq_streams.bound(w, o, pred)),
    )

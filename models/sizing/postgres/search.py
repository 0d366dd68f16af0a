"""The server a consolidation runs on: each candidate server's VMs packed onto hosts (placement and every host failure
simulated) with the cheapest datastore, ranked on vCPUs short first, then the cost the scenario minimises (`rank`).

`cheapest_each` packs every candidate in turn. `cheapest` gives the same answer packing fewer: it plans every
candidate's VMs first, their vCPUs and memory only (`placement.VmShape`: what they take hour by hour; their I/O,
which the CPU's rate sets, is sized when the candidate is packed), bounds each candidate's rank from below without
packing (`lower_rank`: its VMs' vCPUs short exactly, and the cost of the fewest hosts any packing takes,
`placement.least_hosts`, with the server and its cheapest network card, the least its data drives cost and the least
licences, `licence_rank.least_cost`), then packs them in the order of their bounds and stops at the first bound above
the best rank found. A candidate is skipped only where its bound is strictly above a rank already found, so the
winner, and the first of several equal ones, is the plain loop's (tests/models/sizing/postgres/test_pg_search.py
compares both).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from models.hardware import HardwareCatalog, Server
from models.scenario import PostgresConsolidation, Scenario
from models.sizing import licence_rank
from models.sizing.infrastructure import HostGroup
from models.sizing.parts import NetworkChoice, ResolvedParts, candidate_drives
from models.sizing.postgres.alike import AlikeSets, Planned, alike_sets, plan_alike, sized_alike
from models.sizing.postgres.choice import architectures, cheapest_local, cheapest_vsan, host_network
from models.sizing.postgres.datastore import GB_PER_TB
from models.sizing.postgres.limits import CLUSTER_WORDS, cluster_max_hosts, host_memory, physical_memory
from models.sizing.postgres.placement import (
    HostPlan,
    PgVm,
    VmCache,
    VmShape,
    ha_failures,
    hosts_for,
    pack_hosts,
    plan_shapes,
)
from models.sizing.postgres.state import Packing
from models.sizing.postgres.tps_vcpus import HostCpu, host_cpu
from models.sizing.result import Rationale
from models.sizing.shared_storage import (
    ESA_SHORT,
    esa_host_short,
    esa_min_hosts,
    fewest_hosts,
    least_raw_needed_tb,
    policy_min_hosts,
)
from models.sizing.software import Licensing

DATABASE_HOST = "database host"  # the role of every database host's BOM lines; each layout adds its number
BOUND_SLACK = 1e-9  # a bound is lowered by this share: sums taken in another order may differ in the last bits
DRIVE_SLACK_TB = 1e-3

Nets = dict[str, tuple[NetworkChoice, "Rationale | None"]]


@dataclass(frozen=True)
class Ask:
    """What every candidate is sized for: the scenario and its workload, the catalog and named parts, whether the
    disks are on vSAN, the datastore's RAID (or vSAN policy) and the capacity fill limit."""

    scenario: Scenario
    w: PostgresConsolidation
    catalog: HardwareCatalog
    parts: ResolvedParts
    vsan: bool
    raid: str
    fill: float

    @cached_property
    def sets(self) -> AlikeSets:
        """The workload's sets of alike databases (`alike`), found once for every candidate."""
        return alike_sets(self.w.databases)

    @cached_property
    def planned(self) -> dict[tuple[tuple[int, float], HostCpu], Planned]:
        """`plan_alike` by a NUMA node's cores and memory and the host's CPU: what the VMs are planned from, so
        servers alike in those share their VMs (and their bound's sums: `Planned`)."""
        return {}

    @cached_property
    def packed(self) -> dict[tuple[object, ...], tuple[list[PgVm], list[HostPlan] | None]]:
        """`pack_hosts` by its VMs' identities and the hosts' figures, with the VMs (kept: no other VM takes an
        identity while its entry lives): servers of the same CPU and memory share their VMs, and pack them once."""
        return {}


@dataclass(frozen=True)
class Option:
    """One candidate server with its VMs planned (their I/O sized when they are packed, once per `VmCache`)."""

    server: Server
    nets: Nets
    available: float
    planned: Planned
    least: int  # the fewest hosts its datastore takes (vSAN's policy minimum)
    sized: VmCache

    @property
    def shapes(self) -> list[VmShape]:
        return self.planned.shapes

    def vms(self) -> list[PgVm]:
        return sized_alike(self.planned, self.sized)


@dataclass(frozen=True)
class Found:
    """The cheapest packing (None: no candidate holds the VMs), each candidate's reason where it could not (in the
    candidates' order; complete where nothing was found), and the network cards of each server planned."""

    best: Packing | None
    too_small: list[str]
    nets_of: dict[str, Nets]


def rank(scenario: Scenario, catalog: HardwareCatalog, p: Packing) -> tuple[float, float]:
    """Servers whose cores give every VM the vCPUs its clients and transaction rates take come first, by capex incl.
    licences (or N-year cost of ownership: `licence_rank`); when none does, the one short by the fewest vCPUs."""
    vms = [vm for h in p.hosts for vm in h.vms]
    basis = Licensing(scenario, catalog, round(sum(s.capacity_gb for s in p.storage) / GB_PER_TB, 3),
                      vsan=p.vsan is not None)
    return (vcpus_short(vms), licence_rank.ranked_cost(basis, HostGroup(DATABASE_HOST, p.server, len(p.hosts), 0.0,
                                                                        0, 0.0), p.capex, len(vms)))


def vcpus_short(vms: list[PgVm] | list[VmShape]) -> float:
    """vCPUs the VMs lack for their clients and stated rates, summed: where they are placed does not change it."""
    return float(sum(max(0, math.ceil(vm.vcpus_needed - 1e-9) - vm.vcpus) for vm in vms))


def lower_rank(ask: Ask, o: Option) -> tuple[float, float]:
    """A rank no packing of the option's VMs beats: its vCPUs short, and `licence_rank.least_cost` of its fewest
    hosts, each at the server's price and its cheapest network card, with the least its data drives cost
    (`least_drive_cost`), on no TB of data."""
    hosts = hosts_for(o.planned.busiest, o.server.cores_total, o.available, ha_failures(ask.w), o.least)
    net = min(n.price_per_host for n, _ in o.nets.values())
    group = HostGroup(DATABASE_HOST, o.server, hosts, 0.0, 0, 0.0)
    hardware = hosts * (o.server.price + net) + least_drive_cost(ask, o, hosts)
    cost = licence_rank.least_cost(Licensing(ask.scenario, ask.catalog, 0.0, vsan=ask.vsan), group, hardware,
                                   len(o.planned))
    return o.planned.short_vcpus, cost * (1.0 - BOUND_SLACK)


def least_drive_cost(ask: Ask, o: Option, hosts: int) -> float:
    """The least the data drives of a packing on `hosts` or more hosts cost: the raw capacity the VMs' DATA and WAL
    disks take at the least (`storage.disks_floor_gb`; a local RAID datastore at least the disks, each host holding
    its own; vSAN the policy's copies and slack, `least_raw_needed_tb`) on the candidate drive of the lowest price per
    TB. A vSAN layout spreads its
    drives over the policy's fewest hosts where the packing has fewer, and the BOM counts the packing's hosts: only
    that share is counted (a share that only grows with the hosts)."""
    drives = [d for d in candidate_drives(ask.catalog, ask.parts, o.server) if d.capacity_tb > 0]
    if not drives:
        return 0.0
    stored_tb = o.planned.stored_gb(ask.fill) / GB_PER_TB
    raw_tb = stored_tb
    if ask.vsan:
        policy = ask.w.vsan_policy
        raw_tb = least_raw_needed_tb(stored_tb, policy) * min(1.0, hosts / max(policy_min_hosts(policy),
                                                                                 esa_min_hosts(policy)))
    # each host's drive count is rounded up from its share less 1e-9 of a drive: a few GB at most below the need
    return max(0.0, raw_tb - DRIVE_SLACK_TB) * min(d.price / d.capacity_tb for d in drives)


def plan(ask: Ask, server: Server, sized: VmCache, alike: bool = True) -> Option | str:
    """The server's VMs and network cards, or why the server cannot take them (its id and the reason). `alike`: the
    VMs planned once per set of alike databases (`alike.plan_alike`), else one by one (`placement.plan_shapes`)."""
    scenario, w = ask.scenario, ask.w
    archs = architectures(w, scenario, server)
    if not archs:
        return f"{server.id}: {ESA_SHORT} ({esa_host_short(server.cores_total, server.memory_gib)})"
    nets = {a: host_network(ask.catalog, ask.parts, server, scenario.platform.nics_per_host, a) for a in archs}
    host_mem, available = host_memory(scenario, w, server)
    if available <= 0:
        return f"{server.id}: {host_mem:g} GiB leaves nothing after the hypervisor reserve"
    node = (server.cores_per_numa_node, available / server.numa_nodes)
    host = host_cpu(server, scenario.targets.confidence, scenario.platform.datastore_latency_ms)
    if not alike:
        vms = Planned.each(plan_shapes(w, *node, host, ask.fill, True, sized))
    elif (node, host) in ask.planned:
        vms = ask.planned[(node, host)]
    else:
        vms = ask.planned[(node, host)] = plan_alike(w, node, host, ask.fill, True, sized, ask.sets)
    physical = physical_memory(scenario, server)[1]
    if vms.most_gib() > physical + 1e-9:  # vRAM beyond the host's own memory: no overcommit makes it fit
        big = vms.largest()
        return (f"{server.id}: VM {big.name} ({big.memory_gib:g} GiB) against the host's {physical:,.0f} GiB after"
                " the hypervisor reserve")
    least = fewest_hosts(w.vsan_policy, archs) if ask.vsan else 1
    return Option(server, nets, available, vms, least, sized)


def pack(ask: Ask, o: Option) -> Packing | str | None:
    """The option's cheapest packing with its datastore, why its hosts cannot hold the VMs, or None where no drive
    builds the datastore."""
    server, vms, available = o.server, o.vms(), o.available
    figures = (server.cores_total, available, ha_failures(ask.w), server.numa_nodes, server.cores_per_numa_node,
               o.least, cluster_max_hosts(ask.vsan))
    key = (tuple(map(id, vms)), *figures)
    if key not in ask.packed:
        ask.packed[key] = (vms, pack_hosts(vms, *figures))
    hosts = None if (packed := ask.packed[key][1]) is None else list(packed)
    if hosts is None and all(v.resident_peak_gib <= available and v.vcpus <= server.cores_total for v in vms):
        return (f"{server.id}: the VMs need more than the {cluster_max_hosts(ask.vsan)} hosts of"
                f" {CLUSTER_WORDS[ask.vsan]}")
    if hosts is None:
        big = max(vms, key=lambda v: v.resident_peak_gib)
        return (f"{server.id}: VM {big.name} ({big.resident_peak_gib:,.1f} GiB working set, {big.vcpus} vCPU) against"
                f" {available:,.0f} GiB available and {server.cores_total} cores")
    if ask.vsan:
        return cheapest_vsan(ask.scenario, ask.w, ask.catalog, ask.parts, server, vms, hosts,
                             {a: n for a, (n, _) in o.nets.items()})
    return cheapest_local(ask.scenario, ask.catalog, ask.parts, server, hosts, available, o.nets["local"][0], ask.raid)


def cheapest_each(ask: Ask, servers: list[Server]) -> Found:
    """Every candidate planned and packed in turn; the first of the lowest rank wins."""
    sized = VmCache()  # a VM sized on one server is reused on the others where it comes out the same
    best: Packing | None = None
    best_rank = (math.inf, math.inf)
    too_small: list[str] = []
    nets_of: dict[str, Nets] = {}
    for server in servers:
        o = plan(ask, server, sized, alike=False)
        if isinstance(o, str):
            too_small.append(o)
            continue
        nets_of[server.id] = o.nets
        found = pack(ask, o)
        if isinstance(found, str):
            too_small.append(found)
        elif found is not None and (r := rank(ask.scenario, ask.catalog, found)) < best_rank:  # the first: below inf
            best, best_rank = found, r
    return Found(best, too_small, nets_of)


def cheapest(ask: Ask, servers: list[Server]) -> Found:
    """`cheapest_each`'s answer, packing the candidates in the order of their lower bounds and none whose bound is
    above the best rank found (their reasons are then left out: a packing was found)."""
    sized = VmCache()
    reasons: list[tuple[int, str]] = []
    options: list[tuple[tuple[float, float], int, Option]] = []
    for i, server in enumerate(servers):
        o = plan(ask, server, sized)
        if isinstance(o, str):
            reasons.append((i, o))
        else:
            options.append((lower_rank(ask, o), i, o))
    best: Packing | None = None
    key = (math.inf, math.inf, len(servers))
    for bound, i, o in sorted(options, key=lambda t: (t[0], t[1])):
        if best is not None and bound > key[:2]:
            break  # every later bound is at least this one: none can rank below the best
        found = pack(ask, o)
        if isinstance(found, str):
            reasons.append((i, found))
        elif found is not None and (*(r := rank(ask.scenario, ask.catalog, found)), i) < key:
            best, key = found, (*r, i)
    return Found(best, [r for _, r in sorted(reasons)], {o.server.id: o.nets for _, _, o in options})

"""The Greenplum installation guide's sysctl.conf and limits.conf, with the values it leaves to the host filled in
from the design: shared memory from the host's memory, semaphores and processes from its instances and
max_connections, the local port range clear of every port the design uses, dirty-page limits and min_free_kbytes
by memory. The guide's figures and formulas are in resources/deploy/linux.json ("greenplum_guide"), with their
section of each release's guide; this module only applies them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from app.export.config.design_values import cluster_setting, coordinator_word, release, setting_groups
from app.export.config.static_data import deploy_data
from models.sizing.result import HostLayout, SizingResult

KIB_PER_GIB = 1024 * 1024
BYTES_PER_GIB = 1024 ** 3
POSTGRES_12_RELEASES = ("7", "cloudberry-2", "warehousepg-7")  # POSIX semaphores on Linux
PGBOUNCER_FDS = "PgBouncer documentation, Configuration, max_client_conn (file descriptors: clients plus pools)"


@dataclass(frozen=True)
class Line:
    """One line of a generated file with the reason and source its comment states."""

    text: str
    reason: str
    source: str


@dataclass(frozen=True)
class Role:
    """The hosts one sysctl.conf is for: their memory, instances per host and each instance's max_connections."""

    name: str  # "segment host", "segment VM", "coordinator host" ("master host" on Greenplum 6)
    memory_gib: float
    instances: int
    max_connections: int
    coordinator_connections: int = 0  # the coordinator instance the role's first host also runs (0: none)
    coordinator_word: str = "coordinator"  # "master" on Greenplum 6

    def instance_connections(self) -> list[int]:
        """max_connections of every instance on the busiest host of the role: its segments, and the coordinator where
        it shares the host."""
        return [self.max_connections] * self.instances + (
            [self.coordinator_connections] if self.coordinator_connections else [])

    def runs(self) -> str:
        """What the busiest host of the role runs, in words ("8 instance(s) at max_connections 1,250 and the master
        at 250 (on the first host)")."""
        out = f"{self.instances} instance(s) at max_connections {self.max_connections:,}"
        if self.coordinator_connections:
            out += (f" and, on the first {self.name}, the {self.coordinator_word} at max_connections"
                    f" {self.coordinator_connections:,}")
        return out


@dataclass(frozen=True)
class PortPlan:
    """The ports a design uses and the ephemeral range chosen clear of them."""

    coordinator: int
    port_base: int
    mirror_port_base: int
    highest: int
    range_low: int
    range_high: int


def guide() -> dict[str, Any]:
    data: dict[str, Any] = deploy_data("linux")["greenplum_guide"]
    return data


def guide_source(result: SizingResult, section: str) -> str:
    """A guide section of the design's release, or a full citation as it stands."""
    title: str = guide()["guide"][release(result)]
    return section if ("," in section or ":" in section) else f"{title}, {section}"


def _layout(result: SizingResult, role: str) -> HostLayout | None:
    return next((h for h in result.design.hosts if h.role == role), None)


def roles(result: SizingResult) -> list[Role]:
    """The segment hosts (or VMs) and the coordinator hosts, as their sysctl.conf sees them."""
    d = result.design
    seg_conn = _max_connections(result, "cluster")
    out: list[Role] = []
    seg = _layout(result, "segment host")
    if seg is not None and seg.vms:
        vm = seg.vms[0]
        name = "segment VM" if d.deployment == "vsphere" else "segment host"
        shared = _max_connections(result, "coordinator") if coordinator_on_segment_host(result) else 0
        out.append(Role(name, vm.memory_gib, vm.primary_segments + vm.mirror_segments, seg_conn, shared,
                        coordinator_word(result)))
    coord = _layout(result, "coordinator host")
    if coord is not None:
        memory = coord.vms[0].memory_gib if coord.vms and d.deployment == "vsphere" else coord.memory_gib
        out.append(Role(f"{coordinator_word(result)} host", memory, 1,
                        _max_connections(result, "coordinator") or seg_conn))
    return out


def coordinator_on_segment_host(result: SizingResult) -> bool:
    """The coordinator runs on the first segment host (no coordinator host of its own)."""
    return result.design.kind == "greenplum-oltp" and result.design.coordinator_hosts == 0


def _max_connections(result: SizingResult, target: str) -> int:
    for g in setting_groups(result, "greenplum"):
        s = g.get("max_connections")
        if g.target == target and s is not None:
            return int(s.value)
    return 0


def port_plan(result: SizingResult) -> PortPlan:
    """PORT_BASE and MIRROR_PORT_BASE as the guide sets them, moved up only if the primaries would reach the
    mirrors' ports; the ephemeral range starts at the guide's floor or above the highest port in use.

    Ports per host: primaries from PORT_BASE, mirrors from MIRROR_PORT_BASE, one each.
    """
    init = {e["name"]: int(e["value"]) for e in deploy_data("greenplum")["init"] if str(e["value"]).isdigit()}
    p = guide()["ports"]
    seg = _layout(result, "segment host")
    primaries = max((vm.primary_segments for vm in seg.vms), default=0) if seg else 0
    mirrors = max((vm.mirror_segments for vm in seg.vms), default=0) if seg else 0
    base = init["PORT_BASE"]
    mirror_base = max(init["MIRROR_PORT_BASE"], base + primaries)
    pgb = {e["name"]: e["value"] for e in deploy_data("greenplum")["pgbouncer"]["static"]}
    pooler = int(pgb["listen_port"]) if _pgbouncer(result, "max_client_conn") else 0
    highest = max(init["COORDINATOR_PORT"], base + primaries - 1, mirror_base + mirrors - 1 if mirrors else 0, pooler)
    low = max(int(p["range_low"]), highest + 1)
    return PortPlan(init["COORDINATOR_PORT"], base, mirror_base, highest, low, int(p["range_high"]))


def sysctl_lines(result: SizingResult, role: Role) -> list[Line]:
    g = guide()
    rel = release(result)
    out = [Line(f"{e['name']} = {e['value']}", e["reason"], guide_source(result, e["source"]))
           for e in g["sysctl"] if rel in e.get("releases", (rel,))]
    out += [*_shared_memory(result, role), _semaphores(result, role), _port_range(result)]
    out += [*_dirty(result, role), _min_free(result, role)]
    return out


def _shared_memory(result: SizingResult, role: Role) -> list[Line]:
    s = guide()["shared_memory"]
    pages = int(role.memory_gib * BYTES_PER_GIB) // int(s["page_size_bytes"])
    shmall = int(pages * float(s["fraction_of_memory"]))
    shmmax = shmall * int(s["page_size_bytes"])
    why = f"{s['reason']} The {role.name}: {role.memory_gib:g} GiB = {pages:,} pages."
    src = guide_source(result, s["source"])
    return [Line(f"kernel.shmall = {shmall}", why, src), Line(f"kernel.shmmax = {shmmax}", why, src)]


def semaphore_sets(role: Role) -> int:
    """Semaphore sets the role's instances allocate at start (PostgreSQL 9.4's SEMMNI formula per instance)."""
    s = guide()["semaphores"]
    workers = int(s["autovacuum_max_workers"]) + int(s["max_worker_processes"]) + int(s["fixed_slots"])
    return sum(math.ceil((conn + workers) / int(s["per_set"])) for conn in role.instance_connections())


def _semaphores(result: SizingResult, role: Role) -> Line:
    s = guide()["semaphores"]
    semmsl, semmns, semopm, semmni = (int(s[k]) for k in ("semmsl", "semmns", "semopm", "semmni"))
    guide_src = guide_source(result, "The sysctl.conf File")
    if release(result) in POSTGRES_12_RELEASES:
        return Line(f"kernel.sem = {semmsl} {semmns} {semopm} {semmni}", s["posix_reason"],
                    f"{guide_src}; {s['posix_source']}")
    need = semaphore_sets(role)
    semmni_fit = max(semmni, need)
    semmns_fit = max(semmns, semmsl * semmni_fit)
    why = (f"{s['reason']} The {role.name} runs {role.runs()}: {need:,} sets, so SEMMNI {semmni_fit:,} (the"
           f" guide's {semmni:,} when that is more, leaving room for other programs) and SEMMNS {semmns_fit:,}.")
    return Line(f"kernel.sem = {semmsl} {semmns_fit} {semopm} {semmni_fit}", why, f"{guide_src}; {s['source']}")


def _port_range(result: SizingResult) -> Line:
    p = port_plan(result)
    g = guide()["ports"]
    why = (f"{g['reason']} The design uses the {coordinator_word(result)} port {p.coordinator}, primaries from"
           f" PORT_BASE {p.port_base} and mirrors from MIRROR_PORT_BASE {p.mirror_port_base}, up to {p.highest}.")
    return Line(f"net.ipv4.ip_local_port_range = {p.range_low} {p.range_high}", why, guide_source(result, g["source"]))


def _dirty(result: SizingResult, role: Role) -> list[Line]:
    d = guide()["dirty"]
    src = guide_source(result, d["source"])
    why = f"{d['reason']} The {role.name} has {role.memory_gib:g} GiB."
    if role.memory_gib > float(d["threshold_gib"]):
        return [Line("vm.dirty_background_ratio = 0", why, src), Line("vm.dirty_ratio = 0", why, src),
                Line(f"vm.dirty_background_bytes = {d['background_bytes']}", why, src),
                Line(f"vm.dirty_bytes = {d['bytes']}", why, src)]
    return [Line(f"vm.dirty_background_ratio = {d['small_background_ratio']}", why, src),
            Line(f"vm.dirty_ratio = {d['small_ratio']}", why, src)]


def _min_free(result: SizingResult, role: Role) -> Line:
    m = guide()["min_free"]
    kib = role.memory_gib * KIB_PER_GIB
    value = int(min(kib * float(m["fraction"]), kib * float(m["max_fraction"])))
    return Line(f"vm.min_free_kbytes = {value}", f"{m['reason']} The {role.name}: {role.memory_gib:g} GiB.",
                guide_source(result, m["source"]))


def _pgbouncer(result: SizingResult, name: str) -> int:
    s = cluster_setting(result, "pgbouncer", name)
    return int(s.value) if s is not None else 0


def nproc(role: Role) -> int:
    """Processes gpadmin may run: the guide's floor, or every instance's connections and workers."""
    lim = guide()["limits"]
    s = guide()["semaphores"]
    workers = int(s["autovacuum_max_workers"]) + int(s["max_worker_processes"]) + int(lim["aux_processes"])
    return max(int(lim["nproc"]), sum(conn + workers for conn in role.instance_connections()))


def limits_lines(result: SizingResult, role: Role) -> list[Line]:
    lim = guide()["limits"]
    src = guide_source(result, lim["source"])
    procs = nproc(role)
    proc_why = (f"{lim['nproc_reason']} The {role.name}: {role.instances} instance(s) x (max_connections"
                f" {role.max_connections:,} + workers)"
                + (f" + the {role.coordinator_word} (max_connections {role.coordinator_connections:,} + workers) on the"
                   f" first {role.name}" if role.coordinator_connections else "") + f" -> {procs:,}.")
    proc_src = f"{src}; {lim['nproc_source']}"
    nofile, file_why, file_src = int(lim["nofile"]), lim["reason"], src
    clients = _pgbouncer(result, "max_client_conn") + _pgbouncer(result, "default_pool_size")
    if (not role.name.startswith("segment") or role.coordinator_connections) and clients:
        nofile = max(nofile, clients)
        where = f"the first {role.name}" if role.coordinator_connections else "this host"
        file_why = (f"{file_why} PgBouncer on {where} holds a descriptor per client and per server connection"
                    f" ({clients:,}): the guide's {int(lim['nofile']):,} or that, whichever is larger.")
        file_src = f"{src}; {PGBOUNCER_FDS}"
    return [Line(f"* soft nofile {nofile}", file_why, file_src),
            Line(f"* hard nofile {nofile}", file_why, file_src),
            Line(f"* soft nproc {procs}", proc_why, proc_src), Line(f"* hard nproc {procs}", proc_why, proc_src),
            Line("* soft core unlimited", lim["core_reason"], guide_source(result, lim["core_source"]))]


def overcommit(result: SizingResult) -> list[Line]:
    """The kernel settings the design's memory plan is computed with (vm.overcommit_memory, vm.overcommit_ratio)."""
    out: list[Line] = []
    for name in ("vm.overcommit_memory", "vm.overcommit_ratio"):
        s = cluster_setting(result, "linux-sysctl", name)
        if s is not None:
            out.append(Line(f"{name} = {s.value}", s.reason, s.source))
    return out

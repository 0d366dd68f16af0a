"""The design of one result as typed rows, built once for every renderer.

`refarch size` (text), the window's Design tab and the PDF's design section render `design_rows(result)` and
nothing else: each row is a key, a label, a value in its own type (a count, a quantity in `unit`, a share, a part,
words), the unit, the references behind the value, a note that qualifies it, and the group it belongs to (the
PDF sets the drive and network rows under their own headings; the CLI and the window list them in order). The
value is written down by one function, `FactRow.text` (`app.formatting.quantity`), so a DOCX or PPTX renderer
needs only the rows.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from app.formatting import (
    DASH,
    dqp_mode,
    host_roles,
    no_data_drives,
    number,
    part_with_number,
    percent,
    quantity,
    shared_buffers,
    shared_buffers_differ,
    vm_size,
)
from models.field_words import FIELDS
from models.references import reference_parts
from models.release_words import role_label
from models.sizing.iq_result import StreamsBound
from models.sizing.result import Design, HostFailure, HostLayout, SizingResult, Survivor
from models.vocabulary import deployment_label, greenplum_release_label, raid_label

Group = Literal["hosts", "drives", "network", "failure"]
# "%": the value is a fraction printed as a percentage; "GiB", "TB" and "MB" have their own figures
Unit = Literal["", "GiB", "TB", "MB", "%", "Gbit/s"]


@dataclass(frozen=True)
class FactRow:
    """One fact of a design. `value` is a number in `unit` (a fraction where the unit is "%"), or words where no
    number stands alone ("8 primary + 8 mirror", a part's name); `note` qualifies it ("before compression")."""

    key: str  # stable across versions: "segments_per_host", "drives.coordinator host"
    label: str
    value: float | int | str | None
    unit: Unit = ""
    # the references behind the value: those of the setting the design writes for it (gp_vmem_protect_limit,
    # shared_buffers, the IQ caches); () for a count, a part or an input
    source: tuple[str, ...] = ()
    note: str = ""
    group: Group = "hosts"

    @property
    def text(self) -> str:
        """The value as every renderer prints it: "512 GiB", "40.0 TB before compression", "35 %"."""
        shown = DASH if self.value is None else self.value if isinstance(self.value, str) else quantity(
            self.value, self.unit)
        return f"{shown} {self.note}" if self.note else shown


def design_rows(r: SizingResult) -> list[FactRow]:
    """Every fact the design has, in reading order: the hosts and their memory settings, the drives, the network.
    A fact the design has no use for is left out (no "0 TB raw" on hosts whose data is on a SAN)."""
    return [*_host_rows(r), *_streams_rows(r.iq.streams_bound if r.iq else None), *_setting_rows(r.design),
            *_drive_rows(r), *_network_rows(r), *_failure_rows(r.design.host_failure)]


def rows_of(rows: list[FactRow], group: Group) -> list[FactRow]:
    return [row for row in rows if row.group == group]


DATABASE_COLUMNS = ("Database", "VM", "Peak TPS", "TPS carried (P50)", "P10 – P90", "What binds")


@dataclass(frozen=True)
class DatabaseRow:
    """One database of a PostgreSQL design: the VM (and host) that runs it, the peak TPS it states or is estimated
    at, and what its VM carries for it at the busiest hour (its clients' share of the VM's P10/P50/P90) with the
    resource that binds (CPU, storage IOPS, storage latency, WAL flush)."""

    database: str
    vm: str
    host: int
    peak_tps: float
    tps_p10: float
    tps_p50: float
    tps_p90: float
    binding: str

    def cells(self) -> tuple[str, ...]:
        """The row as every renderer prints it, in `DATABASE_COLUMNS` order."""
        return (self.database, f"{self.vm} (host {self.host})", number(self.peak_tps), number(self.tps_p50),
                f"{number(self.tps_p10)} – {number(self.tps_p90)}", self.binding)

    @property
    def short(self) -> bool:
        """The VM's median for it falls below the peak asked (the design warns at the confidence asked)."""
        return self.tps_p50 < self.peak_tps


def database_rows(r: SizingResult) -> list[DatabaseRow]:
    """Each database of a PostgreSQL design with what its VM carries for it; [] for the other kinds."""
    return [DatabaseRow(d.database, v.name, v.host, d.peak_tps, d.tps_p10, d.tps_p50, d.tps_p90, d.tps_binding or "")
            for v in r.vms for d in v.disks
            if d.tps_p10 is not None and d.tps_p50 is not None and d.tps_p90 is not None]


def _capital(text: str) -> str:
    """The first letter up, the rest as written ("IQ nodes", not "Iq nodes")."""
    return text[:1].upper() + text[1:]


def _host_rows(r: SizingResult) -> Iterator[FactRow]:
    d = r.design
    yield FactRow("deployment", "Deployment", _capital(deployment_label(d.deployment)))
    yield FactRow("server", "Server", part_with_number(r, d.server_id))
    yield FactRow("hosts", "Hosts", host_roles(d))
    yield FactRow("memory_per_host", "Memory per host", d.memory_gib_per_host, "GiB")
    if d.deployment != "bare-metal" or d.vms_per_host > 1:  # bare metal runs the database on the host's OS
        yield FactRow("vms_per_host", "VMs per host", d.vms_per_host)
    size = vm_size(d) if d.vm is not None and d.deployment != "bare-metal" else None
    if size is not None:
        yield FactRow("vm_size", "VM size", size)
    if d.vm is not None and d.vm.data_drives and d.deployment != "bare-metal":  # none: disks on the datastore
        yield FactRow("vm_data_drives", "Data drives per VM", d.vm.data_drives)
    if d.greenplum_version is not None:
        yield FactRow("greenplum_version", "Release", greenplum_release_label(d.greenplum_version))
    if d.primary_segments_per_host is not None:
        mirrors = d.mirror_segments_per_host or 0
        yield FactRow("segments_per_host", "Segments per host", f"{d.primary_segments_per_host} primary + "
                                                                f"{mirrors} mirror")


def _sources(d: Design, *names: str) -> tuple[str, ...]:
    """The references of the settings the design writes under `names` (every VM's, each once)."""
    found = (reference_parts(s.source) for g in d.settings for s in g.settings if s.name in names)
    return tuple(dict.fromkeys(ref for refs in found for ref in refs))


def _setting_rows(d: Design) -> Iterator[FactRow]:
    if d.gp_vmem_protect_limit_mb is not None:
        unset = any(g.product == "greenplum-not-set" and g.get("gp_vmem_protect_limit") for g in d.settings)
        yield FactRow("gp_vmem_protect_limit", "gp_vmem_protect_limit", d.gp_vmem_protect_limit_mb, "MB",
                      _sources(d, "gp_vmem_protect_limit"),
                      "(not set: this release ignores it under resource groups)" if unset else "")
    buffers = shared_buffers(d)
    if buffers is not None:
        yield FactRow("shared_buffers", "shared_buffers", buffers, source=_sources(d, "shared_buffers"))
    if d.shared_buffers_ratio is not None:
        # each database's VM sized apart: the ratio is the first VM's (its rule depends on the VM's memory)
        first = ", first VM" if shared_buffers_differ(d) else ""
        yield FactRow("shared_buffers_ratio", f"shared_buffers ratio{first}", d.shared_buffers_ratio, "%",
                      note="of VM memory")
    if d.overcommit_rate is not None:
        yield FactRow("memory_overcommit", "Memory overcommit", d.overcommit_rate, "%")
    if d.safe_overcommit_rate is not None:
        yield FactRow("safe_overcommit", "Safe overcommit limit", d.safe_overcommit_rate, "%")
    if d.dqp_mode:
        yield FactRow("dqp_mode", "DQP mode", dqp_mode(d.dqp_mode))
    if d.iq_main_cache_gib is not None:
        yield FactRow("iq_main_cache", "IQ main cache", d.iq_main_cache_gib, "GiB", _sources(d, "iqmc"))
    if d.iq_temp_cache_gib is not None:
        yield FactRow("iq_temp_cache", "IQ temp cache", d.iq_temp_cache_gib, "GiB", _sources(d, "iqtc"))


def _drive_rows(r: SizingResult) -> Iterator[FactRow]:
    d = r.design
    yield FactRow("data_drive", "Data drive", part_with_number(r, d.drive_id) if d.drive_id else "none",
                  group="drives")
    raid = f" ({raid_label(d.raid)})" if d.raid else ""
    yield FactRow("data_drives_per_host", "Data drives per host", no_data_drives(d)
                  or f"{d.data_drives_per_host}{raid}", group="drives")
    if d.vsan_architecture:
        yield FactRow("vsan_architecture", "vSAN architecture", dict(FIELDS["workload.vsan_architecture"].choices)
                      .get(d.vsan_architecture, d.vsan_architecture), group="drives")
    if d.raw_capacity_tb:  # none on hosts whose data lives on a SAN
        yield FactRow("raw_capacity", "Raw capacity (worker hosts)", d.raw_capacity_tb, "TB", group="drives")
    if d.usable_capacity_tb:
        yield FactRow("usable_capacity", "User data the cluster holds", d.usable_capacity_tb, "TB",
                      note="before compression", group="drives")
    if d.data_needed_tb:
        yield FactRow("data_needed", "Data on disk at the horizon", d.data_needed_tb, "TB", note="after compression",
                      group="drives")
    for h in _other_roles(d):
        if h.data_drives:
            yield FactRow(f"drives.{h.bom_role}", f"{_capital(role_label(h.bom_role, d.greenplum_version))} drives",
                          f"{h.data_drives} × {part_with_number(r, h.drive_id)} ({raid_label(h.raid)})",
                          group="drives")


def _network_rows(r: SizingResult) -> Iterator[FactRow]:
    d = r.design
    yield FactRow("nic", "Network card", part_with_number(r, d.nic_id) if d.nic_id else "none", group="network")
    if d.nics_per_host:
        yield FactRow("nics_per_host", "Network cards per host", d.nics_per_host, group="network")
        yield FactRow("network_per_host", "Bandwidth per host", d.network_gbps_per_host, "Gbit/s", group="network")
    for h in _roles(d):
        yield FactRow(f"ports.{h.bom_role}", f"{_capital(role_label(h.bom_role, d.greenplum_version))} ports",
                      f"{h.nic_ports} × {h.nic_speed_gbps:g} GbE", group="network")


def _roles(d: Design) -> list[HostLayout]:
    """The first host of each role as the BOM prices them (PostgreSQL lays out "database host 1", "database host
    2"... one by one, all of the role "database host")."""
    return list({h.bom_role: h for h in reversed(d.hosts)}.values())[::-1]


def _other_roles(d: Design) -> list[HostLayout]:
    """The roles besides the worker hosts' (coordinators, IQ writers and readers)."""
    return [h for h in _roles(d) if not d.hosts or h.bom_role != d.hosts[0].bom_role]


def _streams_rows(sb: StreamsBound | None) -> Iterator[FactRow]:
    """SAP IQ query streams beyond what refarch grows a multiplex to: the nodes their study-003 share of cores needs,
    where the design stops, and the best it achieves there with what binds (as a Greenplum target out of reach)."""
    if sb is None:
        return
    yield FactRow("streams_bound.nodes_needed", "Nodes the streams' share needs", sb.nodes_needed,
                  note=f"for {sb.streams:,} streams at the {sb.cores_per_stream_needed:.1f} study-equivalent cores"
                       f" per stream the SAP IQ study measured; the design stops at {sb.hosts_for_achievable}"
                       " (refarch's cap)")
    yield FactRow("streams_bound.achievable", "Best achievable at the cap", sb.achievable,
                  note=f"{sb.unit} (P50) on {sb.hosts_for_achievable} nodes, {sb.cores_per_stream:.1f} study-equivalent"
                       f" cores per stream; binding: {sb.binding}")


SHOWN_SURVIVORS = 6  # survivors listed one by one; the rest, where nothing restarted onto them, in one row


def _failure_rows(hf: HostFailure | None) -> Iterator[FactRow]:
    """The worst single-host failure as simulated (PostgreSQL on vSphere): which host, each survivor's overcommit and
    throughput kept (one row each for the hosts HA restarted VMs onto, or that run overcommitted, the others in one
    row) and the VMs that cannot restart, with why."""
    if hf is None:
        return
    tolerated = (f"admission control reserves room for {hf.tolerated} host failure{'s' if hf.tolerated != 1 else ''}"
                 if hf.tolerated else "no host failure reserved")
    yield FactRow("failure.worst_host", "Worst host failure", f"host {hf.failed_host}", note=f"({tolerated})",
                  group="failure")
    yield FactRow("failure.performance_preserved", "Throughput kept after it", hf.performance_preserved, "%",
                  note="of baseline, the survivor that keeps least", group="failure")
    # the hosts HA restarted VMs onto first, then the most overcommitted; listed in host order
    busy = sorted((s for s in hf.survivors if s.restarted or s.overcommit_rate > 0),
                  key=lambda s: (not s.restarted, -s.overcommit_rate, s.host))[:SHOWN_SURVIVORS]
    listed = [s for s in hf.survivors if s in busy]
    rest = [s for s in hf.survivors if s not in busy]
    if len(rest) == 1:  # one host left: its own row
        listed, rest = [*listed, *rest], []
    for s in listed:
        yield FactRow(f"failure.host_{s.host}", f"Host {s.host} after it", s.overcommit_rate, "%",
                      note=_survivor_note(s), group="failure")
    if rest:
        yield FactRow("failure.other_hosts", f"{_host_list([s.host for s in rest])} after it",
                      max(s.overcommit_rate for s in rest), "%",
                      note=f"overcommit at most, {percent(min(s.performance_preserved for s in rest))} throughput kept"
                           + ("" if any(s.restarted for s in rest) else ", nothing restarted onto them"),
                      group="failure")
    if hf.not_restarted:
        names = ", ".join(hf.not_restarted[:5]) + (f" and {len(hf.not_restarted) - 5} more"
                                                    if len(hf.not_restarted) > 5 else "")
        yield FactRow("failure.not_restarted", "VMs that cannot restart", len(hf.not_restarted),
                      note=f"({names}): {hf.why_not}", group="failure")
    else:
        yield FactRow("failure.not_restarted", "VMs that cannot restart", "none", group="failure")


def _survivor_note(s: Survivor) -> str:
    """A survivor after the failure, following its overcommit: what its working sets allow, the throughput its VM
    that keeps least keeps, and the VMs vSphere HA restarted onto it."""
    more = f" and {len(s.restarted) - 4} more" if len(s.restarted) > 4 else ""
    onto = f"; restarts {', '.join(s.restarted[:4])}{more}" if s.restarted else ""
    return (f"overcommit (working sets allow {percent(s.safe_overcommit_rate)}), {percent(s.performance_preserved)}"
            f" throughput kept{onto}")


def _host_list(hosts: list[int]) -> str:
    """Hosts by number in ascending order, three or more consecutive as a range: "Host 3", "Hosts 2-9",
    "Hosts 2, 5 and 7", "Hosts 4-42, 45-47 and 50-61" (an estate's 54 quiet survivors in one short label).

    >>> _host_list([3]), _host_list(list(range(2, 10))), _host_list([2, 3, 5]), _host_list([4, 5, 6, 9, 10, 11, 12])
    ('Host 3', 'Hosts 2-9', 'Hosts 2, 3 and 5', 'Hosts 4-6 and 9-12')
    """
    if len(hosts) == 1:
        return f"Host {hosts[0]}"
    runs: list[list[int]] = []
    for h in hosts:
        if runs and h == runs[-1][-1] + 1:
            runs[-1].append(h)
        else:
            runs.append([h])
    parts = [f"{r[0]}-{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs]
    text = ", ".join(parts)
    head, _, last = text.rpartition(", ")
    return f"Hosts {head} and {last}" if head else f"Hosts {text}"

"""Where each Greenplum segment host (or segment VM) sits, named by the user's patterns.

This enumerates what the design states (hosts, VMs per host, primaries, mirrors and data drives per
host or VM); it decides nothing. On vSphere the host file lists the VMs host-interleaved (VM 1 of every
host, then VM 2 of every host ...) so that gpinitsystem, which places each host's mirrors on the hosts
that follow it in the file, never puts a primary and its mirror on one physical host.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.export.config.naming import Naming, unique
from models.sizing.result import Design, HostLayout


@dataclass(frozen=True)
class SegmentUnit:
    """A bare-metal segment host, or one segment VM."""

    n: int  # 1-based position in the host file
    hostname: str
    physical_host: int  # 1-based
    physical_name: str
    vm: int | None  # 1-based VM number on its host (vSphere), None on bare metal
    numa_node: int | None
    vcpus: int
    memory_gib: float
    drives: int
    mounts: tuple[str, ...]  # data volumes: one per drive without RAID, one RAID volume otherwise
    primaries: int
    mirrors: int
    interfaces: tuple[str, ...]


def segment_layout(design: Design) -> HostLayout:
    for h in design.hosts:
        if h.role == "segment host":
            return h
    raise ValueError("the design has no segment host layout")


def data_mounts(naming: Naming, drives: int, raid: str) -> tuple[str, ...]:
    volumes = drives if raid == "none" else 1
    return tuple(naming.render("data_mount", d=d) for d in range(1, volumes + 1))


def segment_units(design: Design, naming: Naming) -> list[SegmentUnit]:
    layout = segment_layout(design)
    virtual = design.deployment == "vsphere"
    hosts = layout.count
    units: list[SegmentUnit] = []
    order = [(h, v) for v in range(len(layout.vms)) for h in range(hosts)] if virtual else \
        [(h, 0) for h in range(hosts)]
    for n, (h, v) in enumerate(order, start=1):
        vm = layout.vms[v]
        name = naming.render("segment_host", n=n, host=h + 1, vm=v + 1)
        interfaces = tuple(naming.render("interface", hostname=name, i=i) for i in range(1, layout.nic_ports + 1)) \
            if layout.nic_ports > 1 else (name,)
        units.append(SegmentUnit(
            n=n, hostname=name, physical_host=h + 1, physical_name=naming.render("physical_host", host=h + 1),
            vm=v + 1 if virtual else None, numa_node=vm.numa_node, vcpus=vm.vcpus, memory_gib=vm.memory_gib,
            drives=vm.data_drives, mounts=data_mounts(naming, vm.data_drives, layout.raid),
            primaries=vm.primary_segments, mirrors=vm.mirror_segments, interfaces=interfaces,
        ))
    unique([u.hostname for u in units] + [i for u in units for i in u.interfaces if i != u.hostname],
           "segment_host")
    return units


def spread(dirs_per_unit: int, mounts: tuple[str, ...], naming: Naming, key: str, start: int = 0) -> list[str]:
    """One directory per segment, round-robin over the data volumes from volume `start` (mirrors start after the
    primaries, so with fewer primaries than volumes each volume carries one instance).

    >>> spread(4, ("/data1", "/data2"), Naming(), "primary_dir")
    ['/data1/primary', '/data2/primary', '/data1/primary', '/data2/primary']
    >>> spread(2, ("/data1", "/data2", "/data3", "/data4"), Naming(), "mirror_dir", start=2)
    ['/data3/mirror', '/data4/mirror']
    """
    return [naming.render(key, mount=mounts[(start + i) % len(mounts)]) for i in range(dirs_per_unit)]


def instance_dirs(unit: SegmentUnit, naming: Naming) -> tuple[str, ...]:
    """The primary and mirror directories of one segment host (VM), each once, in gpinitsystem_config's order.

    >>> u = SegmentUnit(1, "sdw1", 1, "sdw1", None, None, 8, 64.0, 2, ("/data1", "/data2"), 2, 2, ("sdw1-1",))
    >>> instance_dirs(u, Naming())
    ('/data1/primary', '/data2/primary', '/data1/mirror', '/data2/mirror')
    """
    dirs = spread(unit.primaries, unit.mounts, naming, "primary_dir")
    dirs += spread(unit.mirrors, unit.mounts, naming, "mirror_dir", unit.primaries)
    return tuple(dict.fromkeys(dirs))

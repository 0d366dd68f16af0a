"""Block mirroring as gpinitsystem builds it: an input configuration file (gpinitsystem -I) that places every
primary and mirror.

gpinitsystem's --mirror-mode knows group and spread only, and a gpinitsystem_config with MIRROR_PORT_BASE but no
MIRROR_DATA_DIRECTORY stops before it creates anything (CHK_PARAMS: "Number of primary directories does not match
number of mirror directories"). Its input configuration file instead lists each instance as
host~address~port~data_directory~dbid~content_id (QD_PRIMARY_ARRAY, PRIMARY_ARRAY, MIRROR_ARRAY), so the design's
blocks are written out: the segment hosts in consecutive blocks of B in hostfile order, the j-th primary of a host's
block position p mirrored on position (p + 1 + j mod (B - 1)) mod B of the same block. Every other host of a block
takes the same share of a host's mirrors (give or take one), and every host receives exactly as many mirrors as it
runs primaries, so each host's mirrors take the MIRROR_DATA_DIRECTORY entries and ports the other modes would.
"""

from __future__ import annotations

from app.export.config.bundle import comment, header
from app.export.config.design_values import cluster_setting
from app.export.config.gp_layout import SegmentUnit, spread
from app.export.config.naming import Naming
from app.export.config.os_fit import port_plan
from app.export.config.static_data import deploy_data
from models.sizing.result import SizingResult

INPUT_FILE = "gpinitsystem_input"
SOURCE = ("vendor_docs: Greenplum Database Utility Guide, gpinitsystem (-I input_configuration_file; Initialization"
          " Configuration File Format: QD_PRIMARY_ARRAY, PRIMARY_ARRAY, MIRROR_ARRAY); Greenplum Database source,"
          " gpMgmt/bin/gpinitsystem (https://github.com/greenplum-db/gpdb), READ_INPUT_CONFIG and DUMP_OUTPUT_CONFIG")


def block_size(result: SizingResult, units: list[SegmentUnit]) -> int | None:
    """The block of segment hosts the design mirrors within, where gpinitsystem -I can build it: bare metal (one
    unit per host), mirrors, and whole blocks of at least two hosts; None otherwise."""
    mode = cluster_setting(result, "greenplum-init", "mirror_mode")
    blocks = cluster_setting(result, "greenplum-init", "mirror_block_hosts")
    if mode is None or str(mode.value) != "block" or blocks is None or not units or not units[0].mirrors:
        return None
    b = int(str(blocks.value))
    if b < 2 or len(units) % b or any(u.vm is not None for u in units):
        return None
    return b


def mirror_hosts(hosts: int, primaries: int, b: int) -> list[list[int]]:
    """For each host (0-based, hostfile order), the host that mirrors each of its primaries.

    >>> mirror_hosts(4, 4, 4)
    [[1, 2, 3, 1], [2, 3, 0, 2], [3, 0, 1, 3], [0, 1, 2, 0]]
    >>> mirror_hosts(4, 3, 2)
    [[1, 1, 1], [0, 0, 0], [3, 3, 3], [2, 2, 2]]
    """
    return [[h // b * b + (h % b + 1 + j % (b - 1)) % b for j in range(primaries)] for h in range(hosts)]


def input_config(result: SizingResult, units: list[SegmentUnit], naming: Naming, coordinator: str) -> str:
    """The gpinitsystem -I file of a block-mirrored bare-metal design (`block_size` not None)."""
    b = block_size(result, units)
    assert b is not None
    init = {e["name"]: e for e in deploy_data("greenplum")["init"]}
    prefix, ports = naming.render("seg_prefix"), port_plan(result)
    p = units[0].primaries
    lines = header(f"{INPUT_FILE}: every instance of the cluster, for gpinitsystem -I (block mirroring)",
                   result.scenario_name)
    for name in ("TRUSTED_SHELL", "ENCODING"):
        lines += [*comment(init[name]["reason"], init[name]["source"]), f"{name}={init[name]['value']}"]
    lines += [*comment("Data directories are named <prefix><content id>.", SOURCE), f"SEG_PREFIX={prefix}"]
    qd = f"{coordinator}~{coordinator}~{init['COORDINATOR_PORT']['value']}~{naming.render('coordinator_dir')}" \
         f"/{prefix}-1~1~-1"
    lines += [*comment("The coordinator: host~address~port~data directory~dbid~content id (content -1).", SOURCE),
              f"QD_PRIMARY_ARRAY={qd}"]
    primary_dirs = spread(p, units[0].mounts, naming, "primary_dir")
    lines += [*comment(f"{p} primaries per host, content ids host by host in hostfile order, ports from PORT_BASE"
                       f" {ports.port_base}, the directories of gpinitsystem_config's DATA_DIRECTORY; each host's"
                       " interface addresses in turn.", SOURCE), "declare -a PRIMARY_ARRAY=("]
    for i, u in enumerate(units):
        for j in range(p):
            content = i * p + j
            lines.append(f"{u.hostname}~{u.interfaces[j % len(u.interfaces)]}~{ports.port_base + j}"
                         f"~{primary_dirs[j]}/{prefix}{content}~{content + 2}~{content}")
    lines += [")", *_mirrors(units, b, naming, prefix, ports.mirror_port_base)]
    return "\n".join(lines)


def _mirrors(units: list[SegmentUnit], b: int, naming: Naming, prefix: str, port_base: int) -> list[str]:
    p = units[0].primaries
    mirror_dirs = spread(units[0].mirrors, units[0].mounts, naming, "mirror_dir", p)
    lines = [*comment(f"Block mirroring in blocks of {b} segment hosts (consecutive hosts of hostfile_gpinitsystem):"
                      f" the j-th primary of a block's host at position k is mirrored on position (k + 1 + j mod"
                      f" {b - 1}) mod {b}, so a host's mirrors spread over the other {b - 1} of its block and a failed"
                      " host's primaries fail over there; each host's mirrors take MIRROR_PORT_BASE"
                      f" {port_base} on and the mirror directories in turn.", SOURCE), "declare -a MIRROR_ARRAY=("]
    taken = [0] * len(units)
    total = len(units) * p
    for i, targets in enumerate(mirror_hosts(len(units), p, b)):
        for j, t in enumerate(targets):
            m, u = taken[t], units[t]
            taken[t] += 1
            content = i * p + j
            lines.append(f"{u.hostname}~{u.interfaces[m % len(u.interfaces)]}~{port_base + m}"
                         f"~{mirror_dirs[m]}/{prefix}{content}~{total + content + 2}~{content}")
    return [*lines, ")"]

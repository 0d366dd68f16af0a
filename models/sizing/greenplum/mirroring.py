"""Greenplum mirror placement: where a failed host's mirrors come up, and what that costs in memory.

Greenplum keeps each primary's mirror on another segment host; when a host fails, its mirrors
are promoted on the hosts that hold them and those hosts then run more primaries than usual.
`gp_vmem_protect_limit` is set for that worst case: gp_vmem / max_acting_primary_segments.
How many mirrors land on one host depends on the placement policy:

* group (gpinitsystem's default): all mirrors of one host sit together on one other host, which
  then runs 2 x P primaries;
* spread (`gpinitsystem -M spread`): each mirror of a host on a different host, so each survivor
  gets at most one more primary; Greenplum needs more hosts than primaries per host for it;
* block (a mirror configuration file given to gpaddmirrors / gpinitsystem): hosts in blocks of B,
  a host's mirrors spread over the other B - 1 hosts of its block: P + ceil(P / (B - 1)).

On vSphere one physical host failure takes all of its segment VMs at once. With the VMs ordered
round-robin over the physical hosts in the gpinitsystem host file (VM k on physical host
k mod n) and a DRS anti-affinity rule per primary/mirror pair, no mirror lives on its primary's
physical host, and each surviving VM still receives at most what the policy gives it on bare
metal. Spread then needs more *physical* hosts than primaries per VM; a block's VMs sit on
distinct physical hosts.

Every count here is per Greenplum segment host: a VM on vSphere, the server on bare metal.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models.calibration_data import point
from models.sizing.result import Rationale
from models.vocabulary import MirrorPolicy

DOCS = "vendor_docs"
IntArray = NDArray[np.int64]


def _cite(pid: str) -> str:
    return point(DOCS, pid).source.cite()


def max_acting_primaries(
    policy: MirrorPolicy | None, primaries: int, physical_hosts: int, block_hosts: int | None = None
) -> int:
    """Primaries one segment host (VM) runs in the worst single physical-host failure.

    `policy` None means no mirrors. Spread below its minimum host count is reported as if the
    survivors shared the failed host's primaries evenly (the caller keeps such designs out).

    >>> max_acting_primaries("group", 8, 4)
    16
    >>> max_acting_primaries("spread", 8, 9)
    9
    >>> max_acting_primaries("block", 8, 8, block_hosts=4)  # the Greenplum documentation's example
    11
    >>> max_acting_primaries(None, 8, 4)
    8
    """
    if policy is None or physical_hosts < 2 or primaries < 1:
        return primaries
    if policy == "group":
        return 2 * primaries
    if policy == "spread":
        return primaries + math.ceil(primaries / (physical_hosts - 1))
    b = max(int(block_hosts or 2), 2)
    return primaries + math.ceil(primaries / (b - 1))


def min_physical_hosts(
    policy: MirrorPolicy | None, primaries_per_unit: ArrayLike, block_hosts: int | None = None
) -> IntArray:
    """The fewest physical segment hosts the policy can be built on (per candidate).

    group: 2 (a mirror never shares its primary's host); spread: primaries per segment host + 1
    (gpinitsystem refuses spread otherwise); block: the block size (one segment host of a block
    per physical host).

    >>> min_physical_hosts("spread", [8, 16]).tolist()
    [9, 17]
    >>> int(min_physical_hosts("block", 8, 4))
    4
    """
    p = np.asarray(primaries_per_unit, dtype=np.int64)
    if policy is None:
        return np.ones_like(p)
    if policy == "group":
        return np.full_like(p, 2)
    if policy == "spread":
        return p + 1
    return np.full_like(p, max(int(block_hosts or 2), 2))


def round_hosts(
    policy: MirrorPolicy | None, hosts: ArrayLike, units_per_host: ArrayLike, block_hosts: int | None = None
) -> IntArray:
    """Physical host counts rounded up so the segment hosts fill whole blocks (block policy only).

    >>> round_hosts("block", [5, 8], 1, 4).tolist()
    [8, 8]
    >>> round_hosts("block", [3], 2, 4).tolist()  # 2 VMs per host: 4 VMs per block need 2 hosts
    [4]
    >>> round_hosts("group", [3], 2).tolist()
    [3]
    """
    h = np.asarray(hosts, dtype=np.int64)
    if policy != "block":
        return h
    b = max(int(block_hosts or 2), 2)
    v = np.asarray(units_per_host, dtype=np.int64)
    step = b // np.gcd(b, v)
    rounded: IntArray = -(-h // step) * step
    return rounded


@dataclass(frozen=True)
class Failover:
    """What one physical-host failure does to the design, and the rules that make it so."""

    policy: MirrorPolicy | None
    block_hosts: int | None
    acting_primaries: int  # per segment host (VM on vSphere) after the worst failure
    rationale: tuple[Rationale, ...]


def failover(
    policy: MirrorPolicy | None,
    primaries_per_unit: int,
    units_per_host: int,
    physical_hosts: int,
    virtual: bool,
    block_hosts: int | None = None,
) -> Failover:
    """The acting primaries after a physical-host failure, with the placement rule stated."""
    acting = max_acting_primaries(policy, primaries_per_unit, physical_hosts, block_hosts)
    p = primaries_per_unit
    why: list[Rationale] = []
    unit = "VM" if virtual else "host"
    if policy is None:
        why.append(Rationale(
            "Mirroring", "No mirrors: a failed host takes its segments' data offline until it is repaired.",
            _cite("gp_min_segment_hosts_with_mirrors"),
        ))
        return Failover(None, None, acting, tuple(why))
    if policy == "group":
        text = (
            f"Group mirroring (gpinitsystem's default): the {p} mirrors of a segment {unit} sit together on one other"
            f" {unit}; when a host fails, that {unit} runs {p} + {p} = {acting} primaries."
        )
        src = _cite("gp_mirror_group_default")
    elif policy == "spread":
        text = (
            f"Spread mirroring (gpinitsystem -M spread): each of a segment {unit}'s {p} mirrors on a different"
            f" {unit}, so a failure adds ceil({p} / ({physical_hosts} - 1)) = {acting - p} primary to each survivor:"
            f" {acting} at most. Spread needs more hosts than primaries per {unit} ({p + 1} or more)."
        )
        src = _cite("gp_mirror_spread_min_hosts")
    else:
        b = max(int(block_hosts or 2), 2)
        text = (
            f"Block mirroring in blocks of {b} segment {unit}s (a mirror configuration file for gpinitsystem -I or"
            f" gpaddmirrors -i): a {unit}'s {p} mirrors spread over the other {b - 1} of its block, so a failure"
            f" adds ceil({p} / {b - 1}) = {acting - p}: {acting} acting primaries. The segment {unit} count is a"
            f" multiple of {b}."
        )
        src = _cite("gp_max_acting_primary_block_example")
    why.append(Rationale("Mirroring", text, src + "; " + _cite("gp_vmem_max_acting_primaries")))
    if virtual:
        why.append(Rationale(
            "Mirror anti-affinity",
            f"On vSphere a physical host failure takes its {units_per_host} segment VM(s) at once, so a primary and"
            f" its mirror must never share a physical host: list the segment VMs round-robin over the"
            f" {physical_hosts} physical hosts in the gpinitsystem host file (VM k on physical host k mod"
            f" {physical_hosts}) and add a DRS VM-VM anti-affinity rule for each primary VM and the VM holding its"
            f" mirrors. Then a physical failure still leaves each surviving VM with at most {acting} primaries.",
            _cite("gp_mirror_other_host") + "; " + _cite("vsphere_drs_anti_affinity"),
        ))
    return Failover(policy, block_hosts, acting, tuple(why))


def floor_reason(
    policy: MirrorPolicy | None, primaries_per_unit: int, floor_hosts: int, data_hosts: int, virtual: bool,
    block_hosts: int | None = None,
) -> str:
    """Why a design has `floor_hosts` physical hosts where its data needs only `data_hosts`: the policy's minimum.

    >>> floor_reason("spread", 16, 17, 2, False)
    'spread mirroring needs more segment hosts than primaries per host (16 + 1 = 17); group mirroring would need 2'
    >>> floor_reason("block", 8, 8, 5, False, 4)
    'block mirroring fills whole blocks of 4 segment hosts: 8'
    """
    unit = "VM" if virtual else "host"
    if policy == "spread":
        hosts = "physical hosts" if virtual else "segment hosts"
        return (f"spread mirroring needs more {hosts} than primaries per {unit} ({primaries_per_unit} + 1 ="
                f" {floor_hosts}); group mirroring would need {max(data_hosts, 2)}")
    if policy == "block":
        b = max(int(block_hosts or 2), 2)
        return f"block mirroring fills whole blocks of {b} segment {unit}s: {floor_hosts}"
    return f"{policy} mirroring keeps a host's mirrors on another host: {floor_hosts}"

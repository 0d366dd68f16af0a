"""Licensed cores that carry no work: per-core licences are priced on every core of a host, while the design may
run its work on fewer (a Greenplum segment host with fewer primaries than its cores take: `models.sizing.engine`
says which cores each kind keeps at work). The warning names the yearly cost of those cores and the catalog CPU with the
fewest cores that still runs the work, so the architect can take a smaller CPU (or more work per host).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from models.hardware import Cpu, HardwareCatalog, Licence
from models.money import cents, total
from models.sizing.infrastructure import host_groups
from models.sizing.result import BomLine, SizingResult, Warning


@dataclass(frozen=True)
class Work:
    """`hosts` hosts of BOM role `role` keep `busy_cores` cores each at work; `why` says what counts them."""

    role: str
    hosts: int
    busy_cores: float
    why: str


def per_core_licences(bom: Sequence[BomLine], catalog: HardwareCatalog) -> list[tuple[BomLine, Licence]]:
    """The BOM's licence lines counted per core, with their catalog licence."""
    out: list[tuple[BomLine, Licence]] = []
    for ln in bom:
        if ln.kind == "licence" and ln.part_id in catalog:
            lic = catalog.get(ln.part_id, "licence")
            if isinstance(lic, Licence) and lic.metric == "core":
                out.append((ln, lic))
    return out


def licensed_cores(lic: Licence, sockets: int, cores_per_cpu: int) -> int:
    """Cores a host is licensed for: every core of every CPU, at least the licence's minimum per CPU.

    >>> from datetime import date
    >>> vs = Licence("v", "B", "vS", 1.0, "USD", date(2026, 1, 1), "x", metric="core", term="annual",
    ...              applies_to="vsphere", min_cores_per_cpu=16, min_units=0)
    >>> licensed_cores(vs, 2, 12), licensed_cores(vs, 2, 92)
    (32, 184)
    """
    return sockets * max(cores_per_cpu, lic.min_cores_per_cpu)


def smaller_cpu(catalog: HardwareCatalog, current: Cpu, cores_per_cpu: int) -> Cpu | None:
    """The catalog CPU of the same vendor with the fewest cores that still has `cores_per_cpu`, if it has fewer
    cores than `current`."""
    fits = [c for c in catalog.current(catalog.cpus)
            if c.vendor == current.vendor and cores_per_cpu <= c.cores < current.cores]
    return min(fits, key=lambda c: (c.cores, c.price, c.id)) if fits else None


def idle_core_warnings(result: SizingResult, work: Sequence[Work], catalog: HardwareCatalog) -> list[Warning]:
    """One warning per role whose per-core licences count cores its work leaves idle: the cores, their cost per
    year (subscriptions; a perpetual licence's one-time price said apart) and the CPU that would avoid it. Only the
    cores a CPU just big enough for the work would not bring count: a licence's minimum per CPU (vSphere's 16)
    is paid whatever the CPU."""
    lines = per_core_licences(result.bom, catalog)
    groups = {g.role: g for g in host_groups(result.bom, catalog)}
    out: list[Warning] = []
    for w in work:
        g = groups.get(w.role)
        if lines and g is not None and w.hosts > 0:
            out += _role_warning(w, g.server.sockets, g.server.cpu, lines, catalog, result.totals.currency)
    return out


def _role_warning(w: Work, sockets: int, cpu: Cpu, lines: Sequence[tuple[BomLine, Licence]],
                  catalog: HardwareCatalog, cur: str) -> list[Warning]:
    busy = math.ceil(w.busy_cores - 1e-9)
    need = max(1, math.ceil(busy / sockets))  # cores per CPU the work needs

    def idle(lic: Licence, cores: int) -> int:  # licensed cores per host beyond those of a just-big-enough CPU
        return max(0, licensed_cores(lic, sockets, cores) - licensed_cores(lic, sockets, need))

    yearly = total(cents(idle(lic, cpu.cores) * w.hosts * ln.unit_price) for ln, lic in lines if ln.recurring)
    once = total(cents(idle(lic, cpu.cores) * w.hosts * ln.unit_price) for ln, lic in lines if not ln.recurring)
    per_host = max(idle(lic, cpu.cores) for _, lic in lines)
    if not per_host:
        return []
    alt = smaller_cpu(catalog, cpu, need)
    if alt is not None:
        saved = total(cents((idle(lic, cpu.cores) - idle(lic, alt.cores)) * w.hosts * ln.unit_price)
                      for ln, lic in lines if ln.recurring)
        avoid = (f" The {alt.vendor} {alt.model} ({alt.cores} cores) in place of the {cpu.model} ({cpu.cores} cores)"
                 f" runs the same work on fewer licensed cores" + (f", {saved:,.0f} {cur} a year less." if saved
                                                                   else "."))
    else:
        avoid = (f" The catalog has no {cpu.vendor} CPU with fewer cores than the {cpu.model} and at least {need}:"
                 " more work per host (or a smaller CPU added to the catalog) would avoid it.")
    cost = " and ".join([f"{yearly:,.0f} {cur} a year"] * bool(yearly) + [f"{once:,.0f} {cur} once"] * bool(once))
    return [Warning(
        "licensed-cores-idle",
        f"Each {w.role} is licensed per core for its {sockets} x {cpu.cores} cores while {w.why} keep {busy} at"
        f" work: {per_host} licensed cores per host, {per_host * w.hosts:,} on the {w.hosts} hosts, carry none, at"
        f" {cost}.{avoid}", "warning", "platform.server_id")]

"""A server as procurement orders it: configured to order, with what it needs to run and to hang in a rack.

For every group of hosts the BOM lists (its `server` line), after the sizer's own lines:
- the CPUs and the base memory DIMMs, itemised with their part numbers (their price is in the server's configured
  price, so the lines carry none of their own);
- a storage controller where the data drives need one: SAS and SATA drives (in SAS/SATA or U.3 tri-mode bays)
  hang off a controller; a RAID level in hardware needs a RAID controller, no RAID (or vSAN, which must see the
  drives) an HBA that passes them through; NVMe drives attach to the CPUs' PCIe lanes directly and need none;
- a rail kit for the chassis and a power cord per power supply, rated for the supply's input current;
- with `commercial.installation_services`, the vendor's installation service per server (an optional line).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from models.calibration_data import figure, point
from models.hardware import Accessory, Controller, Dimm, Drive, HardwareCatalog, Server
from models.release_words import role_label
from models.scenario import Scenario
from models.sizing import bom, controller_fit
from models.sizing.infrastructure import PSUS_PER_HOST
from models.sizing.result import SCENARIO_WIDE, BomLine, Rationale, Warning
from models.vocabulary import RAIDS

DOCS = "vendor_docs"
IN_SERVER_PRICE = "in the server's configured price"


@dataclass
class HostParts:
    lines: list[BomLine] = field(default_factory=list)  # the BOM with each group's parts after its own lines
    rationale: list[Rationale] = field(default_factory=list)
    warnings: list[Warning] = field(default_factory=list)
    watts: float = 0.0  # the controllers' draw, all hosts


def cord_amps_needed(psu_w: float) -> float:
    """The current a power supply draws at full load on the lowest high-line voltage, amperes: what its cord must
    be rated for (vendor_docs.json `psu_min_line_v`, `psu_full_load_efficiency`).

    >>> round(cord_amps_needed(1500), 1), round(cord_amps_needed(2400), 1)
    (8.3, 13.3)
    """
    return psu_w / figure(DOCS, "psu_full_load_efficiency") / figure(DOCS, "psu_min_line_v")


# DDR5 x86 sockets have 8 (Intel Xeon) or 12 (AMD EPYC 9004/9005) memory channels: a socket with more slots than
# that has two per channel (16 = 8 x 2, 24 = 12 x 2).
MAX_CHANNELS_PER_SOCKET = 12


def channels_per_socket(server: Server) -> int:
    """Memory channels of one socket as its DIMM slots tell them: two slots per channel above 12 slots.

    >>> from datetime import date
    >>> def s(slots, sockets): return Server("s", "v", "m", 1.0, "USD", date(2026, 1, 1), "s", "1U", 1, sockets,
    ...                                      None, 1, 512, slots, 10, "U.3", 2, 1500, 250, 820)
    >>> channels_per_socket(s(32, 2)), channels_per_socket(s(24, 2)), channels_per_socket(s(24, 1))
    (8, 12, 12)
    """
    slots = server.dimm_slots // server.sockets
    return slots // 2 if slots > MAX_CHANNELS_PER_SOCKET else slots


def base_dimms(server: Server, dimms: Sequence[Dimm], added: Dimm | None) -> tuple[Dimm, int] | None:
    """The DIMMs the server's base memory is built from: the DIMM the design adds when it adds any (the base is
    counted in the same DIMMs), else the server's generation's DIMM that puts one module on every memory channel,
    else the one that builds it from the most modules within the slots; the same number on every socket (None when
    no catalog DIMM builds it exactly).

    >>> from datetime import date
    >>> def d(gib): return Dimm(f"d{gib}", "v", f"{gib} GiB", 100.0, "USD", date(2026, 1, 1), "s", gib, 4800,
    ...                           memory_type="DDR5")
    >>> s = Server("s", "v", "m", 1.0, "USD", date(2026, 1, 1), "s", "1U", 1, 2, None, 1, 1024, 32, 10, "U.3", 2,
    ...            1500, 250, 820, memory_type="DDR5")
    >>> [(m.size_gib, n) for m, n in [base_dimms(s, [d(32), d(64), d(128)], None)]]
    [(64, 16)]
    >>> [(m.size_gib, n) for m, n in [base_dimms(s, [d(32), d(128)], None)]]
    [(32, 32)]
    >>> base_dimms(s, [d(96)], None) is None
    True
    """
    pool = [added] if added is not None else [d for d in dimms if server.takes(d)]
    fits = [(d, server.memory_gib // d.size_gib) for d in pool
            if server.memory_gib % d.size_gib == 0 and server.memory_gib // d.size_gib <= server.dimm_slots
            and (server.memory_gib // d.size_gib) % server.sockets == 0]
    channels = channels_per_socket(server) * server.sockets
    return max(fits, key=lambda dn: (dn[1] == channels, dn[1], -dn[0].price, dn[0].id)) if fits else None


FitPart = TypeVar("FitPart", Controller, Accessory)


def _for_vendor(parts: Sequence[FitPart], vendor: str) -> list[FitPart]:
    """The server vendor's own parts, else the ones for any vendor ("*")."""
    own = [p for p in parts if p.applies_to.lower() == vendor.lower()]
    return own or [p for p in parts if p.applies_to == "*"]


def controller_choice(catalog: HardwareCatalog, server: Server, interface: str, raid: str
                      ) -> tuple[Controller | None, controller_fit.Choice]:
    """The cheapest controller for the drives among those that fit the server best (`controller_fit.candidates`:
    the vendor's made for it, else the vendor's of unknown fit, else standard adapters): one that builds `raid` in
    hardware for a RAID level; for none or vSAN an HBA that passes the drives through, else a RAID card in
    pass-through mode."""
    cards = [c for c in catalog.current(catalog.controllers) if c.drives_interface(interface)]
    in_hardware = raid in RAIDS and raid != "none"
    if in_hardware:
        cards = [c for c in cards if c.builds(raid)]
    choice = controller_fit.candidates(cards, server)

    def key(c: Controller) -> tuple[bool, float, int, str]:  # for no RAID an HBA first, then the cheapest
        return in_hardware or bool(c.raid_levels), c.price, -c.max_drives, c.id

    return (min(choice.cards, key=key) if choice.cards else None), choice


def choose_controller(catalog: HardwareCatalog, server: Server, interface: str, raid: str) -> Controller | None:
    """`controller_choice`'s card."""
    return controller_choice(catalog, server, interface, raid)[0]


def choose_accessory(catalog: HardwareCatalog, server: Server, use: str, amps: float = 0.0) -> Accessory | None:
    """The server vendor's (else a generic) rails for its height, cord rated for `amps`, or installation service."""
    fit = [a for a in catalog.current(catalog.accessories) if a.use == use and a.amps >= amps
           and a.rack_u in (0, server.rack_u)]
    pool = _for_vendor(fit, server.vendor)
    # rails made for the chassis height before any-height kits; the cheapest, then the lowest rating that fits
    return min(pool, key=lambda a: (a.rack_u != server.rack_u, a.price, a.amps, a.id)) if pool else None


@dataclass(frozen=True)
class _Group:
    role: str
    server: Server
    hosts: int
    raid: str
    lines: tuple[BomLine, ...]  # the role's own lines


def _in_server(ln: BomLine, server_line: BomLine) -> BomLine:
    """A line priced in the server's line takes that line's price basis, date and quote: its price is the
    server's (a quoted server's CPUs are quoted with it)."""
    return dataclasses.replace(ln, price_basis=server_line.price_basis, price_as_of=server_line.price_as_of,
                               quote=server_line.quote)


def _cto_lines(g: _Group, catalog: HardwareCatalog, server_line: BomLine) -> list[BomLine]:
    """The server's CPUs and base DIMMs as lines of their own, priced in the server line."""
    free = bom.Terms(note=IN_SERVER_PRICE, unit_price=0.0, included=True)
    cpu = catalog.get(g.server.cpu.id) if g.server.cpu.id in catalog else g.server.cpu
    out = [bom.line(g.role, cpu, g.server.sockets, g.hosts, "cpu", free)]
    added = next((catalog.get(ln.part_id) for ln in g.lines if ln.kind == "dimm" and ln.part_id in catalog), None)
    base = base_dimms(g.server, catalog.current(catalog.dimms), added if isinstance(added, Dimm) else None)
    if base is not None:
        dimm, n = base
        extra = sum(ln.qty_per_host for ln in g.lines if ln.kind == "dimm")
        # its own kind: the base DIMMs come with the server ("dimm" lines are the ones a design adds)
        out.append(bom.line(g.role, dimm, n, g.hosts, "base-dimm", bom.Terms(
            note=f"base memory, {IN_SERVER_PRICE}; {n + extra} of {g.server.dimm_slots} slots with the added DIMMs,"
                 f" {(n + extra) // g.server.sockets} per socket", unit_price=0.0, included=True)))
    return [_in_server(ln, server_line) for ln in out]


def _controller_lines(g: _Group, catalog: HardwareCatalog, out: HostParts) -> list[BomLine]:
    drives = [(ln, catalog.get(ln.part_id)) for ln in g.lines if ln.kind == "drive" and ln.part_id in catalog]
    wired = [(ln, d) for ln, d in drives if isinstance(d, Drive) and not d.interface.startswith("NVMe")]
    if not wired:
        return []
    interface = next(d.interface for _, d in wired if isinstance(d, Drive))
    count = sum(ln.qty_per_host for ln, _ in wired)
    card, choice = controller_choice(catalog, g.server, interface, g.raid)
    if card is None:
        out.warnings.append(Warning("no-controller", f"The catalog has no {interface} controller for {g.server.vendor}"
                                                     f" {g.server.model}" + _others(choice, g.server) + f": the "
                                                     f"{g.role}s' drive controller is not in the BOM.", "warning",
                                    SCENARIO_WIDE, internal="refarch catalog seed brings the bundled ones."))
        return []
    said = _fit_warning(choice, card, g)
    if said is not None:
        out.warnings.append(said)
    cards = math.ceil(count / card.max_drives)
    mode = (f"builds {RAIDS[g.raid].label}" if card.raid_levels and g.raid in RAIDS and g.raid != "none"
            else "passes the drives through")
    out.watts += cards * g.hosts * card.watts
    return [bom.line(g.role, card, cards, g.hosts, "controller", bom.Terms(
        note=f"{count} {interface} drives per host, {card.max_drives} per card; {mode}"))]


def _others(choice: controller_fit.Choice, server: Server) -> str:
    return f" (its {server.vendor} controllers are made for other servers)" if choice.vendor_has_cards else ""


def _fit_warning(choice: controller_fit.Choice, card: Controller, g: _Group) -> Warning | None:
    """What the BOM's controller leaves to check: a vendor card whose servers the catalog does not state, or a
    standard adapter where the vendor's own cards are made for other servers."""
    server = f"{g.server.vendor} {g.server.model}"
    # no role in the text: a server playing two roles on the same card is said once
    if choice.how == "unknown":
        return Warning("controller-fit", f"The {card.vendor} {card.model} in the {server} is listed although the "
                                         "catalog does not state which servers it is made for: confirm it fits this "
                                         "server before ordering.", "warning", SCENARIO_WIDE,
                       internal="Its servers field in the catalog is empty: set it once the vendor's documents "
                                "list the servers (refarch catalog import).")
    if choice.how == "standard" and choice.vendor_has_cards:
        return Warning("controller-fit", f"The catalog has no {g.server.vendor} controller made for the {server}"
                                         f"{_others(choice, g.server)}: its drives are on the {card.vendor} "
                                         f"{card.model}, a standard PCIe adapter; ask {g.server.vendor} for this "
                                         "server's controller or confirm it supports the adapter.", "warning",
                       SCENARIO_WIDE)
    return None


def _rack_lines(g: _Group, catalog: HardwareCatalog, out: HostParts) -> list[BomLine]:
    lines: list[BomLine] = []
    rails = choose_accessory(catalog, g.server, "rails")
    if rails is not None:
        lines.append(bom.line(g.role, rails, 1, g.hosts, "rails", bom.Terms(note=f"{g.server.rack_u}U chassis")))
    amps = cord_amps_needed(g.server.psu_w)
    cord = choose_accessory(catalog, g.server, "power-cord", amps)
    if cord is not None:
        lines.append(bom.line(g.role, cord, PSUS_PER_HOST, g.hosts, "power-cord", bom.Terms(
            note=f"one per {g.server.psu_w:g} W power supply ({amps:.1f} A at full load, cord rated {cord.amps:g} A)")))
    missing = [what for what, part in (("rail kit", rails), (f"power cord rated {amps:.1f} A or more", cord))
               if part is None]
    said = Warning("no-accessory", f"The catalog has no {' or '.join(missing)} for {g.server.vendor} "
                   f"{g.server.model}: not in the BOM (refarch catalog seed brings the bundled ones).", "warning",
                   SCENARIO_WIDE)
    if missing and said not in out.warnings:  # said once per server, whatever the roles it plays
        out.warnings.append(said)
    return lines


def _service_lines(groups: Sequence[_Group], catalog: HardwareCatalog) -> list[BomLine]:
    """One installation line per service, over every server it installs (its roles in the note)."""
    by_service: dict[str, tuple[Accessory, list[_Group]]] = {}
    for g in groups:
        service = choose_accessory(catalog, g.server, "installation")
        if service is not None:
            by_service.setdefault(service.id, (service, []))[1].append(g)
    return [bom.line("installation", service, 1, sum(g.hosts for g in served), "installation", bom.Terms(
        "services", note="optional, per server: " + ", ".join(f"{g.hosts} {g.role}(s)" for g in served)))
        for service, served in by_service.values()]


def _groups(lines: Sequence[BomLine], catalog: HardwareCatalog, raid_by_role: dict[str, str]) -> list[_Group]:
    out = []
    for ln in lines:
        if ln.kind == "server" and ln.hosts > 0 and ln.part_id in catalog:
            server = catalog.get(ln.part_id)
            assert isinstance(server, Server)
            own = tuple(x for x in lines if x.role == ln.role and x.category == "compute")
            out.append(_Group(ln.role, server, ln.hosts, raid_by_role.get(ln.role, "none"), own))
    return out


def plan(lines: Sequence[BomLine], catalog: HardwareCatalog, scenario: Scenario,
         raid_by_role: dict[str, str]) -> HostParts:
    """The BOM with each host group's CPUs, base DIMMs, controller, rails, cords (and installation) after it."""
    out = HostParts()
    groups = {g.role: g for g in _groups(lines, catalog, raid_by_role)}
    for ln in lines:
        out.lines.append(ln)
        g = groups.get(ln.role)
        if g is not None and ln.kind == "server":
            out.lines += _cto_lines(g, catalog, ln)  # the CPUs and base DIMMs right after the chassis
        if g is None or ln is not g.lines[-1]:
            continue  # the controller, rails, cords and service follow the group's last own line
        out.lines += _controller_lines(g, catalog, out) + _rack_lines(g, catalog, out)
    if scenario.commercial.installation_services:
        out.lines += _service_lines(list(groups.values()), catalog)
    if groups:
        out.rationale.append(_rationale(out.lines, getattr(scenario.workload, "greenplum_version", None)))
    return out


def _rationale(lines: Sequence[BomLine], version: str | None) -> Rationale:
    """Why each server is built as listed; a role in the words of the Greenplum release `version` (its master)."""
    controllers = [ln for ln in lines if ln.kind == "controller"]
    how = ("SAS and SATA drives hang off a storage controller (" + "; ".join(
        f"{role_label(ln.role, version)}: {ln.description}, {ln.note}" for ln in controllers) + ")") if controllers \
        else "The data drives need no controller (NVMe attaches to the CPUs' PCIe lanes; RAID, if any, in software)"
    return Rationale(
        "Server build",
        f"Each server is listed as ordered: chassis, CPUs and base DIMMs ({IN_SERVER_PRICE}), added DIMMs, data "
        f"drives and NICs. {how}. A rail kit per server and a power cord per power supply, rated for the supply's "
        f"input at full load ({figure(DOCS, 'psu_full_load_efficiency') * 100:.0f} % efficient at "
        f"{figure(DOCS, 'psu_min_line_v'):g} V).",
        f"catalog; {point(DOCS, 'psu_full_load_efficiency').source.cite()}; "
        f"{point(DOCS, 'psu_min_line_v').source.cite()}")

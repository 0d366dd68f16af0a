"""What the hosts need around them: boot drives, leaf/spine switches with cables and optics, racks and PDUs.

Generic over what a design lists: every BOM line of kind `server` is a group of hosts (its role's other
lines give each host's drives and NICs), whatever sizer produced it.

Rules (each is the usual practice of a two-tier leaf-spine Ethernet fabric, and is stated in the rationale):
- Every host port lands on a leaf switch of the host's speed; leaves come in pairs (MLAG), one pair per
  rack at least, so a host's two ports go to two switches and a switch failure leaves every host connected.
- A leaf carries `d` host ports and `u` uplinks with d x host speed <= oversubscription x u x uplink speed
  (1:1 by default: Greenplum's interconnect moves data between all segments at once).
- More than one leaf pair: uplinks go to a spine pair (or more) in the first rack. One leaf pair: two
  uplinks per leaf to the customer's core (their optics are not ours to price).
- Cables: a DAC per host port and per link inside a rack; between racks two transceivers and a fibre.
- Racks are filled host by host up to their U and the rack power budget (peak draw: server max_w plus
  drives and NICs at their rating, switches at theirs). PDUs come in A/B pairs, each feed able to carry
  the whole rack, with an outlet per power supply.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from models.calibration_data import figure, point
from models.hardware import Cable, Controller, Drive, HardwareCatalog, Nic, Server, Switch
from models.scenario import Commercial
from models.sizing import bom, controller_fit, management
from models.sizing.rack_choice import RackChoice, rack_choice
from models.sizing.result import SCENARIO_WIDE, BomLine, RackLayout, RackSlot, Rationale, Warning

DOCS = "vendor_docs"  # the boot drive minimum (resources/calibration/vendor_docs.json)
PSUS_PER_HOST = 2  # redundant supplies, one per feed
CORE_UPLINKS_PER_LEAF = 2
MAX_RACKS = 500  # bounded answers: a design needing more is reported, not drawn


@dataclass(frozen=True)
class HostGroup:
    role: str
    server: Server
    hosts: int
    peak_w_per_host: float
    ports_per_host: int
    speed_gbps: float


@dataclass
class Infrastructure:
    lines: list[BomLine] = field(default_factory=list)
    racks: list[RackLayout] = field(default_factory=list)
    rationale: list[Rationale] = field(default_factory=list)
    warnings: list[Warning] = field(default_factory=list)
    network_w: float = 0.0  # switches and optics, drawn all the time


def host_groups(lines: Sequence[BomLine], catalog: HardwareCatalog) -> list[HostGroup]:
    groups = []
    for ln in lines:
        if ln.kind != "server" or ln.hosts <= 0:
            continue
        server = catalog.get(ln.part_id, "server")
        assert isinstance(server, Server)
        watts, ports, speed = server.max_w, 0, 0.0
        for other in lines:
            if other.role != ln.role or other is ln:
                continue
            part = catalog.get(other.part_id) if other.part_id in catalog else None
            if isinstance(part, Drive):
                watts += other.qty_per_host * part.watts
            elif isinstance(part, Nic):
                watts += other.qty_per_host * part.watts
                ports += other.qty_per_host * part.ports
                speed = max(speed, part.speed_gbps)
            elif isinstance(part, Controller):
                watts += other.qty_per_host * part.watts
        groups.append(HostGroup(ln.role, server, ln.hosts, watts, ports, speed))
    return groups


# --- boot drives ------------------------------------------------------------------------------------


def boot_min_tb() -> float:
    """The smallest boot drive picked, decimal TB (vendor_docs.json `boot_drive_min_tb`).

    >>> f"{boot_min_tb() * 1000:g} GB"
    '240 GB'
    """
    return figure(DOCS, "boot_drive_min_tb")


def boot_lines(groups: Sequence[HostGroup], catalog: HardwareCatalog, commercial: Commercial,
               out: Infrastructure, hypervisor: bool = True) -> None:
    wanted = [g for g in groups if g.server.os_drives > 0]
    if not wanted:
        return
    min_gb = boot_min_tb() * 1000
    why = ""
    if commercial.boot_drive_id:
        drive = catalog.drive(commercial.boot_drive_id)
    else:
        pool = [d for d in catalog.current(catalog.drives) if d.capacity_tb * 1000 >= min_gb]  # min_gb: looked up once
        m2 = [d for d in pool if d.form_factor == "M.2"]
        choice = m2 or [d for d in pool if d.interface == "SATA"]
        if not choice:
            out.warnings.append(Warning("no-boot-drive", f"The catalog has no boot drive (M.2 or SATA, {min_gb:g} GB"
                                                         " or more): the servers' boot drives are not priced.",
                                        "warning", "commercial.boot_drive_id"))
            return
        drive = min(choice, key=lambda d: (d.price, -d.capacity_tb))
        gb = figure(DOCS, "esxi_system_storage_max_gb")  # bare metal boots Linux: say so, keep ESXi's drive class
        why = (f" The cheapest M.2 (else SATA) drive of {min_gb:g} GB or more: the ESXi system volumes take up to"
               f" {gb:g} GB{'' if hypervisor else ' (the class taken for every host: here it holds a Linux install)'},"
               " and the rest holds logs and core dumps.")
    modules: list[str] = []
    for g in wanted:
        n = g.server.os_drives
        note = "boot, mirrored" if n == 2 else "boot"
        # its own kind: boot devices are not data drives (drive counts, vSAN cache/capacity read "drive" lines)
        out.lines.append(bom.line(g.role, drive, n, g.hosts, "boot-drive", bom.Terms(note=note)))
        module = boot_module(catalog, g.server) if drive.form_factor == "M.2" else None
        if module is not None:
            modules.append(f"{module.vendor} {module.model}")
            mode = "RAID 1 in hardware" if module.builds("raid1") and n == 2 else "passed through"
            # its own kind, as the boot drives': "controller" lines are the data drives' controllers
            out.lines.append(bom.line(g.role, module, math.ceil(n / module.max_drives), g.hosts, "boot-module",
                                      bom.Terms(note=f"boot module for the {n} M.2 drive(s), {mode}")))
    out.rationale.append(Rationale(
        "Boot drives", f"{drive.vendor} {drive.model} as each server's boot device(s), as many as its OS drive "
        f"slots (two: a mirrored pair, so a failed boot device does not take the host down).{why}"
        + (f" M.2 drives sit on the server vendor's boot module ({', '.join(sorted(set(modules)))})." if modules
           else ""),
        "catalog" + (f"; {point(DOCS, 'boot_drive_min_tb').source.cite()}" if why else "")))


def boot_module(catalog: HardwareCatalog, server: Server) -> Controller | None:
    """The server vendor's module its M.2 boot drives sit on (Dell BOSS, HPE NS204i), the cheapest; None where the
    catalog has none for the vendor (M.2 slots on the board)."""
    own = [c for c in catalog.current(catalog.controllers) if c.drives_interface("M.2")
           and c.applies_to.lower() == server.vendor.lower() and controller_fit.fit(c, server) != "other"]
    return min(own, key=lambda c: (c.price, c.id)) if own else None


# --- network ----------------------------------------------------------------------------------------


def downlinks(switch: Switch, oversubscription: float) -> tuple[int, int]:
    """Host ports and uplinks one leaf carries at the oversubscription ratio.

    >>> from datetime import date
    >>> sw = Switch("s", "V", "M", 1.0, "USD", date(2026, 1, 1), "x", ports=48, speed_gbps=25, uplink_ports=8,
    ...             uplink_speed_gbps=100, rack_u=1, watts=200)
    >>> downlinks(sw, 1.0), downlinks(sw, 3.0)
    ((32, 8), (48, 4))
    >>> flat = Switch("f", "V", "M", 1.0, "USD", date(2026, 1, 1), "x", ports=32, speed_gbps=100, uplink_ports=0,
    ...               uplink_speed_gbps=100, rack_u=1, watts=200)
    >>> downlinks(flat, 1.0)
    (16, 16)
    """
    up_speed = switch.uplink_speed_gbps
    for d in range(switch.ports, 0, -1):
        u = math.ceil(d * switch.speed_gbps / (oversubscription * up_speed))
        if (switch.uplink_ports and u <= switch.uplink_ports) or (not switch.uplink_ports and d + u <= switch.ports):
            return d, u
    return 0, 0


def _cheapest_cable(catalog: HardwareCatalog, medium: str, speed: float) -> Cable | None:
    fits = [c for c in catalog.current(catalog.cables) if c.medium == medium and c.speed_gbps >= speed]
    if not fits:
        return None
    exact = [c for c in fits if c.speed_gbps == min(f.speed_gbps for f in fits)]
    return min(exact, key=lambda c: c.price)


def choose_leaf(catalog: HardwareCatalog, commercial: Commercial, speed: float, host_ports: int = 1) -> Switch | None:
    """The named leaf, else the one whose pairs carry `host_ports` for the least money (then per port)."""
    if commercial.switch_id:
        sw = catalog.get(commercial.switch_id, "switch")
        assert isinstance(sw, Switch)
        return sw
    fits = [s for s in catalog.current(catalog.switches) if s.speed_gbps == speed]
    usable = [(s, downlinks(s, commercial.network_oversubscription)[0]) for s in fits]
    usable = [(s, d) for s, d in usable if d > 0]

    def cost(sd: tuple[Switch, int]) -> tuple[float, float, float]:
        sw, d = sd
        return (2 * _pairs_for(max(host_ports, 1), d) * sw.price, sw.price / d, sw.price)

    return min(usable, key=cost)[0] if usable else None


def choose_spine(catalog: HardwareCatalog, commercial: Commercial, speed: float) -> Switch | None:
    if commercial.spine_switch_id:
        sw = catalog.get(commercial.spine_switch_id, "switch")
        assert isinstance(sw, Switch)
        return sw
    fits = [s for s in catalog.current(catalog.switches) if s.speed_gbps == speed and not s.uplink_ports]
    return min(fits, key=lambda s: (s.price / s.ports, s.price)) if fits else None


@dataclass
class _RackFill:
    hosts: list[HostGroup] = field(default_factory=list)  # one entry per host
    ports: int = 0
    pairs: int = 0
    spines: int = 0

    def management_ports(self) -> int:
        """The BMC ports of its servers and the management ports of its data switches."""
        return len(self.hosts) * management.BMC_PORTS_PER_SERVER + 2 * self.pairs + self.spines


@dataclass(frozen=True)
class Fabric:
    """The switches racks are packed with: the leaf model and its host ports, the spines and the management
    switch (1 GbE, sized per rack by its management ports)."""

    leaf: Switch | None
    per_switch: int
    spine: Switch | None = None
    spines: int = 0
    mgmt: Switch | None = None

    def mgmt_switches(self, rack: _RackFill) -> int:
        return management.switches_for(rack.management_ports(), self.mgmt)


def _pairs_for(ports: int, per_switch: int) -> int:
    return max(1, math.ceil(ports / (2 * per_switch))) if per_switch else 0


def pack(groups: Sequence[HostGroup], rack_u: int, budget_w: float, fabric: Fabric, pdu_u: int) -> list[_RackFill]:
    """Hosts into racks in BOM order: a new rack when the next host would break U or the power budget.

    Spines share the first rack when it still takes a host with them, else they get rack(s) of their own.
    """
    leaf, per_switch, spine, spines, mgmt = fabric.leaf, fabric.per_switch, fabric.spine, fabric.spines, fabric.mgmt
    racks = [_RackFill(spines=spines)]
    first = groups[0]
    # a rack of spines (with or without a host) has its management switch too
    mgmt_u, mgmt_w = (mgmt.rack_u, mgmt.watts) if mgmt is not None else (0, 0.0)
    host_u = first.server.rack_u + (2 * leaf.rack_u if leaf else 0) + pdu_u + mgmt_u
    host_w = first.peak_w_per_host + (2 * leaf.watts if leaf else 0.0) + mgmt_w
    if spine is not None and spines and (spines * spine.rack_u + host_u > rack_u
                                         or spines * spine.watts + host_w > budget_w):
        per_rack = max(1, min((rack_u - pdu_u - mgmt_u) // spine.rack_u, int((budget_w - mgmt_w) // spine.watts)))
        racks = [_RackFill(spines=min(per_rack, spines - i)) for i in range(0, spines, per_rack)]
        racks.append(_RackFill())

    def fits(r: _RackFill, g: HostGroup) -> bool:
        hosts = [*r.hosts, g]
        ports = r.ports + g.ports_per_host
        pairs = _pairs_for(ports, per_switch) if leaf and ports else 0
        u = sum(h.server.rack_u for h in hosts) + pdu_u
        w = sum(h.peak_w_per_host for h in hosts)
        if leaf:
            u += 2 * pairs * leaf.rack_u
            w += 2 * pairs * leaf.watts
        if spine and r.spines:
            u += r.spines * spine.rack_u
            w += r.spines * spine.watts
        if mgmt is not None:
            n = management.switches_for(len(hosts) * management.BMC_PORTS_PER_SERVER + 2 * pairs + r.spines, mgmt)
            u += n * mgmt.rack_u
            w += n * mgmt.watts
        return u <= rack_u and w <= budget_w

    for g in groups:
        for _ in range(g.hosts):
            r = racks[-1]
            if r.hosts and not fits(r, g):
                if len(racks) >= MAX_RACKS:
                    raise ValueError(f"more than {MAX_RACKS} racks")
                r = _RackFill()
                racks.append(r)
            r.hosts.append(g)
            r.ports += g.ports_per_host
            r.pairs = _pairs_for(r.ports, per_switch) if leaf and r.ports else 0
    return racks


def _with_boot_power(groups: list[HostGroup], out: Infrastructure, catalog: HardwareCatalog) -> list[HostGroup]:
    """The host groups with their boot drives' (and boot modules') draw added: they count against the rack power
    budget."""
    boot_w: dict[str, float] = {}
    for ln in out.lines:
        boot_w[ln.role] = boot_w.get(ln.role, 0.0) + ln.qty_per_host * _watts(catalog, ln.part_id)
    return [HostGroup(g.role, g.server, g.hosts, g.peak_w_per_host + boot_w.get(g.role, 0.0), g.ports_per_host,
                      g.speed_gbps) for g in groups]


def _leaf_choice(groups: list[HostGroup], catalog: HardwareCatalog, commercial: Commercial,
                 out: Infrastructure) -> tuple[Switch | None, int, int]:
    """The leaf switch for the fastest host ports, with its host ports and uplinks per switch at the
    oversubscription asked; None (and a warning saying why) when the network cannot be priced."""
    speed = max(g.speed_gbps for g in groups)
    ports = sum(g.hosts * g.ports_per_host for g in groups)
    leaf = choose_leaf(catalog, commercial, speed, ports) if commercial.network and speed > 0 else None
    if commercial.network and speed > 0 and leaf is None:
        out.warnings.append(Warning("no-switch", f"The catalog has no leaf switch with {speed:g} GbE ports: "
                                                 "the network is not priced; add one or set commercial.switch_id.",
                                    "warning", "commercial.switch_id"))
    elif commercial.network and speed == 0:
        out.warnings.append(Warning("no-switch", "The hosts have no NIC in the BOM: the network is not priced.",
                                    "warning", "platform.nic_id"))
    per_switch, uplinks = downlinks(leaf, commercial.network_oversubscription) if leaf else (0, 0)
    if leaf and per_switch == 0:
        out.warnings.append(Warning("no-switch", f"{leaf.model} has no port left for hosts at "
                                                 f"{commercial.network_oversubscription:g}:1; network not priced.",
                                    "warning", "commercial.network_oversubscription"))
        leaf = None
    return leaf, per_switch, uplinks


def _pack_with_spines(groups: list[HostGroup], rc: RackChoice, fabric: Fabric, uplinks: int,
                      catalog: HardwareCatalog, commercial: Commercial,
                      out: Infrastructure) -> tuple[list[_RackFill], Fabric]:
    """Hosts into racks, then spines for more than one leaf pair; the spines live in rack 1, so the racks are
    re-packed with their U and watts until the spine count settles. Raises ValueError beyond MAX_RACKS."""
    budget_w = rc.budget_kw * 1000
    filled = pack(groups, rc.rack_u, budget_w, fabric, rc.pdu_u)
    leaf = fabric.leaf
    for _ in range(3):
        pairs = sum(r.pairs for r in filled)
        if not leaf or pairs <= 1:
            break
        up_speed = leaf.uplink_speed_gbps
        spine = choose_spine(catalog, commercial, up_speed)
        if spine is None:
            out.warnings.append(Warning("no-spine", f"The catalog has no {up_speed:g} GbE spine switch: the "
                                                    "leaf uplinks are counted but the spines are not priced.",
                                        "warning", "commercial.spine_switch_id"))
            break
        total_up = 2 * pairs * uplinks
        need = max(2, 2 * math.ceil(total_up / (2 * spine.ports)))
        if need == fabric.spines:
            break
        fabric = dataclasses.replace(fabric, spine=spine, spines=need)
        filled = pack(groups, rc.rack_u, budget_w, fabric, rc.pdu_u)
    return filled, fabric


def plan(lines: Sequence[BomLine], catalog: HardwareCatalog, c: Commercial, esxi: bool = True) -> Infrastructure:
    """Boot drives (for ESXi, else a Linux install), the leaf/spine and management networks, racks and PDUs."""
    out = Infrastructure()
    groups = host_groups(lines, catalog)
    if not groups:
        return out
    boot_lines(groups, catalog, c, out, esxi)
    groups = _with_boot_power(groups, out, catalog)
    leaf, per_switch, uplinks = _leaf_choice(groups, catalog, c, out)
    rc = rack_choice(catalog, c, out.warnings)
    mgmt = management.choose(catalog) if c.network else None
    if c.network and mgmt is None:
        out.warnings.append(Warning("no-switch", "The catalog has no 1 GbE management switch: the servers' BMC ports "
                                                 "are not networked in the BOM (refarch catalog seed brings one).",
                                    "warning", "commercial.network"))
    try:
        filled, fabric = _pack_with_spines(groups, rc, Fabric(leaf, per_switch, mgmt=mgmt), uplinks, catalog,
                                           c, out)
    except ValueError:
        out.warnings.append(Warning("racks-unbounded", f"The design needs more than {MAX_RACKS} racks: racks and "
                                                       "network are not laid out.", "warning", SCENARIO_WIDE))
        return out
    _network_lines(filled, fabric, uplinks, catalog, out)
    if mgmt is not None:
        mgmt_lines, why = management.lines(mgmt, [(len(r.hosts), 2 * r.pairs + r.spines) for r in filled], catalog,
                                           out.warnings)
        out.lines += mgmt_lines
        out.network_w += sum(fabric.mgmt_switches(r) for r in filled) * mgmt.watts
        out.rationale.append(why)
    _rack_lines(filled, rc, fabric, out)
    return out


def _watts(catalog: HardwareCatalog, part_id: str) -> float:
    part = catalog.get(part_id)
    return float(getattr(part, "watts", 0.0))


def _network_lines(filled: list[_RackFill], fabric: Fabric, uplinks: int, catalog: HardwareCatalog,
                   out: Infrastructure) -> None:
    leaf, per_switch, spine, spines = fabric.leaf, fabric.per_switch, fabric.spine, fabric.spines
    if leaf is None:
        return
    pairs = sum(r.pairs for r in filled)
    host_ports = sum(r.ports for r in filled)
    by_speed: dict[float, int] = {}
    for r in filled:
        for g in r.hosts:
            by_speed[g.speed_gbps] = by_speed.get(g.speed_gbps, 0) + g.ports_per_host
    leaves = 2 * pairs
    out.lines.append(bom.line("leaf switch", leaf, leaves, 1, "switch", bom.Terms("network",
                              note=f"{pairs} pair(s); {per_switch} host ports + {uplinks} uplinks each")))
    out.network_w += leaves * leaf.watts
    missing: list[str] = []

    def add(role: str, cable: Cable | None, qty: int, what: str, note: str) -> None:
        if qty <= 0:
            return
        if cable is None:
            missing.append(what)
            return
        out.lines.append(bom.line(role, cable, qty, 1, "cable", bom.Terms("network", note=note)))
        out.network_w += qty * cable.watts

    for speed, ports in sorted(by_speed.items()):
        add("host links", _cheapest_cable(catalog, "DAC", speed), ports, f"{speed:g} GbE DAC",
            "one per host port, in the rack")
    up = leaf.uplink_speed_gbps
    add("leaf peer links", _cheapest_cable(catalog, "DAC", up), 2 * pairs, f"{up:g} GbE DAC",
        "two per leaf pair (MLAG peer link)")
    if pairs <= 1:
        optic = _cheapest_cable(catalog, "optic", up)
        add("core uplinks", optic, leaves * CORE_UPLINKS_PER_LEAF, f"{up:g} GbE optic",
            f"{CORE_UPLINKS_PER_LEAF} per leaf to the customer's core (their end not included)")
    elif spine is not None:
        out.lines.append(bom.line("spine switch", spine, spines, 1, "switch",
                                  bom.Terms("network", note=f"{2 * pairs * uplinks} leaf uplinks")))
        out.network_w += spines * spine.watts
        in_rack = 2 * filled[0].pairs * uplinks
        between = 2 * pairs * uplinks - in_rack
        add("leaf-spine links", _cheapest_cable(catalog, "DAC", up), in_rack, f"{up:g} GbE DAC",
            "uplinks of the leaves in the spines' rack")
        add("leaf-spine links", _cheapest_cable(catalog, "optic", up), 2 * between, f"{up:g} GbE optic",
            "two transceivers per uplink between racks")
        add("leaf-spine links", _cheapest_cable(catalog, "fibre", up), between, f"{up:g} GbE fibre",
            "one fibre per uplink between racks")
    if missing:
        out.warnings.append(Warning("no-cable", f"The catalog has no {', '.join(sorted(set(missing)))}: those "
                                                "links are counted but not priced.", "warning", "commercial.network"))
    out.rationale.append(Rationale(
        "Network",
        f"{host_ports} host ports at {max(by_speed):g} GbE on {pairs} leaf pair(s) of {leaf.vendor} {leaf.model} "
        f"({per_switch} host ports and {uplinks} x {up:g} GbE uplinks per leaf at "
        f"{'non-blocking' if per_switch * leaf.speed_gbps <= uplinks * up else 'oversubscribed'} uplinks)"
        + (f"; {spines} spine switch(es) {spine.model}" if spine and pairs > 1 else "; uplinks to the core")
        + ". DAC inside a rack, optics between racks.",
        "002_feb9b45e1f157a35.txt, Key hardware components: Network; catalog",
    ))


def _rack_lines(filled: list[_RackFill], rc: RackChoice, fabric: Fabric, out: Infrastructure) -> None:
    rack, rack_u, budget_kw, pdu = rc.rack, rc.rack_u, rc.budget_kw, rc.pdu
    leaf, spine, mgmt = fabric.leaf, fabric.spine, fabric.mgmt
    pdus_total = 0
    for n, r in enumerate(filled, start=1):
        slots: list[RackSlot] = []
        u = 1
        peak_w = 0.0
        devices = 0
        for g in r.hosts:
            slots.append(RackSlot(u, g.server.rack_u, g.server.model, "server", g.role, g.peak_w_per_host))
            u += g.server.rack_u
            peak_w += g.peak_w_per_host
            devices += PSUS_PER_HOST
        top = rack_u + 1
        switches = [(leaf, "leaf switch")] * (2 * r.pairs if leaf else 0)
        switches += [(spine, "spine switch")] * (r.spines if spine else 0)
        switches += [(mgmt, "management switch")] * fabric.mgmt_switches(r)
        for sw, role in switches:
            assert sw is not None
            top -= sw.rack_u
            slots.append(RackSlot(top, sw.rack_u, sw.model, "switch", role, sw.watts))
            peak_w += sw.watts
            devices += PSUS_PER_HOST
        zero_u = 0
        if pdu is not None:
            pairs = max(math.ceil(peak_w / 1000 / pdu.max_kw), math.ceil(devices / PSUS_PER_HOST / pdu.outlets), 1)
            pdus_total += 2 * pairs
            if pdu.rack_u:
                for _ in range(2 * pairs):
                    top -= pdu.rack_u
                    slots.append(RackSlot(top, pdu.rack_u, pdu.model, "pdu", "PDU", 0.0))
            else:
                zero_u = 2 * pairs
        out.racks.append(RackLayout(f"Rack {n}", rack.id if rack else "", rack_u, tuple(slots),
                                    peak_w / 1000, budget_kw, zero_u))  # unrounded: the budget check compares it
    over = [r for r in out.racks if r.peak_kw > budget_kw]
    if over:
        worst = max(over, key=lambda r: r.peak_kw)
        out.warnings.append(Warning(
            "rack-power", f"{len(over)} rack(s) exceed the {budget_kw:g} kW power budget even with a single host "
            f"(up to {worst.peak_kw:.3g} kW with its switches): raise the rack power budget or pick cooler hosts.",
            "warning", "commercial.rack_power_kw"))
    if rack is not None:
        out.lines.append(bom.line("racks", rack, len(filled), 1, "rack",
                                  bom.Terms("rack", note=f"filled to {rack_u}U and {budget_kw:g} kW peak per rack")))
    if pdu is not None and pdus_total:
        out.lines.append(bom.line("racks", pdu, pdus_total, 1, "pdu",
                                  bom.Terms("rack", note="A/B pairs, each feed carries the whole rack")))
    out.rationale.append(Rationale(
        "Racks and power",
        f"{len(filled)} rack(s) of {rack_u}U, filled host by host up to the U and a peak power budget of "
        f"{budget_kw:g} kW per rack (server max draw plus drives, NICs and switches); PDUs in A/B pairs.",
        "scenario; catalog",
    ))

"""Resolving the scenario's part ids against the catalog, and recommending the ones left null."""

from __future__ import annotations

import math
from dataclasses import dataclass

from models.calibration_data import figure, point
from models.hardware import MB_S_PER_GBPS, Drive, HardwareCatalog, Nic, P, Server, UnknownPartError
from models.perf import measured
from models.problems import Problem
from models.scenario import Scenario
from models.sizing.result import Design, Rationale, Warning
from models.sizing.rules import RULES, cite

LINKS = "hardware_links"


class SizingInputError(ValueError):
    """The scenario names parts the catalog does not have, or parts that cannot work together."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


@dataclass(frozen=True)
class ResolvedParts:
    server: Server | None
    drive: Drive | None
    nic: Nic | None


def resolve(scenario: Scenario, catalog: HardwareCatalog) -> ResolvedParts:
    """Look up every id the scenario names; report all unknown ids at once, with the closest ids."""
    problems: list[Problem] = []
    plat = scenario.platform

    def lookup(field: str, part_id: str | None, kind: str) -> object | None:
        if part_id is None:
            return None
        try:
            return catalog.get(part_id, kind)  # type: ignore[arg-type]
        except UnknownPartError as exc:
            problems.append(Problem(f"platform.{field}", str(exc)))
            return None

    server = lookup("server_id", plat.server_id, "server")
    drive = lookup("drive_id", plat.drive_id, "drive")
    nic = lookup("nic_id", plat.nic_id, "nic")
    if isinstance(server, Server) and isinstance(drive, Drive) and not server.accepts(drive):
        problems.append(Problem(
            "platform.drive_id",
            f"{drive.id} is a {drive.form_factor} drive; {server.id} has {server.data_bay_form_factor} bays",
        ))
    if isinstance(server, Server) and plat.drives_per_host is not None and plat.drives_per_host > server.data_bays:
        problems.append(Problem(
            "platform.drives_per_host",
            f"{plat.drives_per_host} is more than the {server.data_bays} data bays of {server.id}"
            f" (allowed 1-{server.data_bays})",
        ))
    if isinstance(server, Server) and plat.nics_per_host is not None and not fits_nics(server, plat.nics_per_host):
        problems.append(Problem(
            "platform.nics_per_host",
            f"{plat.nics_per_host} NICs are more than the {server.pcie_slots} PCIe slots of {server.id}"
            f" (allowed 1-{server.pcie_slots})",
        ))
    if problems:
        raise SizingInputError(problems)
    return ResolvedParts(
        server if isinstance(server, Server) else None,
        drive if isinstance(drive, Drive) else None,
        nic if isinstance(nic, Nic) else None,
    )


def current(parts: list[P], catalog: HardwareCatalog) -> list[P]:
    return catalog.current(parts)


def candidate_servers(catalog: HardwareCatalog, parts: ResolvedParts, nics: int = 0) -> list[Server]:
    """The named server, else every current one; with `nics` add-in NICs per host, only those whose PCIe slots
    take them (parts that fit: a design that cannot be built is never priced), bad input when none does."""
    servers = [parts.server] if parts.server else current(catalog.servers, catalog)
    return taking_nics(servers, nics)


def taking_nics(servers: list[Server], nics: int) -> list[Server]:
    """The servers whose PCIe slots take `nics` add-in NICs per host (all of them for no NIC; an unknown slot count
    is not checked), bad input naming `platform.nics_per_host` when none does."""
    if nics <= 0 or not servers:
        return servers
    slotted = [s for s in servers if fits_nics(s, nics)]
    if not slotted:
        most = max(s.pcie_slots or 0 for s in servers)
        raise SizingInputError([Problem(
            "platform.nics_per_host",
            f"{nics} NICs per host do not fit the PCIe slots of any server that could be chosen"
            f" (the most is {most}; allowed 1-{most})",
        )])
    return slotted


def candidate_drives(catalog: HardwareCatalog, parts: ResolvedParts, server: Server) -> list[Drive]:
    """The named drive where the server's bays take it, else every current drive its bays take whose link is of
    the server's generation (`Server.of_its_generation`); a server older than every current drive (a 2010 server
    with a 6 Gb/s SAS controller) takes the catalog's drives of its own generation, history included."""
    if parts.drive:
        return [parts.drive] if server.accepts(parts.drive) else []
    return drives_of_its_generation(catalog, server)


def drives_of_its_generation(catalog: HardwareCatalog, server: Server) -> list[Drive]:
    """The current drives the server's bays take whose link is of its generation, else (an older server) the
    catalog's drives of its generation, history included."""
    fitting = [d for d in catalog.drives if server.accepts(d) and server.of_its_generation(d)]
    return current(fitting, catalog) or fitting


def pcie_gbps(gen: int, lanes: int) -> float:
    """What `lanes` PCIe lanes of generation `gen` carry, Gbit/s each way (PCI-SIG base specifications: transfer
    rate less the line encoding): a dual 100 GbE card needs 200.

    >>> round(pcie_gbps(2, 16), 1), round(pcie_gbps(3, 16), 1), round(pcie_gbps(4, 16), 1)
    (64.0, 126.0, 252.1)
    """
    return figure(LINKS, f"pcie_gen{gen}_gbps_per_lane") * lanes


def slot_gbps(server: Server, nic: Nic) -> float | None:
    """What the server's slot carries for the card: the card's lanes at the slower of the two PCIe generations;
    None where either generation or the lanes are unknown."""
    if server.pcie_gen is None or nic.pcie_gen is None or nic.pcie_lanes is None:
        return None
    return pcie_gbps(min(server.pcie_gen, nic.pcie_gen), nic.pcie_lanes)


def carries(server: Server, nic: Nic) -> bool:
    """Whether the server's PCIe slot carries every port of the card at line rate (unknown: not checked): a dual
    100 GbE card in a PCIe 2.0 server would run at a third of its rate."""
    slot = slot_gbps(server, nic)
    return slot is None or slot >= nic.ports * nic.speed_gbps - 1e-9


@dataclass(frozen=True)
class NetworkChoice:
    nic: Nic | None
    nics_per_host: int

    @property
    def ports(self) -> int:
        return self.nic.ports * self.nics_per_host if self.nic else 0

    @property
    def gbps_per_host(self) -> float:
        return self.nic.speed_gbps * self.ports if self.nic else 0.0

    @property
    def model_gbps_per_host(self) -> float:
        """The interconnect the performance models take: each port at its line rate, or inside a sizing on
        measured links at the measured link rate up to that (`measured.port_mb_s`), this NIC's own."""
        if not self.nic:
            return 0.0
        line_mb_s = self.nic.speed_gbps * MB_S_PER_GBPS
        return measured.port_mb_s(line_mb_s) / MB_S_PER_GBPS * self.ports

    @property
    def price_per_host(self) -> float:
        return self.nic.price * self.nics_per_host if self.nic else 0.0


def carried_nics(catalog: HardwareCatalog, servers: list[Server]) -> list[Nic]:
    """The cards whose every port each of `servers` carries at line rate in its PCIe slot (`carries`): current ones,
    else the catalog's (an older server takes the cards of its own generation); none where no card suits them all."""
    fits = [n for n in catalog.nics if all(carries(s, n) for s in servers)]
    return current(fits, catalog) or fits


def pick_nic(nics: list[Nic], floor_gbps: float) -> tuple[Nic | None, bool]:
    """The one NIC rule of every workload kind, over cards the server's slots carry (`carried_nics`): the lowest price
    per port among those at `floor_gbps` or faster (True), else the fastest below it (False); None for no card.

    >>> from datetime import date
    >>> def nic(i, gbps, price): return Nic(i, "v", i, price, "USD", date(2026, 1, 1), "s", 2, gbps, 10.0)
    >>> [(n.id if n else None, ok) for n, ok in (pick_nic([nic("a", 25, 300), nic("b", 100, 800)], 25),
    ...                                          pick_nic([nic("a", 25, 300), nic("c", 10, 100)], 100))]
    [('a', True), ('a', False)]
    """
    if not nics:
        return None, False
    fast = [n for n in nics if n.speed_gbps >= floor_gbps]
    if fast:
        return min(fast, key=lambda n: (n.price / n.ports, n.price)), True
    return max(nics, key=lambda n: (n.speed_gbps, -n.price)), False


def slot_words(servers: list[Server]) -> tuple[str, str]:
    """', in a PCIe N.0 slot that carries its ports at line rate' and the PCI-SIG source, where the servers' PCIe
    generation is known (the oldest of them)."""
    gens = [s.pcie_gen for s in servers if s.pcie_gen is not None]
    if not gens:
        return "", ""
    gen = min(gens)
    return (f", in a PCIe {gen}.0 slot that carries its ports at line rate",
            f"; {point(LINKS, f'pcie_gen{gen}_gbps_per_lane').source.cite()}")


def choose_nic(catalog: HardwareCatalog, parts: ResolvedParts, servers: list[Server] | None = None
               ) -> tuple[Nic | None, Rationale | None]:
    """The named NIC, else (`pick_nic`) among the cards every server that may be chosen carries at line rate
    (`servers`, the ones searched: the optimizer's whole catalog even where the scenario names one; else the named
    one, else every current one) the cheapest per port at the recommended speed, else at the minimum speed, else the
    fastest."""
    if parts.nic:
        return parts.nic, None
    servers = servers or ([parts.server] if parts.server else current(catalog.servers, catalog))
    nics = carried_nics(catalog, servers) or current(catalog.nics, catalog)
    if not nics:
        return None, None
    slot, slot_src = slot_words(servers)
    for key, why in (("network_recommended_gbps", "recommended"), ("network_min_gbps", "minimum")):
        nic, met = pick_nic(nics, figure(RULES, key))
        if nic is not None and met:
            text = f"{nic.vendor} {nic.model}: the lowest price per port at the {why} {figure(RULES, key):g} GbE{slot}."
            return nic, Rationale("NIC", text, cite(RULES, "network_recommended_gbps") + slot_src)
    nic, _ = pick_nic(nics, math.inf)
    assert nic is not None
    return nic, Rationale("NIC", f"{nic.model}: the fastest NIC the servers carry (below"
                          f" {figure(RULES, 'network_min_gbps'):g} GbE){slot}.",
                          f"catalog; {cite(RULES, 'network_min_gbps')}{slot_src}")


def nics_per_host(nic: Nic | None, requested: int | None) -> int:
    if nic is None:
        return 0
    if requested is not None:
        return requested
    return max(1, math.ceil(figure(RULES, "network_min_ports") / nic.ports))


def fits_nics(server: Server, nics: int) -> bool:
    """Whether `nics` add-in NICs fit the server's PCIe slots (an unknown slot count is not checked)."""
    return server.pcie_slots is None or nics <= server.pcie_slots


def unknown_slot_warnings(design: Design, catalog: HardwareCatalog) -> list[Warning]:
    """A design's add-in NICs on a server whose PCIe slot count the catalog lacks were never checked against
    its slots (`fits_nics` lets an unknown count pass rather than guess one): say so, once per such server."""
    if design.nic_id is None or design.nics_per_host <= 0:
        return []
    out: list[Warning] = []
    for server_id in dict.fromkeys([design.server_id, *(h.server_id for h in design.hosts)]):
        if server_id not in catalog:
            continue
        server = catalog.server(server_id)
        if server.pcie_slots is None:
            out.append(Warning(
                "nic-slots-unknown",
                f"NIC slots not checked: the PCIe slot count of {server.vendor} {server.model} is not known;"
                f" confirm that {design.nics_per_host} add-in NIC(s) per host fit its risers.",
                "info", "platform.server_id",
                f"Record the PCIe slots of {server.id} in the catalog (`refarch catalog seed` brings the bundled"
                " servers' counts into a catalog seeded before them).",
            ))
    return out


def generation_warnings(design: Design, catalog: HardwareCatalog) -> list[Warning]:
    """Parts a scenario named that are faster than the server can run them (refarch never picks such parts itself):
    a NIC whose ports the server's PCIe slot cannot carry at line rate, a drive whose link outruns the server's
    drive controller (it runs at the server's rate)."""
    if design.server_id not in catalog:
        return []
    server = catalog.server(design.server_id)
    out: list[Warning] = []
    nic = catalog.get(design.nic_id) if design.nic_id and design.nic_id in catalog else None
    slot = slot_gbps(server, nic) if isinstance(nic, Nic) else None
    if isinstance(nic, Nic) and slot is not None and not carries(server, nic):
        out.append(Warning(
            "nic-slot-slower",
            f"{nic.vendor} {nic.model} needs {nic.ports * nic.speed_gbps:g} Gbit/s for its {nic.ports} ports; the"
            f" PCIe {server.pcie_gen}.0 slots of {server.vendor} {server.model} carry {slot:.0f} Gbit/s to its"
            f" {nic.pcie_lanes} lanes (PCIe {nic.pcie_gen}.0 card), so its ports cannot all run at line rate (refarch"
            " picks only cards the slot carries).", "warning", "platform.nic_id"))
    drive = catalog.get(design.drive_id) if design.drive_id and design.drive_id in catalog else None
    if isinstance(drive, Drive) and not server.of_its_generation(drive):
        rate = (f"PCIe {server.pcie_gen}.0" if drive.interface.startswith("NVMe")
                else f"{server.drive_link_gbps:g} Gb/s drive controller")
        out.append(Warning(
            "drive-link-faster",
            f"{drive.vendor} {drive.model} ({drive.interface}{f' {drive.link_gbps:g} Gb/s' if drive.link_gbps else ''})"
            f" runs at the {rate} of {server.vendor} {server.model}, a drive of a later generation than the server"
            " (refarch picks only drives of the server's generation).", "warning", "platform.drive_id"))
    return out

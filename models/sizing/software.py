"""Software licences and support contracts priced from the catalog for the hosts a design lists.

A licence counts per core, socket, host or TB with its minimums (vSphere counts at least 16 cores per
CPU; some products have a smallest order). The products a scenario needs: an OS on every host, vSphere
when deployed on vSphere, and the database product of the workload kind. Unless the scenario names
licences (`commercial.licence_ids`), the cheapest catalog licence of each needed product is taken.
Support is per host per year, or a share of the hosts' hardware price per year.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from models.hardware import HardwareCatalog, Licence, Support
from models.money import cents, total
from models.scenario import Scenario
from models.sizing import bom
from models.sizing.infrastructure import HostGroup
from models.sizing.result import BomLine, Rationale, Warning

TB = 1e12  # bytes
TIB = 2.0**40  # bytes: vSAN capacity is licensed in TiB

PRODUCT_OF_KIND = {
    "greenplum-analytics": "greenplum",
    "greenplum-oltp": "greenplum",
    "postgres-consolidation": "postgres",
    "sap-iq-multiplex": "sap-iq",
}
UNLICENSED_ROLES = ("ETL host",)  # gpfdist hosts run no database server: no database licence
EVERY_HOST_PRODUCTS = ("os", "vsphere")  # what every host runs, ETL hosts included


@dataclass(frozen=True)
class Licensing:
    """What a design's licences are counted on: the scenario, the catalog (converted to the project currency), the
    TB on disk a per-TB licence counts, the VMs each BOM role runs on vSphere (an OS subscription per 1-2 VMs counts
    them; see `units`), and whether the data sits on a vSAN datastore (`vsan`, which only a vSphere edition
    including vSAN runs) and the raw capacity it claims (`vsan_raw_tb`, for the entitlement check)."""

    scenario: Scenario
    catalog: HardwareCatalog
    data_tb: float
    guests: Mapping[str, int] = field(default_factory=dict)
    vsan: bool = False
    vsan_raw_tb: float = 0.0


def products(scenario: Scenario) -> list[str]:
    out = ["os", PRODUCT_OF_KIND[scenario.workload.kind]]
    if scenario.platform.deployment == "vsphere":
        out.insert(1, "vsphere")
    return out


def units(licence: Licence, groups: Sequence[HostGroup], data_tb: float,
          guests: Mapping[str, int] | None = None) -> tuple[int, str]:
    """How many `metric` units the hosts need, and how they were counted.

    `guests`: the virtual machines each role's hosts run (vSphere). A "socket-pair" subscription covers 1-2
    sockets of a physical host or 1-2 VMs: where a role runs VMs, its guests are counted in pairs (the OS runs in
    them, not on the hypervisor); else each host takes one per two sockets, a 1-socket host a whole one.

    >>> from datetime import date
    >>> from models.hardware import Cpu, Server
    >>> cpu = Cpu("c", "AMD", "EPYC 9124", 1.0, "USD", date(2026, 1, 1), "x", cores=12, threads=24, base_ghz=3,
    ...           tdp_w=200)
    >>> srv = Server("s", "Dell", "R", 1.0, "USD", date(2026, 1, 1), "x", form_factor="2U", rack_u=2, sockets=2,
    ...              cpu=cpu, numa_nodes_per_socket=1, memory_gib=256, dimm_slots=24, data_bays=12,
    ...              data_bay_form_factor="U.3", os_drives=2, psu_w=1400, idle_w=200, max_w=700)
    >>> vs = Licence("v", "Broadcom", "vSphere", 50.0, "USD", date(2026, 1, 1), "x", metric="core", term="annual",
    ...              applies_to="vsphere", min_cores_per_cpu=16, min_units=0)
    >>> units(vs, [HostGroup("h", srv, 4, 800.0, 2, 25.0)], 10.0)
    (128, '4 hosts x 2 CPUs x 16 cores (16-core minimum per CPU)')
    >>> import dataclasses
    >>> os = dataclasses.replace(vs, metric="socket-pair", applies_to="os", min_cores_per_cpu=0)
    >>> units(os, [HostGroup("h", srv, 4, 800.0, 2, 25.0)], 10.0)
    (4, '4 hosts x 2 sockets, one per 2 sockets')
    >>> units(os, [HostGroup("h", srv, 4, 800.0, 2, 25.0)], 10.0, {"h": 9})
    (5, '9 VMs on 4 hosts, one per 2 VMs')
    """
    if licence.metric == "tb":
        n = max(1, math.ceil(data_tb))
        how = f"{data_tb:g} TB on disk"
    else:
        n = 0
        parts = []
        for g in groups:
            if licence.metric == "core":
                per_cpu = max(g.server.cpu.cores, licence.min_cores_per_cpu)
                n += g.hosts * g.server.sockets * per_cpu
                minimum = (f" ({licence.min_cores_per_cpu}-core minimum per CPU)"
                           if licence.min_cores_per_cpu > g.server.cpu.cores else "")
                parts.append(f"{g.hosts} hosts x {g.server.sockets} CPUs x {per_cpu} cores{minimum}")
            elif licence.metric == "socket":
                n += g.hosts * g.server.sockets
                parts.append(f"{g.hosts} hosts x {g.server.sockets} sockets")
            elif licence.metric == "socket-pair":
                vms = (guests or {}).get(g.role, 0)
                if vms:
                    n += math.ceil(vms / 2)
                    parts.append(f"{vms} VMs on {g.hosts} hosts, one per 2 VMs")
                else:
                    n += g.hosts * math.ceil(g.server.sockets / 2)
                    parts.append(f"{g.hosts} hosts x {g.server.sockets} sockets, one per 2 sockets")
            else:
                n += g.hosts
                parts.append(f"{g.hosts} hosts")
        how = " + ".join(parts)
    if licence.min_units > n:
        how += f"; raised to the {licence.min_units}-unit minimum order"
        n = licence.min_units
    return n, how


def licence_choice(basis: Licensing, groups: Sequence[HostGroup]) -> tuple[list[Licence], list[str]]:
    """The licences the design is quoted with, and the products the catalog has no licence for.

    The scenario's `commercial.licence_ids` when it names them; else, per product the design runs, the catalog
    licence of lowest price for the units these hosts need (on a vSAN datastore, a vSphere edition including vSAN
    where the catalog has one). `licence_lines` (the BOM) and `licence_cost` (the sizers' ranking)
    both take it, so a design is ranked on the licences it is quoted with."""
    scenario, catalog, data_tb, guests = basis.scenario, basis.catalog, basis.data_tb, basis.guests
    if scenario.commercial.licence_ids is not None:
        named = [catalog.get(lid, "licence") for lid in scenario.commercial.licence_ids]
        return [lic for lic in named if isinstance(lic, Licence)], []
    licensed = [g for g in groups if g.role not in UNLICENSED_ROLES]
    chosen: list[Licence] = []
    missing: list[str] = []
    for product in products(scenario):
        offers = licence_offers(basis, product)
        if not offers:
            missing.append(product)
            continue
        counted = list(groups) if product in EVERY_HOST_PRODUCTS else licensed
        chosen.append(min(offers, key=lambda lic: (lic.price * units(lic, counted, data_tb, guests)[0], lic.id)))
    return chosen, missing


def licence_offers(basis: Licensing, product: str) -> list[Licence]:
    """The catalog's current licences of `product` a design may be quoted with: on a vSAN datastore, the vSphere
    editions that include vSAN where the catalog has one."""
    offers = [lic for lic in basis.catalog.current(basis.catalog.licences) if lic.applies_to == product]
    if product == "vsphere" and basis.vsan:
        offers = [lic for lic in offers if lic.vsan_gib_per_core != 0] or offers
    return offers


def licensed_groups(lic: Licence, groups: Sequence[HostGroup]) -> list[HostGroup]:
    """The hosts a licence counts: the OS and vSphere run on every host, the database product not on ETL hosts."""
    return list(groups) if lic.applies_to in EVERY_HOST_PRODUCTS else [g for g in groups if g.role not in
                                                                        UNLICENSED_ROLES]


def licence_cost(basis: Licensing, groups: Sequence[HostGroup]) -> tuple[float, float]:
    """What the design's licences cost, as the BOM prices them (`licence_lines`): paid once (perpetual) and per
    year (subscriptions), in the catalog's currency (the project's: the catalog is converted before sizing).

    >>> from datetime import date
    >>> from models.hardware import Cpu, Server
    >>> from models.scenario import Scenario
    >>> cpu = Cpu("c", "AMD", "EPYC", 1.0, "USD", date(2026, 1, 1), "x", cores=16, threads=32, base_ghz=3, tdp_w=200)
    >>> srv = Server("s", "Dell", "R", 1.0, "USD", date(2026, 1, 1), "x", form_factor="2U", rack_u=2, sockets=2,
    ...              cpu=cpu, numa_nodes_per_socket=1, memory_gib=256, dimm_slots=24, data_bays=12,
    ...              data_bay_form_factor="U.3", os_drives=2, psu_w=1400, idle_w=200, max_w=700)
    >>> db = Licence("iq", "SAP", "IQ", 100.0, "USD", date(2026, 1, 1), "x", metric="core", term="perpetual",
    ...              applies_to="sap-iq", min_cores_per_cpu=0, min_units=0)
    >>> os = Licence("os", "SUSE", "SLES", 10.0, "USD", date(2026, 1, 1), "x", metric="host", term="annual",
    ...              applies_to="os", min_cores_per_cpu=0, min_units=0)
    >>> sc = Scenario.model_validate({"name": "x", "workload": {"kind": "sap-iq-multiplex", "data_tb": 10,
    ...                               "query_streams": 4}, "platform": {"deployment": "bare-metal"}})
    >>> licence_cost(Licensing(sc, HardwareCatalog((srv, db, os)), 10.0), [HostGroup("IQ node", srv, 3, 0.0, 0, 0.0)])
    (9600.0, 30.0)
    """
    chosen, _ = licence_choice(basis, groups)
    once = yearly = 0.0
    for lic in chosen:
        cost = cents(lic.price * units(lic, licensed_groups(lic, groups), basis.data_tb, basis.guests)[0])
        if lic.term == "perpetual":
            once += cost
        else:
            yearly += cost
    return once, yearly


def licence_lines(basis: Licensing, groups: Sequence[HostGroup]
                  ) -> tuple[list[BomLine], list[Rationale], list[Warning]]:
    """The licence lines of the hosts `groups`, with the rationale and warnings they raise (in the order the BOM
    adds them)."""
    scenario = basis.scenario
    lines: list[BomLine] = []
    rationale: list[Rationale] = []
    warnings: list[Warning] = []
    chosen, missing = licence_choice(basis, groups)
    for product in missing:
        warnings.append(Warning("no-licence", f"The catalog has no {product} licence: it is not priced.",
                                "warning", "commercial.licence_ids"))
    why = ("named in the scenario" if scenario.commercial.licence_ids is not None
           else "the cheapest catalog licence for each product the design runs")
    perpetual: list[str] = []
    for lic in chosen:
        n, how = units(lic, licensed_groups(lic, groups), basis.data_tb, basis.guests)
        if lic.applies_to == "vsphere" and basis.vsan:
            warnings.extend(vsan_entitlement(lic, n, basis.vsan_raw_tb))
        lines.append(bom.line("software", lic, n, 1, "licence",
                              bom.Terms("software", recurring=lic.term == "annual", note=how)))
        if lic.term == "perpetual":
            perpetual.append(f"{lic.vendor} {lic.model} ({lines[-1].extended_price:,.2f} {lines[-1].currency})")
    if perpetual:  # a subscription includes its support; a perpetual licence's maintenance is a yearly fee of its own
        warnings.append(Warning(
            "licence-maintenance", f"Perpetual licence(s) bought once: {'; '.join(perpetual)}. Their yearly"
            " maintenance (the vendor's support and updates) is not in this BOM or the cost of ownership: ask the"
            " vendor for the yearly fee and add it.", "warning", "commercial.licence_ids"))
    if chosen:
        by_guests = any(lic.metric == "socket-pair" for lic in chosen) and any(basis.guests.values())
        rationale.append(Rationale(
            "Software licences", f"{', '.join(lic.model for lic in chosen)}: {why}; counted per the licence's "
            "metric with its minimums (see each line)." + (
                " The OS runs in the VMs, so a subscription for 1-2 sockets or 1-2 VMs is counted per 2 VMs;"
                " with many VMs per host, a subscription for unlimited guests per host (e.g. Red Hat's for"
                " virtual datacenters) may cost less: ask the vendor." if by_guests else ""), "catalog"))
    return lines, rationale, warnings


def vsan_entitlement(lic: Licence, cores: int, raw_tb: float) -> list[Warning]:
    """Whether the vSphere licence runs the design's vSAN datastore: vSphere Standard includes none; vSphere
    Foundation includes some raw capacity per licensed core, and a cluster claiming more needs a vSAN capacity
    licence for all of it (Broadcom KB 326663), which the catalog does not price.

    >>> from datetime import date
    >>> vvf = Licence("vvf", "Broadcom", "VMware vSphere Foundation", 135.0, "USD", date(2026, 1, 1), "x",
    ...               metric="core", term="annual", applies_to="vsphere", min_cores_per_cpu=16, min_units=0,
    ...               vsan_gib_per_core=100)
    >>> vsan_entitlement(vvf, 48, 4.0)
    []
    >>> print(vsan_entitlement(vvf, 48, 23.04)[0].text[:102])
    The vSAN datastore claims 21.0 TiB of raw capacity; VMware vSphere Foundation includes 4.7 TiB for its
    """
    raw_tib = raw_tb * TB / TIB
    if lic.vsan_gib_per_core == 0:
        return [Warning("vsan-not-licensed", f"{lic.model} includes no vSAN, and the design keeps its data on a vSAN"
                                             f" datastore ({raw_tib:,.1f} TiB raw): name a vSphere edition that"
                                             " includes vSAN (vSphere Foundation, Cloud Foundation).",
                        "warning", "commercial.licence_ids")]
    if lic.vsan_gib_per_core is None:
        return [Warning("vsan-capacity-licence", f"How much vSAN capacity {lic.model} includes is not recorded:"
                                                 f" confirm that it covers the {raw_tib:,.1f} TiB of raw"
                                                 " capacity the vSAN datastore claims, or add a vSAN capacity"
                                                 " licence to the quote.", "warning", "commercial.licence_ids",
                        "`refarch catalog seed` brings the bundled vSphere editions' entitlements into a catalog"
                        " seeded before them.")]
    included_tib = lic.vsan_gib_per_core * cores / 1024.0
    if raw_tib <= included_tib + 1e-9:
        return []
    return [Warning("vsan-capacity-licence", f"The vSAN datastore claims {raw_tib:,.1f} TiB of raw capacity;"
                                             f" {lic.model} includes {included_tib:,.1f} TiB for its {cores} licensed"
                                             f" cores ({lic.vsan_gib_per_core:g} GiB each). Above that, vSAN"
                                             f" capacity is licensed for the whole {raw_tib:,.1f} TiB (Broadcom KB"
                                             " 326663), which this BOM does not price: ask Broadcom for a quote,"
                                             " or use fewer or smaller capacity drives.",
                    "warning", "commercial.licence_ids")]


def support_lines(scenario: Scenario, groups: Sequence[HostGroup], catalog: HardwareCatalog,
                  hardware: Sequence[BomLine], lines: list[BomLine], rationale: list[Rationale],
                  warnings: list[Warning]) -> None:
    commercial = scenario.commercial
    if not commercial.support:
        return
    for g in groups:
        base = total(ln.extended_price for ln in hardware if ln.role == g.role and not ln.recurring)

        def cost(s: Support, g: HostGroup = g, base: float = base) -> float:
            return s.price * g.hosts if s.basis == "host" else cents(base * s.pct_of_hardware / 100.0)

        if commercial.support_id:
            sup = catalog.get(commercial.support_id, "support")
            assert isinstance(sup, Support)
        else:
            vendor = g.server.vendor.casefold()
            offers = [s for s in catalog.current(catalog.supports)
                      if s.applies_to.casefold() == vendor]
            offers = offers or [s for s in catalog.current(catalog.supports) if s.applies_to == "*"]
            if not offers:
                warnings.append(Warning("no-support", f"The catalog has no support contract for {g.server.vendor} "
                                                      f"servers: {g.role}s have no support line.",
                                        "warning", "commercial.support_id"))
                continue
            sup = min(offers, key=lambda s: (cost(s), s.id))
        if sup.basis == "host":
            lines.append(bom.line(g.role, sup, 1, g.hosts, "support",
                                  bom.Terms("support", recurring=True, note="per host per year")))
        else:
            lines.append(bom.line(g.role, sup, 1, 1, "support", bom.Terms(
                "support", recurring=True, unit_price=cost(sup),
                note=f"{sup.pct_of_hardware:g} % of {base:,.2f} hardware per year")))
    if any(ln.kind == "support" for ln in lines):
        rationale.append(Rationale("Support", "A support contract for every host, per year: the one the scenario "
                                              "names, else the cheapest for the server's vendor (or any vendor).",
                                   "catalog"))

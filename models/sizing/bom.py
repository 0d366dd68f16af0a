"""Bill of materials lines and totals. Money is summed in cents so the PDF, CSV and JSON agree."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from models import pricing
from models.hardware import Cable, Dimm, Drive, Licence, Nic, PartBase, Pdu, Rack, Server, Support, Switch
from models.money import cents
from models.perf import cost_power
from models.scenario import Scenario
from models.sizing.result import BomLine, PriceStatus, Totals


def _with_specs(model: str, *specs: str) -> str:
    """`model` and each spec it does not state already (spaces and case aside): a catalog model often names
    its ports or capacity, and a BOM line reading "2x25GbE SFP28 2x 25 GbE" looks like two parts.

    >>> _with_specs("ConnectX-6 Lx 2x25GbE SFP28", "2x 25 GbE")
    'ConnectX-6 Lx 2x25GbE SFP28'
    >>> _with_specs("Exos X16 16TB 7.2K SAS 3.5in", "16 TB", "SAS", "LFF")
    'Exos X16 16TB 7.2K SAS 3.5in LFF'
    """
    flat = model.replace(" ", "").lower()
    return " ".join([model, *(s for s in specs if s.replace(" ", "").lower() not in flat)])


def describe(part: PartBase) -> str:
    if isinstance(part, Server):
        return (
            f"{part.vendor} {part.model}, {part.sockets}x {part.cpu.model} ({part.cores_total} cores),"
            f" {part.memory_gib} GiB, {part.rack_u}U"
        )
    if isinstance(part, Drive):
        return f"{part.vendor} {_with_specs(part.model, f'{part.capacity_tb:g} TB', part.interface, part.form_factor)}"
    if isinstance(part, Nic):
        return f"{part.vendor} {_with_specs(part.model, f'{part.ports}x {part.speed_gbps:g} GbE')}"
    if isinstance(part, Dimm):
        return f"{part.vendor} {part.model} {part.size_gib} GiB DIMM"
    if isinstance(part, Switch):
        up = f" + {part.uplink_ports}x {part.uplink_speed_gbps:g} GbE uplinks" if part.uplink_ports else ""
        return f"{part.vendor} {part.model}: {part.ports}x {part.speed_gbps:g} GbE{up}, {part.rack_u}U"
    if isinstance(part, Cable):
        return f"{part.vendor} {part.model} ({part.medium}, {part.speed_gbps:g} GbE, {part.reach_m:g} m)"
    if isinstance(part, Rack):
        return f"{part.vendor} {part.model}, {part.rack_u}U"
    if isinstance(part, Pdu):
        return f"{part.vendor} {part.model}"
    if isinstance(part, Licence):
        per = {"core": "per core", "socket": "per socket", "socket-pair": "per 1-2 sockets or 1-2 VMs",
               "host": "per host", "tb": "per TB"}[part.metric]
        term = "per year" if part.term == "annual" else "perpetual"
        return f"{part.vendor} {part.model} ({per}, {term})"
    if isinstance(part, Support):
        basis = "per host per year" if part.basis == "host" else f"{part.pct_of_hardware:g} % of hardware per year"
        return f"{part.vendor} {part.model} ({basis})"
    return f"{part.vendor} {part.model}"


@dataclass(frozen=True)
class Terms:
    """How a line is priced and grouped beyond its part and counts: its BOM category, whether it recurs yearly, a
    note, `unit_price` for a computed price (e.g. a share of the hardware) in place of the part's, and `included`
    for a part priced inside another line (a server's CPUs and base DIMMs: unit price 0, status "included")."""

    category: str = "compute"
    recurring: bool = False
    note: str = ""
    unit_price: float | None = None
    included: bool = False


# Licences and support at 0 are free (open-source editions, support the licence includes); hardware at 0 is a part
# the catalog found no public price for (its source says so) and the vendor's quote must price
PRICED_AT_ZERO = ("software", "support")


def price_status(part: PartBase, terms: Terms) -> PriceStatus:
    """How the line's price reads: included in another line, on quote (hardware the catalog has no price for), or
    priced.

    >>> from datetime import date
    >>> rails = Cable("r", "V", "Rails", 0.0, "USD", date(2026, 1, 1), "no public list price", medium="copper",
    ...               speed_gbps=1, reach_m=1, watts=0)
    >>> price_status(rails, COMPUTE), price_status(rails, Terms(included=True, unit_price=0.0))
    ('on_quote', 'included')
    >>> price_status(rails, Terms("software")), price_status(rails, Terms(unit_price=12.0))
    ('priced', 'priced')
    """
    if terms.included:
        return "included"
    if terms.unit_price is None and part.price == 0 and terms.category not in PRICED_AT_ZERO:
        return "on_quote"
    return "priced"


def parts_on_quote(lines: Sequence[BomLine]) -> int:
    """The distinct parts the BOM lists with no price of their own yet (each to be priced by the vendor's quote)."""
    return len({ln.part_id for ln in lines if ln.price_status == "on_quote"})


COMPUTE = Terms()


def line(role: str, part: PartBase, qty_per_host: int, hosts: int, kind: str, terms: Terms = COMPUTE) -> BomLine:
    """A line at the part's (converted, net) price, or at `terms.unit_price` when that is set."""
    origin = part.origin
    own = terms.unit_price is None
    price = float(part.price) if terms.unit_price is None else terms.unit_price
    list_price = price
    if origin is not None and own:
        list_price = cents(origin.list_price * origin.rate)
    return BomLine(
        role=role,
        part_id=part.id,
        description=describe(part),
        qty_per_host=qty_per_host,
        hosts=hosts,
        unit_price=price,
        currency=part.currency,
        kind=kind,
        price_as_of=part.price_as_of.isoformat(),
        category=terms.category,
        recurring=terms.recurring,
        price_basis=part.price_basis,
        list_unit_price=list_price,
        discount_pct=origin.discount_pct if origin and own else 0.0,
        source_currency=origin.currency if origin else part.currency,
        source_unit_price=origin.list_price if origin and own else None,
        fx_rate=origin.rate if origin else 1.0,
        note=terms.note,
        part_number=part.part_number,
        price_status=price_status(part, terms),
        quote=pricing.quote_of(part),
    )


@dataclass(frozen=True)
class HostBuild:
    """What one host of a role is built from beyond its server: data drives, add-in NICs and the DIMMs added to
    the server's base memory (each with its count per host)."""

    server: Server
    drive: Drive | None = None
    drives: int = 0
    nic: Nic | None = None
    nics: int = 0
    dimm: Dimm | None = None
    dimms: int = 0


def host_lines(role: str, hosts: int, build: HostBuild) -> list[BomLine]:
    """The server, added DIMMs, data drives and NICs of `hosts` hosts of one role (none for no hosts)."""
    if hosts <= 0:
        return []
    b = build
    out = [line(role, b.server, 1, hosts, "server")]
    if b.dimm is not None and b.dimms > 0:
        out.append(line(role, b.dimm, b.dimms, hosts, "dimm"))
    if b.drive is not None and b.drives > 0:
        out.append(line(role, b.drive, b.drives, hosts, "drive"))
    if b.nic is not None and b.nics > 0:
        out.append(line(role, b.nic, b.nics, hosts, "nic"))
    return out


def total_cents(lines: list[BomLine]) -> Decimal:
    """The sum of the lines' extended prices (each already rounded half-up to the cent)."""
    return sum((Decimal(str(ln.extended_price)) for ln in lines), Decimal("0")).quantize(Decimal("0.01"))


def capex(lines: list[BomLine]) -> float:
    return float(total_cents(lines))


def currency_of(lines: list[BomLine]) -> str:
    currencies = sorted({ln.currency for ln in lines})
    return currencies[0] if len(currencies) == 1 else "/".join(currencies) if currencies else "USD"


def totals(lines: list[BomLine], power_w: float, rack_u: int, scenario: Scenario) -> Totals:
    """Capex from the lines (to the cent), power, space, and energy at the scenario's price and PUE."""
    a = scenario.assumptions
    kwh = float(cost_power.annual_kwh(power_w * a.pue))
    return Totals(
        capex=capex(lines),
        power_w=round(power_w, 1),
        rack_u=rack_u,
        currency=currency_of(lines),
        kwh_per_year=round(kwh, 1),
        energy_cost_3y=round(float(cost_power.energy_cost(kwh, a.energy_price_per_kwh, 3)), 2),
    )

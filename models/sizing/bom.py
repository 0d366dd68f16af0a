"""Bill of materials lines and totals. Money is summed in cents so the PDF, CSV and JSON agree."""

from __future__ import annotations

from decimal import Decimal

from models.hardware import Dimm, Drive, Nic, PartBase, Server
from models.perf import cost_power
from models.scenario import Scenario
from models.sizing.result import BomLine, Totals


def describe(part: PartBase) -> str:
    if isinstance(part, Server):
        return (
            f"{part.vendor} {part.model}, {part.sockets}x {part.cpu.model} ({part.cores_total} cores),"
            f" {part.memory_gib} GiB, {part.rack_u}U"
        )
    if isinstance(part, Drive):
        return f"{part.vendor} {part.model} {part.capacity_tb:g} TB {part.interface} {part.form_factor}"
    if isinstance(part, Nic):
        return f"{part.vendor} {part.model} {part.ports}x {part.speed_gbps:g} GbE"
    if isinstance(part, Dimm):
        return f"{part.vendor} {part.model} {part.size_gib} GiB DIMM"
    return f"{part.vendor} {part.model}"


def line(role: str, part: PartBase, qty_per_host: int, hosts: int, kind: str) -> BomLine:
    return BomLine(
        role=role,
        part_id=part.id,
        description=describe(part),
        qty_per_host=qty_per_host,
        hosts=hosts,
        unit_price=float(part.price),
        currency=part.currency,
        kind=kind,
        price_as_of=part.price_as_of.isoformat(),
    )


def host_lines(
    role: str,
    hosts: int,
    server: Server,
    drive: Drive | None,
    drives: int,
    nic: Nic | None,
    nics: int,
    dimm: Dimm | None = None,
    dimms: int = 0,
) -> list[BomLine]:
    if hosts <= 0:
        return []
    out = [line(role, server, 1, hosts, "server")]
    if dimm is not None and dimms > 0:
        out.append(line(role, dimm, dimms, hosts, "dimm"))
    if drive is not None and drives > 0:
        out.append(line(role, drive, drives, hosts, "drive"))
    if nic is not None and nics > 0:
        out.append(line(role, nic, nics, hosts, "nic"))
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

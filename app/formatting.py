"""How numbers, money, ranges and units read: one module for the window, the PDF, the charts and the CLI.

Presentation only: what a value means (its label, unit and better direction) is declared in
`models.vocabulary`; this module only writes it down.
"""

from __future__ import annotations

import math
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING

from models.field_words import FIELDS
from models.percent import percent as _percent
from models.release_words import role_label
from models.uncertainty import Estimate
from models.vocabulary import KINDS, SHARE_UNITS

if TYPE_CHECKING:
    from models.sizing.result import Design, PriceStatus, SizingResult, VmLayout


def data_elsewhere(d: Design) -> str | None:
    """Where the data lives when the hosts have no data drives ("dbspaces on the external SAN"), as the engine
    records it (`models.sizing.result.data_elsewhere`); None when they have drives."""
    from models.sizing.result import data_elsewhere as where

    return where(d)

DASH = "–"  # an absent value


def counted(n: int, word: str) -> str:
    """"1 ETL host", "2 coordinator hosts": a count and the (regular) noun it counts."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def host_roles(d: Design) -> str:
    """The hosts of each role, naming only the roles the design has: "4 IQ nodes", "91: 89 segment hosts +
    2 coordinator hosts" (never "+ 0 coordinator + 0 ETL" for a kind that has none)."""
    workers = KINDS[d.kind].workers(d.worker_hosts) if d.kind in KINDS else "worker hosts"
    roles = [f"{d.worker_hosts} {workers}"]
    coordinator = role_label("coordinator host", d.greenplum_version)  # Greenplum 6: master host
    roles += [counted(n, role) for n, role in ((d.coordinator_hosts, coordinator), (d.etl_hosts, "ETL host")) if n]
    return roles[0] if len(roles) == 1 else f"{d.total_hosts}: {' + '.join(roles)}"


def no_data_drives(d: Design) -> str | None:
    """What the data drives line says for hosts that have none ("none: dbspaces on the external SAN", never
    "0 x none"); None when the hosts have data drives."""
    if d.data_drives_per_host:
        return None
    where = data_elsewhere(d)
    return f"none: {where}" if where else "none"


def _worker_vms(d: Design) -> list[VmLayout]:
    """Every VM of the design's worker hosts (the first layout's role: coordinators' VMs are sized apart)."""
    role = d.hosts[0].bom_role if d.hosts else None
    return [v for h in d.hosts if h.bom_role == role for v in h.vms] or ([d.vm] if d.vm else [])


def vm_sizes_differ(d: Design) -> bool:
    """Whether the worker hosts' VMs differ in vCPUs or memory (PostgreSQL: each database's VM is sized apart)."""
    return len({(v.vcpus, v.memory_gib) for v in _worker_vms(d)}) > 1


def vm_size(d: Design) -> str | None:
    """The VM line of a design: "8 vCPU, 64 GiB" when every VM of its worker hosts has that size, or the range
    when they differ ("sized per database: 2 to 80 vCPU, 8 to 1,251 GiB"), so a consolidation with one large VM
    never reads as if every VM were that large; None without VMs.

    >>> from models.sizing.result import VmLayout
    >>> from types import SimpleNamespace as D
    >>> vm = VmLayout(None, 80, 1251.0, 0)
    >>> vm_size(D(vm=vm, hosts=()))
    '80 vCPU, 1,251 GiB'
    >>> host = D(bom_role="database host", vms=(VmLayout(0, 2, 8.0, 0), vm))
    >>> vm_size(D(vm=vm, hosts=(host,)))
    'sized per database: 2 to 80 vCPU, 8 to 1,251 GiB'
    """
    if d.vm is None:
        return None
    vms = _worker_vms(d)
    cpus, mem = sorted({v.vcpus for v in vms}), sorted({v.memory_gib for v in vms})
    if not vm_sizes_differ(d):
        return f"{cpus[0]} vCPU, {gib(mem[0])}"
    cpu = f"{cpus[0]} to {cpus[-1]}" if len(cpus) > 1 else str(cpus[0])
    size = f"{gib(mem[0]).removesuffix(' GiB')} to {gib(mem[-1])}" if len(mem) > 1 else gib(mem[0])
    return f"sized per database: {cpu} vCPU, {size}"


def shared_buffers_differ(d: Design) -> bool:
    """Whether the database VMs' shared_buffers differ (each database's VM sized apart)."""
    return len(_shared_buffers_mb(d)) > 1


def _shared_buffers_mb(d: Design) -> list[float]:
    return sorted({float(s.value) for g in d.settings if g.product == "postgresql"
                   for s in g.settings if s.name == "shared_buffers" and not isinstance(s.value, str | bool)})


def shared_buffers(d: Design) -> str | None:
    """The shared_buffers line of a PostgreSQL design: "12 GiB" when every database VM has that value, or the
    range when each VM is sized apart ("per database VM: 0.5 to 300 GiB"), read from each VM's own settings so a
    consolidation never shows its first VM's value as if it were every VM's; None without a value.

    >>> from types import SimpleNamespace as D
    >>> from models.sizing.settings import Setting, SettingGroup
    >>> def vm(name, mb): return SettingGroup("postgresql", name, (Setting("shared_buffers", mb, "MB", "", ""),))
    >>> shared_buffers(D(shared_buffers_gib=12.0, settings=(vm("a", 12288), vm("b", 12288))))
    '12 GiB'
    >>> shared_buffers(D(shared_buffers_gib=0.5, settings=(vm("a", 512), vm("b", 307200))))
    'per database VM: 0.5 to 300 GiB'
    """
    if d.shared_buffers_gib is None:
        return None
    mb = _shared_buffers_mb(d)
    if len(mb) <= 1:
        return gib(d.shared_buffers_gib)  # every VM alike (or the settings not given)
    return f"per database VM: {gib(mb[0] / 1024).removesuffix(' GiB')} to {gib(mb[-1] / 1024)}"


def dqp_mode(mode: str) -> str:
    """A SAP IQ DQP mode as the form's choice names it: "Network transfer (private interconnect)"."""
    return FIELDS["workload.dqp_mode"].choice_label(mode)


def humanize(name: str) -> str:
    text = name.replace("_", " ").replace("-", " ").strip()
    return text[:1].upper() + text[1:]


def is_fraction(unit: str) -> bool:
    """A share of 1, printed in percent: one of the share units the vocabulary declares.

    >>> is_fraction("fraction of baseline throughput"), is_fraction("TB/h")
    (True, False)
    """
    return unit in SHARE_UNITS


def number(value: float | None, digits: int = 3) -> str:
    """A few significant digits with thousands separators, never scientific: 1,234 / 12.3 / 0.123."""
    if value is None or not math.isfinite(float(value)):
        return DASH
    v = float(value)
    if v == 0:
        return "0"
    if v.is_integer() and abs(v) >= 1:
        return f"{v:,.0f}"
    mag = math.floor(math.log10(abs(v)))
    decimals = max(0, digits - 1 - mag)
    return f"{v:,.{decimals}f}"


def fractional_count(value: float | None) -> str:
    """A host count that need not be whole (the tornado's continuous count) to two decimals.

    >>> fractional_count(88.6900553), fractional_count(2.0), fractional_count(None)
    ('88.69', '2.00', '–')
    """
    return DASH if value is None or not math.isfinite(float(value)) else f"{float(value):,.2f}"


def number_short(value: float | None) -> str:
    """A figure for a column too narrow for `number`'s: millions and thousands as M and k, a whole number below as it
    is, anything else to two significant digits.

    >>> number_short(7_792_267), number_short(25_452), number_short(0.0000412345), number_short(596)
    ('7.79 M', '25 k', '0.000041', '596')
    """
    if value is None or not math.isfinite(float(value)):
        return DASH
    a = abs(float(value))
    if a >= 1e6:
        return f"{value / 1e6:,.2f} M"
    if a >= 1e4:
        return f"{value / 1e3:,.0f} k"
    return number(value, 2)


def significant(v: float | None, digits: int = 6) -> str:
    """A fitted, measured or typed figure to `digits` significant digits, trailing zeros dropped: the CLI's model
    parameters, USL fits and exchange rates, and the values its error messages quote back.

    >>> significant(0.000123456789), significant(1500.0), significant(1.1601234, 4), significant(None)
    ('0.000123457', '1500', '1.16', '–')
    """
    if v is None or not math.isfinite(float(v)):
        return DASH
    return f"{float(v):.{digits}g}"


def unit_text(unit: str) -> str:
    """The unit as printed after a value; fractions print as percent."""
    return SHARE_UNITS.get(unit, unit)


def value(v: float | None, unit: str, digits: int = 3) -> str:
    """A value with its unit; fractions as percent."""
    if v is None:
        return DASH
    if is_fraction(unit):
        return f"{number(v * 100, digits)} {unit_text(unit)}".strip()
    return f"{number(v, digits)} {unit}".strip()


def bare(v: float | None, unit: str, digits: int = 3) -> str:
    """A value without its unit (for tables with a unit column); fractions as percent."""
    if v is None:
        return DASH
    return number(v * 100 if is_fraction(unit) else v, digits)


def estimate_p50(e: Estimate) -> str:
    return value(e.p50, e.unit)


def estimate_range(e: Estimate) -> str:
    """"535 – 666 s", or "no spread" when the model gives none."""
    if math.isclose(e.p10, e.p90, rel_tol=1e-9, abs_tol=1e-12):
        return "no spread"
    return f"{bare(e.p10, e.unit)} – {value(e.p90, e.unit)}"


def money_figure(amount: float | Decimal | None, cents: bool = True) -> str:
    """A money figure without its currency, for a table column whose heading names the currency.

    >>> money_figure(766500), money_figure(1234.5, cents=False), money_figure(None)
    ('766,500.00', '1,234', '–')
    """
    if amount is None:
        return DASH
    a = Decimal(str(amount)) if not isinstance(amount, Decimal) else amount
    return f"{a:,.2f}" if cents else f"{a:,.0f}"


def money(amount: float | Decimal | None, currency: str, cents: bool = True) -> str:
    """"766,500.00 USD": the BOM and totals format (cents), or whole units for prose and the window.

    >>> money(766500, "USD"), money(1234.5, "EUR", cents=False)
    ('766,500.00 USD', '1,234 EUR')
    """
    if amount is None:
        return DASH
    return f"{money_figure(amount, cents)} {currency}".strip()


def line_amount(amount: float | Decimal | None, recurring: bool = False) -> str:
    """A BOM line's price in a column whose heading names the currency: cents, "/yr" on a yearly line.

    >>> line_amount(1234.5), line_amount(99, recurring=True)
    ('1,234.50', '99.00 /yr')
    """
    return money_figure(amount) + (" /yr" if recurring else "")


# A BOM line whose price is not its own prints what it is, never 0.00 (which procurement would read as free)
PRICE_WORDS: dict[PriceStatus, str] = {"included": "incl.", "on_quote": "on quote"}


def priced_amount(amount: float | Decimal | None, status: PriceStatus, recurring: bool = False) -> str:
    """A BOM line's price as `line_amount` prints it, or "incl." for a part priced inside another line (a server's
    CPUs) and "on quote" for one the vendor's quote prices.

    >>> priced_amount(0, "included"), priced_amount(0, "on_quote"), priced_amount(0, "priced")
    ('incl.', 'on quote', '0.00')
    """
    return PRICE_WORDS.get(status) or line_amount(amount, recurring)


def converted_from(amount: float | Decimal | None, currency: str, rate: float | None) -> str:
    """A price as the catalog states it and the rate that converted it to the project currency.

    >>> converted_from(1000, "EUR", 1.0812345)
    '1,000.00 EUR at 1.081'
    """
    return f"{money(amount, currency)} at {DASH if rate is None else format(rate, '.4g')}"


def percent(fraction: float, decimals: int = 0, *, sign: bool = False) -> str:
    """A ratio as a percentage, the product's one rule (`models.percent`: a space before "%", as `value` prints
    a fraction).

    >>> percent(0.25), percent(1.5), percent(0.121, 1, sign=True)
    ('25 %', '150 %', '+12.1 %')
    """
    return _percent(fraction, decimals, sign=sign)


def table_number(v: float) -> str:
    """A number in a plain-text table with no unit of its own: cents below a million, whole units above.

    >>> table_number(1234.567), table_number(12_345_678.9)
    ('1,234.57', '12,345,679')
    """
    return f"{v:,.2f}" if abs(v) < 1e6 else f"{v:,.0f}"


def rate(v: float) -> str:
    """An exchange rate to six significant digits.

    >>> rate(0.92345678)
    '0.923457'
    """
    return f"{v:.6g}"


def money_short(amount: float, currency: str) -> str:
    """"1.20 M USD", "350 k USD", "9,800 USD": for cards, chart labels and axes."""
    a = abs(amount)
    if a >= 1e6:
        return f"{amount / 1e6:,.2f} M {currency}".strip()
    if a >= 1e4:
        return f"{amount / 1e3:,.0f} k {currency}".strip()
    return money(amount, currency, cents=False)


def compact(v: float) -> str:
    """Axis ticks: 1.2 M, 350 k, 12."""
    a = abs(v)
    if a >= 1e6:
        return f"{v / 1e6:g} M"
    if a >= 1e4:
        return f"{v / 1e3:g} k"
    return f"{v:g}"


KW_FROM_W = 10_000  # from here a power reads in kW


def power(watts: float) -> str:
    """"1,682 W", "60.7 kW": watts below `KW_FROM_W`, kilowatts from there."""
    return f"{watts / 1000:,.1f} kW" if watts >= KW_FROM_W else f"{watts:,.0f} W"


def power_with_watts(watts: float) -> str:
    """The power, and the exact watts behind it once it reads in kW: "60.7 kW (60,702 W)", never
    "1,682 W (1,682 W)".

    >>> power_with_watts(60702.4), power_with_watts(1682.0)
    ('60.7 kW (60,702 W)', '1,682 W')
    """
    return power(watts) + (f" ({watts:,.0f} W)" if watts >= KW_FROM_W else "")


def rack_power(peak_kw: float, budget_kw: float) -> str:
    """A rack's peak draw against its budget, both to three significant digits.

    >>> rack_power(13.6953, 13.6953125)
    '13.7 kW peak of 13.7 kW'
    """
    return f"{number(peak_kw)} kW peak of {number(budget_kw)} kW"


def long_date(d: date) -> str:
    """"21 November 2026": unambiguous in every locale."""
    return f"{d.day} {d:%B %Y}"


def gib(v: float) -> str:
    return f"{v:,.0f} GiB" if v >= 10 or float(v).is_integer() else f"{v:,.1f} GiB"


def tb(v: float) -> str:
    return f"{v:,.1f} TB" if v >= 1 else f"{v:,.2f} TB"


def quantity(v: float, unit: str) -> str:
    """A design's figure with its unit, one rule per unit: memory in GiB (`gib`), capacity in TB (`tb`), a fraction
    as a percentage (unit "%"), megabytes and counts whole, anything else to three significant digits.

    >>> quantity(512.0, "GiB"), quantity(40.0, "TB"), quantity(0.25, "%"), quantity(32768, "MB"), quantity(12, "")
    ('512 GiB', '40.0 TB', '25 %', '32,768 MB', '12')
    >>> quantity(200.0, "Gbit/s"), quantity(0.75, "")
    ('200 Gbit/s', '0.750')
    """
    if unit == "GiB":
        return gib(v)
    if unit == "TB":
        return tb(v)
    if unit == "%":
        return percent(v)
    if unit == "MB":
        return f"{v:,.0f} MB"
    return f"{number(v)} {unit}".strip()


def part_description(r: SizingResult, part_id: str | None) -> str:
    """A part of the design by its catalog description (its BOM line), the id only when it has none."""
    for ln in r.bom:
        if ln.part_id == part_id:
            return ln.description
    return part_id or "none"


def with_part_number(name: str, part_number: str) -> str:
    """A part's name and, when known, the vendor part number procurement orders by, once: a catalog model that
    already names its number gets no second copy.

    >>> with_part_number("Samsung PM1743 7.68TB U.2", "MZWLO7T6HBLA-00A07"), with_part_number("Dell R7625", "")
    ('Samsung PM1743 7.68TB U.2 (P/N MZWLO7T6HBLA-00A07)', 'Dell R7625')
    >>> with_part_number("ConnectX-5 EN 2x100GbE (MCX516A-CCAT)", "MCX516A-CCAT")
    'ConnectX-5 EN 2x100GbE (MCX516A-CCAT)'
    """
    return f"{name} (P/N {part_number})" if part_number and part_number.lower() not in name.lower() else name


def part_with_number(r: SizingResult, part_id: str | None) -> str:
    """The part's name with the vendor part number its BOM line carries (`with_part_number`)."""
    number = next((ln.part_number for ln in r.bom if ln.part_id == part_id and ln.part_number), "")
    return with_part_number(part_description(r, part_id), number)


def label_forms(label: str) -> list[str]:
    """The part's label, then shorter forms that are still whole words and keep its model number (the first word
    with a digit): without the bracketed note, fewer trailing words ("PowerSwitch S4148F-ON 48x10GbE + 4x100GbE"
    -> "PowerSwitch S4148F-ON"), then the model number alone ("A+ Storage ASG-1115S-NE316R" -> "ASG-1115S-NE316R":
    half a series name, "Storage ASG-...", would read as another product)."""
    base = label.split(" (")[0]
    words = base.split() or [label]
    model = next((i for i, w in enumerate(words) if any(c.isdigit() for c in w)), len(words) - 1)
    prefixes = [" ".join(words[:n]).rstrip(" +,/;:") for n in range(len(words) - 1, model, -1)]
    return list(dict.fromkeys([label, base, *prefixes, words[model]]))

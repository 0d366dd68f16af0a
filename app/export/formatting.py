"""How numbers and names read in the exported documents (presentation only, no sizing)."""

from __future__ import annotations

import math
from datetime import date
from decimal import Decimal

from models.uncertainty import Estimate

METRIC_LABELS: dict[str, str] = {
    "full_scan_s": "Full-scan time",
    "load_tb_per_hour": "Load rate",
    "queries_per_hour": "Report queries per hour",
    "tps": "Transactions per second",
    "throughput_metric": "TPC-H throughput",
    "power_metric": "TPC-H power",
    "overcommit_rate": "Memory overcommit",
    "performance_preserved": "Throughput preserved",
}

KIND_LABELS: dict[str, str] = {
    "greenplum-analytics": "Greenplum analytics (MPP data warehouse)",
    "greenplum-oltp": "Greenplum OLTP",
    "postgres-consolidation": "PostgreSQL database consolidation",
    "sap-iq-multiplex": "SAP IQ multiplex",
}

DEPLOYMENT_LABELS: dict[str, str] = {"bare-metal": "bare metal", "vsphere": "VMware vSphere"}

# target field of the scenario -> (estimate or total it bounds, "max"/"min")
TARGET_METRICS: dict[str, tuple[str, str]] = {
    "max_full_scan_s": ("full_scan_s", "max"),
    "min_load_tb_per_hour": ("load_tb_per_hour", "min"),
    "min_queries_per_hour": ("queries_per_hour", "min"),
    "min_tps": ("tps", "min"),
    "max_capex": ("capex", "max"),
    "max_power_w": ("power_w", "max"),
    "max_rack_u": ("rack_u", "max"),
}

_SUFFIXES = ("_per_hour", "_tb", "_gib", "_gb", "_ms", "_s", "_w", "_pct")


def metric_label(name: str) -> str:
    if name in METRIC_LABELS:
        return METRIC_LABELS[name]
    base = name
    for suffix in _SUFFIXES:
        if base.endswith(suffix) and len(base) > len(suffix):
            base = base[: -len(suffix)]
            break
    text = base.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def humanize(name: str) -> str:
    text = name.replace("_", " ").replace("-", " ").strip()
    return text[:1].upper() + text[1:]


def is_fraction(unit: str) -> bool:
    return unit.strip().lower().startswith("fraction")


def number(value: float | None, digits: int = 3) -> str:
    """A few significant digits with thousands separators: 1,234 / 12.3 / 0.123."""
    if value is None or not math.isfinite(float(value)):
        return "–"
    v = float(value)
    if v == 0:
        return "0"
    if v.is_integer() and abs(v) >= 1:
        return f"{v:,.0f}"
    mag = math.floor(math.log10(abs(v)))
    decimals = max(0, digits - 1 - mag)
    return f"{v:,.{decimals}f}"


def unit_text(unit: str) -> str:
    """The unit as printed after a value; fractions print as percent."""
    if is_fraction(unit):
        rest = unit.strip()[len("fraction"):].strip()
        return f"% {rest}".strip()
    return unit


def value(v: float | None, unit: str, digits: int = 3) -> str:
    """A value with its unit; fractions as percent."""
    if v is None:
        return "–"
    if is_fraction(unit):
        return f"{number(v * 100, digits)} {unit_text(unit)}".strip()
    return f"{number(v, digits)} {unit}".strip()


def bare(v: float | None, unit: str, digits: int = 3) -> str:
    """A value without its unit (for tables with a unit column); fractions as percent."""
    if v is None:
        return "–"
    return number(v * 100 if is_fraction(unit) else v, digits)


def estimate_range(e: Estimate) -> str:
    """"535 – 666 s" or "exact" when the model gives no spread."""
    if math.isclose(e.p10, e.p90, rel_tol=1e-9, abs_tol=1e-12):
        return "no spread"
    return f"{bare(e.p10, e.unit)} – {value(e.p90, e.unit)}"


def money(amount: float | Decimal, currency: str, cents: bool = True) -> str:
    """"766,500.00 USD": the BOM and totals format (cents), or whole units for prose."""
    a = Decimal(str(amount)) if not isinstance(amount, Decimal) else amount
    text = f"{a:,.2f}" if cents else f"{a:,.0f}"
    return f"{text} {currency}".strip()


def money_short(amount: float, currency: str) -> str:
    a = abs(amount)
    if a >= 1e6:
        return f"{amount / 1e6:,.2f} M {currency}".strip()
    if a >= 1e4:
        return f"{amount / 1e3:,.0f} k {currency}".strip()
    return money(amount, currency, cents=False)


def power(watts: float) -> str:
    return f"{watts / 1000:,.1f} kW" if watts >= 10_000 else f"{watts:,.0f} W"


def long_date(d: date) -> str:
    """"21 November 2026": unambiguous in every locale."""
    return f"{d.day} {d:%B %Y}"


RAID_LABELS = {"none": "no RAID", "raid1": "RAID 1", "raid5": "RAID 5", "raid10": "RAID 10", "vsan": "vSAN"}


def raid_label(raid: str) -> str:
    return RAID_LABELS.get(raid, raid)


def gib(v: float) -> str:
    return f"{v:,.0f} GiB" if v >= 10 or float(v).is_integer() else f"{v:,.1f} GiB"


def tb(v: float) -> str:
    return f"{v:,.1f} TB" if v >= 1 else f"{v:,.2f} TB"

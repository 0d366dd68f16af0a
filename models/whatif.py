"""What-if analyses on a sized scenario: comparison, growth year by year, and sensitivity (tornado).

Each analysis re-runs `size` on modified copies of the scenario, with the hardware of the
original design pinned, so the numbers are the engine's own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from models.hardware import Drive, HardwareCatalog, Server
from models.scenario import (
    GreenplumAnalytics,
    GreenplumOltp,
    PostgresConsolidation,
    SapIqMultiplex,
    Scenario,
)
from models.sizing.continuous import Continuous, continuous
from models.sizing.engine import size
from models.sizing.result import SizingResult
from models.tasks import IsCancelled
from models.vocabulary import METRICS, RAID_LEVELS, lower_is_better, metric_label


def pinned(scenario: Scenario, result: SizingResult) -> Scenario:
    """The scenario with the design's hardware fixed (server, drive, deployment, RAID), counts left free."""
    d = result.design
    plat = scenario.platform.model_copy(update={
        "server_id": d.server_id, "drive_id": d.drive_id, "nic_id": d.nic_id,
        "raid": d.raid if d.raid in RAID_LEVELS else scenario.platform.raid,
    })
    return scenario.model_copy(update={"platform": plat})


# --- Compare -------------------------------------------------------------------------------------


Per = Literal["capex", "tco", "kW"]  # what a rate row divides an estimate by

# Deterministic rows (capex, power, rack space) differ by less than this share: prices are list prices and power
# is modelled at an average load, so a 1 % difference is not one a customer should choose on.
CLEAR_DIFFERENCE_PCT = 2.0


@dataclass(frozen=True)
class Verdict:
    """Who wins a row, or why nobody does (`winner` None and `reason` set); `among` says when the winner was found
    among some options only (those answering the same work), the others not ranked."""

    winner: int | None
    reason: str = ""
    among: str = ""

    def text(self, names: list[str]) -> str:
        if self.winner is None:
            return f"no clear winner ({self.reason})"
        return f"{names[self.winner]} ({self.among})" if self.among else names[self.winner]


@dataclass(frozen=True)
class CompareRow:
    """One row of the side-by-side comparison. `metric` is the row's key as `to_dict` gives it ("capex",
    "full_scan_s", "full_scan_s per 1k USD TCO"); what the row measures is in fields, never read back from it:
    `base` the estimate a rate row divides, `per` what it divides by, `currency` the money it is counted in."""

    metric: str
    unit: str
    values: list[float | None]
    ranges: list[tuple[float, float] | None]
    higher_is_better: bool | None  # None: no winner (a description, not a score)
    # the work each option answers (`SizingResult.workload_key`, else its kind): winners only among equal ones
    kinds: list[str] = dataclasses.field(default_factory=list)
    base: str = ""  # a rate row (`per` set): the estimate divided; else the row's own metric ("" = `metric`)
    per: Per | None = None  # a rate row: the estimate per 1,000 of capex or TCO, or per kW of power
    currency: str = ""  # money rows and per-money rows: the project currency ("EUR/USD" when they differ)

    @property
    def measured(self) -> str:
        """What the row measures before any division: "capex", "full_scan_s"."""
        return self.base or self.metric

    @property
    def is_money(self) -> bool:
        """A money amount (capex, per year, TCO), not a rate per money."""
        return bool(self.currency) and self.per is None

    @property
    def verdict(self) -> Verdict:
        """The best option, only when the options do the same work and the difference is real.

        Options for different work are not ranked against each other (a PostgreSQL farm is not a cheaper Greenplum
        warehouse, a 6 TB lab test bed not a cheaper 60 TB one): where some options answer the same work, the winner
        is found among them (the first option's work, else the most common) and the others are shown, not ranked. An
        estimate wins only when its P10-P90 range clears every other option's range; a deterministic value only when
        it beats the runner-up by more than CLEAR_DIFFERENCE_PCT.

        >>> CompareRow("full_scan_s", "s", [594.0, 595.0], [(516.0, 686.0), (517.0, 690.0)], False).verdict.reason
        'the P10-P90 ranges overlap'
        >>> CompareRow("capex", "USD", [100.0, 200.0], [None, None], False, ["gp", "pg"]).verdict.reason
        'the options run different workloads'
        >>> CompareRow("capex", "USD", [100.0, 200.0], [None, None], False, ["gp", "gp"]).verdict.winner
        0
        >>> v = CompareRow("capex", "USD", [300.0, 5.0, 200.0], [None] * 3, False, ["60TB", "6TB", "60TB"]).verdict
        >>> v.winner, v.among
        (2, 'among the options for the same workload')
        """
        vals = [(i, v) for i, v in enumerate(self.values) if v is not None]
        if self.higher_is_better is None:
            return Verdict(None, "a description, not a score")
        if len(vals) < 2:
            return Verdict(None, "only one option has this value")
        among = ""
        if self.kinds and len({self.kinds[i] for i, _ in vals}) > 1:
            vals = self._alike(vals)
            if len(vals) < 2:
                return Verdict(None, "the options run different workloads")
            among = "among the options for the same workload"
        found = self._pick(vals)
        return dataclasses.replace(found, among=among) if found.winner is not None else found

    def _alike(self, vals: list[tuple[int, float]]) -> list[tuple[int, float]]:
        """The options answering the same work as the first one, or else as the most options do (fewer than two:
        nothing to rank)."""
        keys = [self.kinds[i] for i, _ in vals]
        counts = {k: keys.count(k) for k in keys}
        key = keys[0] if counts[keys[0]] >= 2 else max(counts, key=lambda k: counts[k])
        return [(i, v) for i, v in vals if self.kinds[i] == key] if counts[key] >= 2 else []

    def _pick(self, vals: list[tuple[int, float]]) -> Verdict:
        """The best of `vals` when the difference is real."""
        if len({v for _, v in vals}) == 1:
            return Verdict(None, "equal")
        pick = max if self.higher_is_better else min
        best, best_v = pick(vals, key=lambda iv: iv[1])
        others = [(i, v) for i, v in vals if i != best]
        best_rng = self.ranges[best]
        if best_rng is not None:
            for i, _ in others:
                rng = self.ranges[i]
                if rng is None:
                    continue
                clear = best_rng[0] > rng[1] if self.higher_is_better else best_rng[1] < rng[0]
                if not clear:
                    return Verdict(None, "the P10-P90 ranges overlap")
            return Verdict(best)
        runner_up = pick(others, key=lambda iv: iv[1])[1]
        scale = max(abs(best_v), abs(runner_up))
        if scale == 0 or abs(best_v - runner_up) / scale * 100 <= CLEAR_DIFFERENCE_PCT:
            return Verdict(None, f"within {CLEAR_DIFFERENCE_PCT:g} %")
        return Verdict(best)

    @property
    def winner(self) -> int | None:
        return self.verdict.winner

    @property
    def label(self) -> str:
        """What the row measures, in words: "Hosts (all roles)", "Full scans per hour per kW"."""
        if self.per == "kW":
            return f"{_rate_label(self.measured)} per kW"
        if self.per is not None:
            return f"{_rate_label(self.measured)} per 1,000 {self.currency}" + (" TCO" if self.per == "tco" else "")
        return _ROW_LABELS.get(self.metric) or metric_label(self.metric)

    def deltas(self) -> list[float | None]:
        base = self.values[0]
        return [None if v is None or base is None else v - base for v in self.values]

    def to_dict(self) -> dict[str, Any]:
        v = self.verdict
        return {"metric": self.metric, "unit": self.unit, "values": self.values,
                "ranges": [list(r) if r else None for r in self.ranges], "deltas_vs_first": self.deltas(),
                "winner": v.winner, "no_winner_reason": v.reason or None}


# rows of `compare` that are not estimates
_ROW_LABELS = {
    "worker hosts": "Worker hosts",
    "total hosts": "Hosts (all roles)",
    "data drives": "Data drives",
    "capex": METRICS["capex"].label,
    "power": METRICS["power_w"].label,
    "rack space": METRICS["rack_u"].label,
    "energy": "Energy per year",
}


def _rate_label(metric: str) -> str:
    """A performance metric as a rate: a time reads as the runs per hour it stands for."""
    declared = METRICS.get(metric)
    return declared.rate_label if declared is not None and declared.rate_label else metric_label(metric)


def compare(results: list[SizingResult]) -> list[CompareRow]:
    """Rows of the side-by-side comparison; lower capex/power/rack wins, the better estimate wins (see `verdict`),
    only among options for the same work (`SizingResult.workload_key`)."""
    kinds = [r.workload_key or r.design.kind for r in results]
    currencies = sorted({r.totals.currency for r in results})
    # money in two project currencies is never compared digit for digit: no winner on those rows
    cur = currencies[0] if len(currencies) == 1 else "/".join(currencies)
    money_hib: bool | None = False if len(currencies) <= 1 else None

    def row(metric: str, unit: str, get: Callable[[SizingResult], float | None], hib: bool | None,
            currency: str = "") -> CompareRow:
        return CompareRow(metric, unit, [get(r) for r in results], [None] * len(results), hib, kinds,
                          currency=currency)

    def rate_row(m: str, per: Per, hib: bool | None) -> CompareRow:
        """The estimate `m` per 1,000 of capex or TCO, or per kW of power."""
        metric, unit, by = {"capex": (f"{m} per 1k {cur}", "per 1k", "capex"),
                            "tco": (f"{m} per 1k {cur} TCO", "per 1k", "tco"),
                            "kW": (f"{m} per kW", "per kW", "power_w")}[per]
        get, ranges = _per(m, by), _per_range(m, by)
        return CompareRow(metric, unit, [get(r) for r in results], [ranges(r) for r in results], hib, kinds, m, per,
                          cur if per != "kW" else "")

    rows = [
        row("worker hosts", "hosts", lambda r: float(r.design.worker_hosts), False),
        row("total hosts", "hosts", lambda r: float(r.design.total_hosts), False),
        row("data drives", "drives", lambda r: float(r.design.data_drives_per_host * r.design.worker_hosts), None),
        row("capex", cur, lambda r: r.totals.capex, money_hib, currency=cur),
        row("per year", cur, lambda r: r.totals.recurring_per_year, money_hib, currency=cur),
        row(f"TCO {results[0].totals.tco_years if results else 0} years", cur, lambda r: r.totals.tco, money_hib,
            currency=cur),
        row("power", "W", lambda r: r.totals.power_w, False),
        row("rack space", "U", lambda r: float(r.totals.rack_u), False),
        row("energy", "kWh/year", lambda r: r.totals.kwh_per_year, False),
    ]
    metrics = sorted({m for r in results for m in r.estimates})
    for m in metrics:
        est = [r.estimates.get(m) for r in results]
        unit = next(e.unit for e in est if e is not None)
        hib = _higher_is_better(m)
        rows.append(CompareRow(m, unit, [e.p50 if e else None for e in est],
                               [(e.p10, e.p90) if e else None for e in est], hib, kinds))
        if not (m in METRICS and METRICS[m].performance):
            continue
        # per-dollar and per-watt rows hold rates (a time becomes runs per hour): more is always better
        per_money: bool | None = True if money_hib is not None else None
        rows += [rate_row(m, "capex", per_money), rate_row(m, "tco", per_money), rate_row(m, "kW", True)]
    return rows


def unranked(results: list[SizingResult]) -> list[int]:
    """The options a comparison shows but never ranks: those answering other work (data, concurrency, targets)
    than the options it ranks (`CompareRow.verdict`: the first option's work where another option shares it, else
    the work most options share); every option when no two answer the same work.

    >>> from types import SimpleNamespace as R
    >>> unranked([R(workload_key="60", design=None), R(workload_key="6", design=None),
    ...           R(workload_key="60", design=None)])  # type: ignore[list-item]
    [1]
    """
    keys = [r.workload_key or r.design.kind for r in results]
    counts = {k: keys.count(k) for k in keys}
    if not keys:
        return []
    key = keys[0] if counts[keys[0]] >= 2 else max(counts, key=lambda k: counts[k])
    return [i for i, k in enumerate(keys) if k != key or counts[key] < 2]


def compare_by_kind(results: list[SizingResult]) -> list[tuple[str, list[int], list[CompareRow]]]:
    """`compare` within each workload kind, in order of first appearance: (kind, the options' indices in
    `results`, rows over just those options). Winners and deltas of a kind's rows never involve another kind."""
    by_kind: dict[str, list[int]] = {}
    for i, r in enumerate(results):
        by_kind.setdefault(r.design.kind, []).append(i)
    return [(k, idx, compare([results[i] for i in idx])) for k, idx in by_kind.items()]


def _higher_is_better(metric: str) -> bool | None:
    """True/False from the metric's declared direction; None (no winner) for a description."""
    if metric not in METRICS:
        return True
    better = METRICS[metric].better
    return None if better is None else better == "higher"


def _rate(metric: str, value: float) -> float:
    # for a time, "per dollar" is the rate it stands for: scans per hour per 1k spent
    return 3600.0 / value if lower_is_better(metric) else value


def _per(metric: str, total: str) -> Callable[[SizingResult], float | None]:
    def get(r: SizingResult) -> float | None:
        e = r.estimates.get(metric)
        denom: float = getattr(r.totals, total) / 1000.0
        if e is None or denom <= 0 or e.p50 <= 0:
            return None
        return _rate(metric, e.p50) / denom
    return get


def _per_range(metric: str, total: str) -> Callable[[SizingResult], tuple[float, float] | None]:
    """The estimate's P10-P90 carried through the division, so per-dollar rows obey the same uncertainty rule."""
    def get(r: SizingResult) -> tuple[float, float] | None:
        e = r.estimates.get(metric)
        denom: float = getattr(r.totals, total) / 1000.0
        if e is None or denom <= 0 or e.p10 <= 0:
            return None
        a, b = _rate(metric, e.p10) / denom, _rate(metric, e.p90) / denom
        return (min(a, b), max(a, b))
    return get


# --- Growth -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GrowthYear:
    year: int
    data_tb: float
    data_on_disk_tb: float
    hosts: int
    capex_total: float
    capex_expansion: float

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def growth(
    scenario: Scenario, catalog: HardwareCatalog, result: SizingResult | None = None,
    cancelled: IsCancelled | None = None,
) -> list[GrowthYear]:
    """Buy-as-you-grow: the hosts each year's data needs on the design's hardware, and what each year adds.
    `cancelled()` turning True raises `models.tasks.Cancelled`."""
    w = scenario.workload
    if isinstance(w, PostgresConsolidation):
        r = result or size(scenario, catalog, cancelled=cancelled)
        return [GrowthYear(0, r.design.data_needed_tb, r.design.data_needed_tb, r.design.worker_hosts,
                           r.totals.capex, r.totals.capex)]
    design = result or size(scenario, catalog, cancelled=cancelled)
    base = pinned(scenario, design)
    # hosts of the same build each year, its data drives too: a drive count left free may step (the counts that
    # carry the primaries evenly are few), which would give a year fewer hosts than the year before
    base = base.model_copy(update={"platform": base.platform.model_copy(
        update={"drives_per_host": design.design.data_drives_per_host if isinstance(w, GreenplumAnalytics |
                GreenplumOltp) else base.platform.drives_per_host})})
    years: list[GrowthYear] = []
    previous = 0.0
    for y in range(w.horizon_years + 1):
        # the last year is the design itself: sized for the data at the horizon, and on its own hardware the same
        # design again (tests/models/sizing/test_whatif.py sizes that year as the others on every sample and more)
        ws = base.model_copy(update={"workload": w.model_copy(update={"horizon_years": y})})
        r = design if y == w.horizon_years else size(ws, catalog, cancelled=cancelled)
        years.append(GrowthYear(
            year=y,
            data_tb=round(w.data_tb * (1 + w.growth_pct_per_year / 100.0) ** y, 3),
            data_on_disk_tb=r.design.data_needed_tb,
            hosts=r.design.worker_hosts,
            capex_total=r.totals.capex,
            capex_expansion=round(r.totals.capex - previous, 2),
        ))
        previous = r.totals.capex
    return years


# --- Sensitivity ---------------------------------------------------------------------------------------


Rounding = Literal["continuous", "whole"]  # `SensitivityBar.rounding`


@dataclass(frozen=True)
class SensitivityBar:
    input: str
    low_capex: float
    high_capex: float
    low_main: float
    high_main: float
    base_capex: float
    base_main: float
    low_hosts: int = 0  # worker hosts of the design at -delta, the base and +delta: whole hosts, so bars move in steps
    base_hosts: int = 0
    high_hosts: int = 0
    # each end's main estimate P50 on its design's continuous host count (`models.sizing.continuous`) and that count;
    # None where the kind has none (SAP IQ nodes, PostgreSQL VMs): `rounding` says so
    low_main_continuous: float | None = None
    base_main_continuous: float | None = None
    high_main_continuous: float | None = None
    low_hosts_continuous: float | None = None
    base_hosts_continuous: float | None = None
    high_hosts_continuous: float | None = None

    @property
    def rounding(self) -> Rounding:
        """"continuous": the *_continuous values take the whole-host step out; "whole": the kind has no continuous
        count, so every end is a design of whole hosts (nodes, VMs) and a step in them can decide the bar."""
        return "whole" if self.base_main_continuous is None else "continuous"

    @property
    def swing(self) -> float:
        return abs(self.high_capex - self.low_capex)

    @property
    def host_rounding(self) -> bool:
        """Both ends moved the main estimate the same way from the base while the host count changed: the whole-host
        step, not the input, decides the bar (e.g. -20 % data on one host fewer scans slower than the base).

        >>> SensitivityBar("data", 1, 2, 110.0, 105.0, 1.5, 100.0, 9, 10, 12).host_rounding
        True
        >>> SensitivityBar("data", 1, 2, 90.0, 105.0, 1.5, 100.0, 10, 10, 10).host_rounding
        False
        """
        same_side = (self.low_main - self.base_main) * (self.high_main - self.base_main) > 0
        return same_side and len({self.low_hosts, self.base_hosts, self.high_hosts}) > 1

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "capex_swing": self.swing, "host_rounding": self.host_rounding,
                "rounding": self.rounding}


def _workload_inputs(w: object) -> dict[str, str]:
    if isinstance(w, GreenplumAnalytics):
        return {"data volume": "data_tb", "growth": "growth_pct_per_year", "compression": "compression_ratio",
                "concurrency": "concurrent_queries"}
    if isinstance(w, GreenplumOltp):
        return {"data volume": "data_tb", "growth": "growth_pct_per_year", "compression": "compression_ratio",
                "concurrency": "clients"}
    if isinstance(w, SapIqMultiplex):
        return {"data volume": "data_tb", "growth": "growth_pct_per_year", "compression": "compression_ratio",
                "concurrency": "query_streams"}
    return {}


def _scaled_value(w: object, field: str, factor: float) -> float | int:
    v: float | int = getattr(w, field)
    if field == "compression_ratio":
        return max(1.0, v * factor)
    if isinstance(v, int) and not isinstance(v, bool):
        return max(1, round(v * factor))
    return v * factor


def _scaled_catalog(catalog: HardwareCatalog, part_id: str, factor: float) -> HardwareCatalog:
    parts = []
    for p in catalog:
        if p.id == part_id:
            p = dataclasses.replace(p, price=p.price * factor)
        elif isinstance(p, Server) and p.cpu.id == part_id:
            p = dataclasses.replace(p, cpu=dataclasses.replace(p.cpu, price=p.cpu.price * factor))
        parts.append(p)
    return HardwareCatalog(tuple(parts), catalog.rates, catalog.currency)


def sensitivity(
    scenario: Scenario, catalog: HardwareCatalog, delta: float = 0.2, result: SizingResult | None = None,
    cancelled: IsCancelled | None = None,
) -> list[SensitivityBar]:
    """Capex and main estimate for -delta / +delta on each main input, largest capex swing first.
    `cancelled()` turning True raises `models.tasks.Cancelled`."""
    base_result = result or size(scenario, catalog, cancelled=cancelled)
    base = pinned(scenario, base_result)
    main = base_result.main_metric
    base_main = base_result.estimates[main].p50 if main in base_result.estimates else float("nan")
    bars: list[SensitivityBar] = []

    base_cont = continuous(scenario, catalog, base_result)

    def run(s: Scenario, cat: HardwareCatalog) -> tuple[float, float, int, Continuous | None]:
        r = size(s, cat, cancelled=cancelled)
        return (r.totals.capex, r.estimates[main].p50 if main in r.estimates else float("nan"), r.design.worker_hosts,
                continuous(s, cat, r))

    def bar(label: str, low: tuple[float, float, int, Continuous | None],
            high: tuple[float, float, int, Continuous | None]) -> SensitivityBar:
        (lc, lm, lh, lk), (hc, hm, hh, hk) = low, high
        ends = (lk, base_cont, hk)
        return SensitivityBar(label, lc, hc, lm, hm, base_result.totals.capex, base_main, lh,
                              base_result.design.worker_hosts, hh, *(None if e is None else e.main for e in ends),
                              *(None if e is None else e.hosts for e in ends))

    w = scenario.workload
    for label, field in _workload_inputs(w).items():
        if field == "growth_pct_per_year" and getattr(w, field) == 0:
            continue
        lo = base.model_copy(update={"workload": w.model_copy(update={field: _scaled_value(w, field, 1 - delta)})})
        hi = base.model_copy(update={"workload": w.model_copy(update={field: _scaled_value(w, field, 1 + delta)})})
        bars.append(bar(label, run(lo, catalog), run(hi, catalog)))
    priced = (("drive price", base_result.design.drive_id), ("server price", base_result.design.server_id))
    for label, part_id in priced:
        if part_id is None:
            continue
        part = catalog.get(part_id)
        if isinstance(part, Drive | Server):
            bars.append(bar(label, run(base, _scaled_catalog(catalog, part_id, 1 - delta)),
                            run(base, _scaled_catalog(catalog, part_id, 1 + delta))))
    return sorted(bars, key=lambda b: -b.swing)

"""`size`: from a scenario and a hardware catalog to a complete, explained design."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING

from models import pricing
from models.hardware import HardwareCatalog, UnknownPartError
from models.problems import Problem
from models.scenario import GreenplumAnalytics, GreenplumOltp, PostgresConsolidation, SapIqMultiplex, Scenario
from models.sizing import commercial
from models.sizing.idle_cores import Work, idle_core_warnings
from models.sizing.part_filter import allowed, filter_problems
from models.sizing.parts import SizingInputError, generation_warnings, resolve, unknown_slot_warnings
from models.sizing.result import SizingResult, Warning
from models.sizing.targets import check_targets
from models.sizing.values_used import values_used
from models.sizing.workload_key import workload_key
from models.tasks import IsCancelled, Progress, check_cancelled, part_progress

if TYPE_CHECKING:
    from models.measurements.profile import MeasurementProfile

__all__ = ["SizingInputError", "size"]


def size(
    scenario: Scenario,
    catalog: HardwareCatalog,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
    profiles: Mapping[str, MeasurementProfile] | None = None,
) -> SizingResult:
    """Size one scenario (`_size`); a scenario naming measurement profiles (`platform.measurements`, found in
    `profiles`) is sized on the modelled rates, then on the measured ones (`models.measurements.calibration`),
    and the result carries the comparison (`calibration`) and says what changed."""
    from models.perf import measured as measured_rates

    names = scenario.platform.measurements
    if not names or measured_rates.active():  # inside a sizing on measurements (growth, curves): its rates apply
        return _size(scenario, catalog, progress, cancelled)
    from models.measurements import calibration

    available = profiles or {}
    gone = calibration.missing(names, available)
    if gone:
        raise SizingInputError([Problem(f"platform.measurements[{i}]", f"no measurement profile {n!r} in the "
                                        "catalog (refarch measure list shows them)") for i, n in gone])
    before = _size(scenario, catalog, part_progress(progress, 0, 2), cancelled)
    plan = calibration.plan(scenario, [available[n] for n in names], before, catalog)
    used = measured_rates.Measured(plan.scan, plan.oltp, plan.pg)
    with measured_rates.using(used):
        after = _size(scenario, catalog, part_progress(progress, 1, 2), cancelled)
    doc = calibration.report(plan, before, after)
    return dataclasses.replace(after, calibration=doc, measured=used,
                               warnings=after.warnings + calibration.warnings(doc))


def _size(
    scenario: Scenario,
    catalog: HardwareCatalog,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> SizingResult:
    """Size one scenario. Unknown or incompatible parts raise `SizingInputError` listing every problem;
    targets that cannot be met are not errors: the nearest design comes back, `result.target_checks` says
    which target is met, missed or unreachable (and a critical warning per target not met).

    Prices are compared and summed in the project currency only (`models.pricing`): the catalog is
    converted, net of discounts, before any part is chosen; `commercial.complete` then adds boot drives,
    network, racks, licences and support, the totals in one currency and the TCO rows.

    `progress` / `cancelled` follow `models.tasks`: one part per design sized (the design, then each
    year of an as-you-grow purchase), the Greenplum candidate search reporting within its part;
    `cancelled()` turning True raises `models.tasks.Cancelled`."""
    check_cancelled(cancelled)
    c = scenario.commercial
    converted = pricing.in_currency(catalog, c.currency, c.discounts_pct)
    check_commercial_ids(scenario, catalog, converted.left_out)
    if problems := filter_problems(scenario, converted.catalog):
        raise SizingInputError(problems)
    priced = allowed(scenario, converted.catalog)
    w = scenario.workload
    grows = c.purchase == "as-you-grow" and getattr(w, "horizon_years", 0) > 0
    years = list(range(min(w.horizon_years, c.tco_years - 1) + 1)) if grows else []  # type: ignore[union-attr]
    parts = 1 + len(years)
    design = _size_design(scenario, priced, part_progress(progress, 0, parts), cancelled)
    result = commercial.complete(design, scenario, priced, converted.left_out)
    if grows:
        base = _pinned(scenario, result)
        states = []
        for y in years:
            at_y = base.model_copy(update={"workload": w.model_copy(update={"horizon_years": y})})
            at_y_design = _size_design(at_y, priced, part_progress(progress, 1 + y, parts), cancelled)
            states.append(commercial.state_of(commercial.complete(at_y_design, at_y, priced), at_y))
        result = commercial.with_tco(result, states, scenario)
    checks, warnings = check_targets(scenario, result)
    if isinstance(w, GreenplumOltp):
        from models.sizing.greenplum import oltp_warnings

        warnings += tuple(oltp_warnings(scenario, result))
    if isinstance(w, GreenplumAnalytics | GreenplumOltp):
        from models.sizing.greenplum import cpu_doublings, extrapolation_warning, p90_band_warning

        drive = priced.drive(result.design.drive_id) if result.design.drive_id else None
        extra = extrapolation_warning(w, result, drive)
        band = p90_band_warning(scenario, result, checks, cpu_doublings(priced.server(result.design.server_id)))
        warnings += tuple(x for x in (extra, band) if x is not None)
    warnings += tuple(unknown_slot_warnings(result.design, catalog))
    if isinstance(w, PostgresConsolidation):  # the kind whose part choice keeps to the server's generation
        warnings += tuple(generation_warnings(result.design, catalog))
    warnings += tuple(idle_core_warnings(result, _work(scenario, result), priced))
    if isinstance(w, GreenplumAnalytics | GreenplumOltp) and w.mirrors and w.mirroring != "group":
        warnings += _mirroring_cost(scenario, result, priced, converted.left_out, cancelled)
    result = dataclasses.replace(result, target_checks=checks, warnings=result.warnings + warnings)
    return dataclasses.replace(result, values_used=values_used(scenario, result), workload_key=workload_key(scenario))


def _mirroring_cost(scenario: Scenario, result: SizingResult, priced: HardwareCatalog, left_out: dict[str, str],
                    cancelled: IsCancelled | None) -> tuple[Warning, ...]:
    """Spread or block mirroring that needs more segment hosts than group mirroring for the same capacity and
    targets (spread needs more hosts than primaries per host; a block fills whole blocks): both designs, and the
    ways out. Nothing when group mirroring needs as many hosts or misses a target the policy meets."""
    w = scenario.workload
    group_w = w.model_copy(update={"mirroring": "group", "mirror_block_hosts": None})
    group_s = scenario.model_copy(update={"workload": group_w})
    group = commercial.complete(_size_design(group_s, priced, None, cancelled), group_s, priced, left_out)
    d, g = result.design, group.design
    if g.segment_hosts >= d.segment_hosts or not all(c.status == "met" for c in check_targets(group_s, group)[0]):
        return ()
    cur = result.totals.currency
    policy = w.mirroring  # type: ignore[union-attr]
    cause = ("Spread needs more segment hosts than primaries per host" if policy == "spread" else
             f"Block mirroring fills whole blocks of {w.mirror_block_hosts} hosts")  # type: ignore[union-attr]
    return (Warning(
        "mirroring-cost",
        f"{policy.capitalize()} mirroring raises the segment hosts above what capacity and the targets need:"
        f" {d.segment_hosts} segment hosts ({d.primary_segments_per_host} primaries each), capex"
        f" {result.totals.capex:,.0f} {cur}, against {g.segment_hosts} with group mirroring"
        f" ({g.primary_segments_per_host} primaries each), capex {group.totals.capex:,.0f} {cur}, which meets every"
        f" target too. {cause}; choose group mirroring (a host failure then doubles one host's primaries, which"
        " the memory plan already allows for), or fewer primaries per host (segment tier) so fewer hosts spread them.",
        "warning", "workload.mirroring"),)


def _work(scenario: Scenario, result: SizingResult) -> list[Work]:
    """The cores the worker hosts keep at work, by BOM role: a Greenplum segment host's primaries (at study 002's
    tier). None for the other kinds: an SAP IQ node works on all its cores, and a vSphere database host's free
    cores are the room its VMs restart into after a host failure (vSphere HA), not idle."""
    w, d = scenario.workload, result.design
    seg = next((h for h in d.hosts if h.role == "segment host"), None)
    if not isinstance(w, GreenplumAnalytics | GreenplumOltp) or seg is None or not d.primary_segments_per_host:
        return []
    from models.sizing.greenplum import busy_cores

    cores = seg.sockets * seg.numa_nodes_per_socket * seg.cores_per_numa_node
    p = d.primary_segments_per_host
    return [Work(seg.bom_role, seg.count, busy_cores(w, cores, p), f"its {p} primary segments")]
    return []


def _pinned(scenario: Scenario, result: SizingResult) -> Scenario:
    d = result.design
    plat = scenario.platform.model_copy(update={"server_id": d.server_id, "drive_id": d.drive_id,
                                                "nic_id": d.nic_id})
    return scenario.model_copy(update={"platform": plat})


COMMERCIAL_IDS = {"switch_id": "switch", "spine_switch_id": "switch", "rack_id": "rack", "pdu_id": "pdu",
                  "boot_drive_id": "drive", "support_id": "support"}


def check_commercial_ids(scenario: Scenario, catalog: HardwareCatalog, left_out: dict[str, str]) -> None:
    """Every part the scenario names must exist with its kind and have a rate to the project currency."""
    c = scenario.commercial
    named: list[tuple[str, str, str]] = [(f"commercial.{f}", getattr(c, f), k) for f, k in COMMERCIAL_IDS.items()
                                         if getattr(c, f)]
    named += [(f"commercial.licence_ids[{i}]", lid, "licence") for i, lid in enumerate(c.licence_ids or [])]
    plat = scenario.platform
    named += [(f"platform.{f}", getattr(plat, f), k) for f, k in
              (("server_id", "server"), ("drive_id", "drive"), ("nic_id", "nic")) if getattr(plat, f)]
    problems: list[Problem] = []
    if left_out and c.currency not in catalog.rates.currencies:  # no part in another currency can be priced
        problems.append(Problem("commercial.currency", _no_rate(c.currency, catalog, len(left_out))))
        raise SizingInputError(problems)
    for where, part_id, kind in named:
        if part_id in left_out:
            problems.append(Problem(where, f"{part_id} is priced in {left_out[part_id]} and the rate table has no "
                                           f"{left_out[part_id]}->{c.currency} rate; add one "
                                           "(refarch catalog rates set ...)"))
            continue
        try:
            catalog.get(part_id, kind)  # type: ignore[arg-type]
        except UnknownPartError as exc:
            if where.startswith("commercial."):
                problems.append(Problem(where, str(exc)))
    if problems:
        raise SizingInputError(problems)


def _no_rate(currency: str, catalog: HardwareCatalog, parts: int) -> str:
    """Why a project currency the rate table lacks cannot be sized in: every part priced in another is left out,
    which would otherwise read as an empty catalog.

    >>> _no_rate("XYZ", HardwareCatalog(()), 160).split(": ")[0]
    'no exchange rate for XYZ in the rate table (it has USD)'
    """
    known = ", ".join(catalog.rates.currencies)
    return (f"no exchange rate for {currency} in the rate table (it has {known}): the {parts:,} catalog parts priced"
            f" in another currency cannot be compared in {currency}; choose one of those currencies or add its rate"
            f" (refarch catalog rates set {currency} USD_PER_UNIT)")


def _size_design(
    scenario: Scenario, catalog: HardwareCatalog, progress: Progress | None, cancelled: IsCancelled | None
) -> SizingResult:
    check_cancelled(cancelled)
    parts = resolve(scenario, catalog)
    workload = scenario.workload
    # Each kind's sizer is imported when a scenario of that kind is sized: a command sizing one kind does not
    # pay for loading the other two at start-up.
    if isinstance(workload, GreenplumAnalytics | GreenplumOltp):
        from models.sizing.greenplum import size_greenplum

        result = size_greenplum(scenario, workload, catalog, parts, progress, cancelled)
    elif isinstance(workload, PostgresConsolidation):
        from models.sizing.postgres import size_postgres

        result = size_postgres(scenario, workload, catalog, parts)
    elif isinstance(workload, SapIqMultiplex):
        from models.sizing.sap_iq import size_sap_iq

        result = size_sap_iq(scenario, workload, catalog, parts)
    else:
        raise SizingInputError([Problem("workload.kind", f"no sizer for {type(workload).__name__}")])
    if progress is not None:
        progress(1, 1)  # the part is done (the Greenplum search reported its chunks on the way)
    return result

"""The explained Greenplum design: candidates evaluated, the best one laid out, estimated, priced and argued."""
from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from models.hardware import HardwareCatalog, Server
from models.percent import percent
from models.problems import Problem
from models.scenario import GreenplumAnalytics, GreenplumOltp, Scenario
from models.sizing import commercial, running_costs
from models.sizing.greenplum import evaluation, part_warnings, settle
from models.sizing.greenplum import shortlist as gp_shortlist
from models.sizing.greenplum import tco as gp_tco
from models.sizing.greenplum.candidates import Choices
from models.sizing.greenplum.design_settings import for_release
from models.sizing.greenplum.explain import explain
from models.sizing.greenplum.fast.stream import CheapestFeasible, RunningBest
from models.sizing.greenplum.search import Search, SearchSpace, search_space, settled_pool
from models.sizing.parts import (
    ResolvedParts,
    SizingInputError,
    candidate_servers,
    current,
)
from models.sizing.result import Rationale, SizingResult
from models.tasks import IsCancelled, Progress

GpWorkload = GreenplumAnalytics | GreenplumOltp
# settled designs whose full capex (`commercial.complete`) `size` compares: the optimizer's CAPEX_RERANK
FULL_CAPEX_RERANK = 6


def chosen_raid(scenario: Scenario, workload: GpWorkload) -> tuple[str, Rationale]:
    raid = scenario.platform.raid
    if raid is not None:
        return raid, Rationale("RAID", f"RAID level {raid} as specified.", "scenario")
    if workload.mirrors:
        return "none", Rationale(
            "RAID",
            "No RAID on segment data drives: Greenplum mirrors already keep a second copy on another host, and the"
            " reference architecture does not recommend RAID on this configuration yet.",
            "002_feb9b45e1f157a35.txt, Future work: performance optimization for RAID",
        )
    return "raid5", Rationale(
        "RAID",
        "Without mirrors a drive failure would lose data, so segment drives use RAID-5, the lowest-cost redundancy"
        " (one drive of each group holds parity).",
        "002_feb9b45e1f157a35.txt, Future work: performance optimization for RAID",
    )


def explain_candidate(scenario: Scenario, workload: GpWorkload, found: Search, i: int, feasible: bool) -> SizingResult:
    reasons = [r for r in (chosen_raid(scenario, workload)[1], found.nic_why) if r]
    return explain(scenario, workload, found, i, feasible, reasons)


def size_greenplum(
    scenario: Scenario, workload: GpWorkload, catalog: HardwareCatalog, parts: ResolvedParts,
    progress: Progress | None = None, cancelled: IsCancelled | None = None,
) -> SizingResult:
    servers = candidate_servers(catalog, parts)
    drives = [parts.drive] if parts.drive else current(catalog.drives, catalog)
    if not servers or not drives:
        raise SizingInputError([Problem("catalog", "no servers or no drives to size with (import or seed it)")])
    raid, _ = chosen_raid(scenario, workload)
    choices = Choices(servers, drives, [scenario.platform.deployment], [raid], scenario.platform.drives_per_host)
    space = search_space(scenario, workload, catalog, parts, choices)
    # the shortlists below (the recommendation, the within-budget, trade-off and cost-of-ownership alternatives)
    # often settle and explain the same designs: they share that work (`_Shared`)
    run = _Sizing(scenario, workload, catalog, space, _Shared())
    rank = Ranking.of(scenario, catalog, space)
    streams = _streams(run, rank, progress, cancelled)
    if streams.recommended.best.row is None:
        raise _nothing_fits(scenario, parts, servers, raid)
    pick = _best_of_pool(run, streams.recommended, rank=rank)
    result = pick.result if streams.any_warnings is None else _argued(run, rank, streams, pick)
    return for_release(result, workload, catalog.drive(result.design.drive_id) if result.design.drive_id else None)


@dataclass(frozen=True)
class _Sizing:
    """One Greenplum sizing, what its shortlists share: the scenario and its workload, the catalog (priced in the
    project currency), the search space and the work done once for all of them (`_Shared`)."""

    scenario: Scenario
    workload: GpWorkload
    catalog: HardwareCatalog
    space: SearchSpace
    shared: _Shared


class Streamed(NamedTuple):
    """The running best and the cheapest feasible pool of one view of the candidates (`_streamed_all`)."""

    best: RunningBest
    cheapest: CheapestFeasible


@dataclass(frozen=True)
class _Streams:
    """What the one pass over the candidates kept: ranked as the scenario asks (`recommended`), and, where the
    search had a choice of parts (alternatives), the same with part warnings ignored (`any_warnings`), ranked on
    the cost of ownership with its ranking (`tco`: a capex-ranked sizing's cost-of-ownership note) and on capex
    (`capex`: a TCO-ranked sizing under a capex budget)."""

    recommended: Streamed
    any_warnings: Streamed | None = None
    tco: tuple[Ranking, Streamed] | None = None
    capex: Streamed | None = None


@dataclass(frozen=True)
class _Pick:
    """A shortlist's design explained, its full capex (switches, racks, licences and support included), whether it
    meets every target, the cost it was ranked on, and the design completed (full BOM and TCO)."""

    result: SizingResult
    full_capex: float
    feasible: bool
    ranked_cost: float
    completed: SizingResult


def _streams(run: _Sizing, rank: Ranking, progress: Progress | None, cancelled: IsCancelled | None) -> _Streams:
    """One pass over the candidates feeds every search of the sizing: the recommendation's, the within-budget and
    trade-off alternatives' (part warnings ignored) and the cost-of-ownership note's (ranked on TCO); ranked on TCO
    under a capex budget, the capex-ranked view is the last resort within it (the TCO shortlist keeps few servers,
    maybe none within the budget where a cheaper-to-buy design keeps it)."""
    scenario, space = run.scenario, run.space
    alternatives = len(space.servers) > 1 or len(space.drives) > 1 or scenario.platform.drives_per_host is None
    tco = Ranking.tco(scenario, run.catalog, space) if alternatives and rank.cost is None else None
    capex = alternatives and rank.cost is not None and scenario.targets.max_capex is not None
    views = [(False, rank), *([(True, rank)] * alternatives), *([(False, tco)] if tco is not None else []),
             *([(True, Ranking("capex", None))] if capex else [])]
    out = _streamed_all(space, progress, cancelled, views)
    if not alternatives:
        return _Streams(out[0])
    return _Streams(out[0], out[1], (tco, out[2]) if tco is not None else None, out[-1] if capex else None)


def _nothing_fits(scenario: Scenario, parts: ResolvedParts, servers: list[Server], raid: str) -> SizingInputError:
    """The refusal where no candidate could be built: more drives than any server's bays, or no drive fitting."""
    n = scenario.platform.drives_per_host
    most = max(s.data_bays for s in servers)
    if n is not None and n > most:
        return SizingInputError([Problem(
            "platform.drives_per_host",
            f"{n} is more than the data bays of every server that could be chosen (the most is {most};"
            f" allowed 1-{most})",
        )])
    what = f"server {parts.server.id}" if parts.server else "any server"
    return SizingInputError(
        [Problem("platform", f"no drive in the catalog fits {what} with {raid} and the requested drive count")])


def _argued(run: _Sizing, rank: Ranking, streams: _Streams, pick: _Pick) -> SizingResult:
    """The recommendation `pick` with why it was chosen among the alternatives: within the capex budget where it
    breaks it, the cheaper design its part rules passed over, the design cheaper to own."""
    scenario = run.scenario
    budget = scenario.targets.max_capex
    result, feasible = pick.result, pick.feasible
    why = _recommended_why(result, feasible and (budget is None or pick.full_capex <= budget), rank)
    if budget is not None and pick.full_capex > budget:
        # the designs raising fewest part warnings break the capex budget once fully priced: within the budget
        # comes first (a missed target outweighs a warning), so the search runs again ranking on cost alone
        other, within = _within_budget(run, streams, rank)
        if other.full_capex <= budget:
            result, feasible = other.result, other.feasible
            why = _within_budget_why(other.result, budget, pick.full_capex, scenario.commercial.currency, within)
    elif feasible and streams.any_warnings is not None:
        why = _with_trade_off(run, why, pick, streams.any_warnings, rank)
    in_budget = budget is None or pick.full_capex <= budget
    extra = _cheaper_to_own(run, pick.completed, streams.tco) \
        if streams.tco is not None and feasible and rank.cost is None and in_budget else None
    return dataclasses.replace(result, rationale=(*result.rationale, why, *([extra] if extra else [])))


def _within_budget(run: _Sizing, streams: _Streams, rank: Ranking) -> tuple[_Pick, Ranking]:
    """The design for a capex budget the recommendation breaks: ranked as the scenario asks with part warnings
    ignored, those within the budget first; where none is and it ranks on TCO, whose shortlist keeps few servers,
    the lowest capex (`streams.capex`). With the ranking it was chosen on."""
    budget = run.scenario.targets.max_capex
    assert streams.any_warnings is not None
    other = _best_of_pool(run, streams.any_warnings, part_warnings_first=False, rank=rank, budget=budget)
    if budget is None or other.full_capex <= budget or streams.capex is None:
        return other, rank
    capex = Ranking("capex", None)
    return _best_of_pool(run, streams.capex, part_warnings_first=False, rank=capex), capex


# A saving in cost of ownership below this share is not named: the prices are estimates and the search ranks on an
# approximate TCO, so a design a fraction of a percent cheaper to own is no winner.
TCO_NOTE_MIN_SAVING = 0.01


def _cheaper_to_own(run: _Sizing, completed: SizingResult, tco: tuple[Ranking, Streamed]) -> Rationale | None:
    """Ranked on capex, the design that costs markedly less to own over the TCO horizon, said with both figures and
    where the saving lies: per-core database licences can outweigh the hardware many times, so the capex pick may
    cost millions more over the years than a design with fewer or smaller cores (the scenario's choice stands; it
    names the switch). `completed`: the recommendation with its full BOM and TCO; `tco`: the ranking on the cost of
    ownership and what the pass kept ranked on it."""
    scenario, catalog = run.scenario, run.catalog
    budget = scenario.targets.max_capex  # a design over it is no alternative: it misses a target
    found = _best_of_pool(run, tco[1], rank=tco[0], budget=budget)
    other, other_capex, other_feasible, other_tco = found.result, found.full_capex, found.feasible, found.ranked_cost
    mine = completed.totals
    more = len(part_warnings.raised(w.code for w in other.warnings)) > \
        len(part_warnings.raised(w.code for w in completed.warnings))
    over = budget is not None and other_capex > budget
    if not other_feasible or more or over or other_tco > mine.tco * (1 - TCO_NOTE_MIN_SAVING):
        return None
    d, server = other.design, catalog.get(other.design.server_id, "server")
    drive = catalog.get(d.drive_id, "drive") if d.drive_id else None  # named: a cheaper drive is often the saving
    drives = f"{d.data_drives_per_host} x {drive.vendor} {drive.model}" if drive else f"{d.data_drives_per_host}"
    cur, years = scenario.commercial.currency, scenario.commercial.tco_years
    return Rationale("Cost of ownership", (
        f"This design has the lowest capex, as the scenario asks (Design minimises: Capex). Over {years} years"
        f" {d.segment_hosts} segment hosts of {server.vendor} {server.model} with {drives} data"
        f" drives each cost {other_tco:,.0f} {cur} to own against {mine.tco:,.0f} {cur}"
        f" ({mine.tco - other_tco:,.0f} {cur} or {percent((mine.tco - other_tco) / mine.tco)} less):"
        f" {_tco_difference(found.completed, completed, cur)}. Set Design minimises to Cost of ownership to size it."),
        "scenario; catalog")


def _tco_difference(other: SizingResult, mine: SizingResult, currency: str) -> str:
    """Where two designs' costs of ownership differ, over their TCO rows, the other's against mine: "licences
    27,000,000 USD less, ..., hardware 942,040 USD more" (largest first; space left out where equal)."""
    parts = []
    for what in ("licences", "support", "energy", "space", "hardware"):
        diff = sum(getattr(r, what) for r in other.tco) - sum(getattr(r, what) for r in mine.tco)
        if round(diff) != 0:
            parts.append((abs(diff), f"{what} {abs(diff):,.0f} {currency} {'more' if diff > 0 else 'less'}"))
    return ", ".join(text for _, text in sorted(parts, key=lambda p: -p[0]))


@dataclass(frozen=True)
class Ranking:
    """What the recommendation minimises (`commercial.optimize_for`): the full capex, or the N-year cost of
    ownership, where per-core database licences can outweigh the hardware many times over."""

    words: str  # "capex" / "5-year cost of ownership"
    cost: settle.Cost | None  # per settled design, when not capex (the designs are ranked on it)
    # per candidate, a lower bound of `cost` at its hosts or more: the search ranks on it in place of capex, and
    # the shortlist's walk stops on it (`gp_tco.tco_floor`: the approximate TCO can fall as hosts are added)
    floor: settle.Cost | None = None
    gain: settle.Gain | None = None  # how `floor` grows with hosts (`gp_tco.tco_floor_gain`)

    @staticmethod
    def of(scenario: Scenario, catalog: HardwareCatalog, space: SearchSpace) -> Ranking:
        return Ranking.tco(scenario, catalog, space) if scenario.commercial.optimize_for == "tco" \
            else Ranking("capex", None)

    @staticmethod
    def tco(scenario: Scenario, catalog: HardwareCatalog, space: SearchSpace) -> Ranking:
        offers = gp_tco.licence_offers(scenario, catalog)
        return Ranking(f"{scenario.commercial.tco_years}-year cost of ownership",
                       lambda ev: gp_tco.approx_tco(ev, space.servers, scenario, catalog, offers),
                       lambda ev: gp_tco.tco_floor(ev, space.servers, scenario, catalog, offers),
                       gp_tco.FloorGain(scenario, offers, running_costs.host_cost_per_year(scenario, catalog.rates)))

    def full(self, r: SizingResult) -> float:
        """The ranked cost of a completed design (full BOM)."""
        return r.totals.capex if self.cost is None else r.totals.tco


def _with_trade_off(run: _Sizing, why: Rationale, pick: _Pick, streamed: Streamed, rank: Ranking) -> Rationale:
    """The recommendation's price, said: when a cheaper design meeting every target exists whose parts raise more
    warnings, the rationale names it, its full capex (or cost of ownership) and what it raises, so the architect
    can weigh the rule against the money (and name that server to take it) instead of meeting a silent premium.
    `streamed`: the pass ranked with part warnings ignored."""
    scenario, catalog, result, full = run.scenario, run.catalog, pick.result, pick.ranked_cost
    found = _best_of_pool(run, streamed, part_warnings_first=False, rank=rank)
    other, other_feasible, other_full = found.result, found.feasible, found.ranked_cost
    mine = part_warnings.raised(w.code for w in result.warnings)
    raised = [c for c in part_warnings.raised(w.code for w in other.warnings) if c not in mine]
    if not other_feasible or other_full >= full or not raised:
        return why
    server, d = catalog.get(other.design.server_id, "server"), other.design
    drive = catalog.get(d.drive_id, "drive") if d.drive_id else None
    currency = scenario.commercial.currency
    costs = "costs" if rank.cost is None else f"has a {rank.words} of"
    # the drives too: whether they carry the tier's primaries evenly is a part warning of the drive count
    parts = f" with {d.data_drives_per_host} x {drive.vendor} {drive.model}" if drive else ""
    text = (f"{why.text} The cheapest design meeting every target, {d.segment_hosts} segment hosts of"
            f" {server.vendor} {server.model}{parts}, {costs} {other_full:,.0f} {currency} ({full - other_full:,.0f}"
            f" {currency} or {percent((full - other_full) / full)} less) but raises:"
            f" {'; '.join(part_warnings.WORDS[c] for c in raised)}; name that server"
            f"{' and those drives' if drive else ''} to size it.")
    return Rationale(why.decision, text, why.source)


def _streamed(space: SearchSpace, progress: Progress | None, cancelled: IsCancelled | None,
              ignore_part_warnings: bool = False, rank: Ranking | None = None) -> Streamed:
    """The running best and the cheapest feasible pool over every candidate of the space (ranked on `rank`'s floor
    in place of capex when it has one)."""
    return _streamed_all(space, progress, cancelled, [(ignore_part_warnings, rank or Ranking("capex", None))])[0]


def _streamed_all(space: SearchSpace, progress: Progress | None, cancelled: IsCancelled | None,
                  views: list[tuple[bool, Ranking]]) -> list[Streamed]:
    """`_streamed` of each view (whether part warnings are ignored, the ranking) in one pass: every candidate is
    evaluated once, whatever the searches of a sizing."""
    out = [Streamed(RunningBest(), CheapestFeasible()) for _ in views]
    for offset, chunk in space.chunks(progress=progress, cancelled=cancelled):
        for (ignore_part_warnings, rank), (best, cheapest) in zip(views, out, strict=True):
            ev = chunk
            if ignore_part_warnings:
                none = np.zeros(len(ev.candidates), dtype=np.int64)
                ev = dataclasses.replace(ev, part_warnings=none, part_warnings_fixed=none)
            if rank.floor is not None:
                ev = dataclasses.replace(ev, capex=rank.floor(ev))
            best.add(offset, ev)
            cheapest.add(offset, ev)
    return out


def _best_of_pool(run: _Sizing, streamed: Streamed, part_warnings_first: bool = True, rank: Ranking | None = None,
                  budget: float | None = None) -> _Pick:
    """The explained design of the pool (within the capex `budget` first where given, then fewest part warnings,
    then the lowest full capex or cost of ownership)."""
    rank = rank or Ranking("capex", None)
    space = run.space
    pool = settled_pool(*streamed)
    shortlist = gp_shortlist.settled_shortlist(
        space.context, pool, space.extra_memory_price[pool.candidates.server_idx],
        gp_shortlist.Keep(FULL_CAPEX_RERANK, part_warnings_first, rank.cost, rank.gain), run.shared.searched)
    # the search ranks on the hosts' capex; switches, racks, licences and support follow the host count and the
    # cores, so the few best are completed and the lowest full cost taken (fewest part warnings first)
    results, done = zip(*(run.shared.explained(run, settled, feasible) for _, settled, feasible in shortlist),
                        strict=True)
    k = min(range(len(results)),
            key=lambda j: (budget is not None and done[j].totals.capex > budget,
                           int(shortlist[j][1].part_warnings[0]) if part_warnings_first else 0, rank.full(done[j])))
    return _Pick(results[k], done[k].totals.capex, shortlist[k][2], rank.full(done[k]), done[k])


@dataclass
class _Shared:
    """What the shortlists of one sizing share: the host searches (`settle.settle`'s, by what a search depends
    on) and each settled design explained and completed, by its whole evaluation (the same row explains the same)."""

    searched: dict[tuple[object, ...], settle.Searched] = dataclasses.field(default_factory=dict)
    done: dict[tuple[bytes, bool], tuple[SizingResult, SizingResult]] = dataclasses.field(default_factory=dict)

    def explained(self, run: _Sizing, settled: evaluation.Evaluated, feasible: bool
                  ) -> tuple[SizingResult, SizingResult]:
        """Settled design `settled` (one row of the sizing's space) explained, and completed (full BOM)."""
        key = _content(settled)
        if key is not None and (key, feasible) in self.done:
            return self.done[key, feasible]
        result = explain_candidate(run.scenario, run.workload, run.space.found(settled), 0, feasible)
        pair = result, commercial.complete(result, run.scenario, run.catalog)
        if key is not None:
            self.done[key, feasible] = pair
        return pair


def _content(ev: evaluation.Evaluated) -> bytes | None:
    """Every value of a settled evaluation as bytes (arrays, and dicts of them); None where one is anything else
    (a lazily computed `PointMetrics`): then nothing is shared."""
    if type(ev.metrics) is not dict:
        return None
    try:
        return pickle.dumps(ev, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return None


def _within_budget_why(result: SizingResult, budget: float, over: float, currency: str, rank: Ranking) -> Rationale:
    raised = part_warnings.raised(w.code for w in result.warnings)
    words = "; ".join(part_warnings.WORDS[c] for c in raised) or "none"
    return Rationale(
        "Recommended parts",
        f"The designs whose parts raise the fewest warnings cost {over:,.0f} {currency} once fully priced, over the"
        f" {budget:,.0f} {currency} capex budget; the budget comes first, so these parts are the"
        f" lowest full {rank.words} within it, though they raise: {words}.",
        part_warnings.SOURCES,
    )


def _recommended_why(result: SizingResult, feasible: bool, rank: Ranking) -> Rationale:
    """Why the recommended parts: the rules they satisfy, or that no candidate satisfies them."""
    rules = "; ".join(part_warnings.WORDS[c] for c in part_warnings.CODES)
    raised = part_warnings.raised(w.code for w in result.warnings)
    pool = "designs meeting every target" if feasible else "candidates (none meets every target)"
    if raised:
        near = "" if feasible else ", comes nearest the targets out of reach,"
        text = (f"Every one of the {pool} raises a warning about its parts; this one raises the fewest"
                f" ({'; '.join(part_warnings.WORDS[c] for c in raised)}){near} at the lowest {rank.words}. The rules"
                f" checked: {rules}.")
    else:
        nearest = "" if feasible else (
            " the nearest the targets out of reach (the worst ratio of value to target; within"
            f" {percent(evaluation.MIN_MARGINAL_GAIN, 1)} of each other counts as equally near), then")
        text = (f"Of the {pool}, those whose parts satisfy the rules refarch cites ({rules}) are preferred to"
                f" cheaper ones that do not; among them,{nearest} the lowest {rank.words}.")
    return Rationale("Recommended parts", text, part_warnings.SOURCES)


def explain_settled(
    scenario: Scenario, workload: GpWorkload, found: Search, i: int, settled: evaluation.Evaluated, feasible: bool
) -> SizingResult:
    """Explain candidate `i` of the search with its settled evaluation (one row)."""
    return explain_candidate(scenario, workload, dataclasses.replace(found, ev=settled), 0, feasible)

"""How many segment hosts: the count the data needs, and where more hosts stop helping.

`search_hosts` is the plain search a design's count comes from (the bisection over host counts, then the helpful
limit); `fast.scan_hosts` gives the same counts in closed form where the full scan is the only target.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from models.calibration_data import figure
from models.scenario import GreenplumAnalytics, GreenplumOltp, Targets
from models.sizing.greenplum.bisection import Probe, Values, smallest_meeting
from models.sizing.rules import RULES
from models.vocabulary import METRICS, targets_for

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

# the largest cluster sized, and the least one more host must gain to be worth adding (figures with their reasons)
MAX_SEGMENT_HOSTS = int(figure(RULES, "gp_max_segment_hosts"))
MIN_MARGINAL_GAIN = figure(RULES, "gp_min_marginal_gain_per_host")


def scan_only(workload: GreenplumAnalytics | GreenplumOltp, targets: Targets) -> float | None:
    """The full-scan limit (s) when it is the only target the host search checks; else None.

    >>> from models.scenario import Targets
    >>> w = GreenplumAnalytics(data_tb=10, concurrent_queries=5)
    >>> scan_only(w, Targets(max_full_scan_s=600, max_capex=1e6)), scan_only(w, Targets(max_full_scan_s=600,
    ...     min_queries_per_hour=10)), scan_only(w, Targets())
    (600.0, None, None)
    """
    if not isinstance(workload, GreenplumAnalytics) or targets.max_full_scan_s is None:
        return None
    if targets.min_queries_per_hour is not None or targets.min_load_tb_per_hour is not None or \
            targets.max_report_s is not None:
        return None
    return float(targets.max_full_scan_s)


def capacity_hosts(need_tb: float, per_host_tb: FloatArray) -> IntArray:
    """Per design, the segment hosts the data needs at `per_host_tb` of user data each (no capacity: out of reach),
    as `greenplum.hosts_for` gives one: np.where(per_host_tb > 0, ceil(need / per_host_tb), MAX).astype(int64),
    in one array, the largest cluster written only where a design has no capacity.

    >>> capacity_hosts(100.0, np.array([7.5, 0.0, 100.0])).tolist()
    [14, 1000, 1]
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        hosts = need_tb / per_host_tb
        np.ceil(hosts, out=hosts)
    if per_host_tb.size and not per_host_tb.min() > 0:  # some none (or NaN): those the largest cluster
        hosts[~(per_host_tb > 0)] = MAX_SEGMENT_HOSTS
    out: IntArray = hosts.astype(np.int64)
    return out


def search_hosts(ok: Probe, low: IntArray, guess: FloatArray | None, values: Values, limits: dict[str, float]
                 ) -> IntArray:
    """Per design, the fewest hosts (at least `low`) at which `ok` holds, within the largest cluster, from the
    `guess` (None: none), then lowered to where more hosts stop helping (`helpful_limit`, never above)."""
    hosts, _ = smallest_meeting(ok, low, MAX_SEGMENT_HOSTS, guess)
    return helpful_limit(values, low, hosts, limits)


def stops_helping(before: dict[str, FloatArray], after: dict[str, FloatArray], hosts: IntArray | None = None,
                  limits: dict[str, float] | None = None) -> BoolArray:
    """Where one more host is not worth adding on any metric.

    A metric stops asking for hosts where its target is met, or where one more host improves it by less
    than MIN_MARGINAL_GAIN of its value and, scaling on as it does there, the target (if any in `limits`)
    would still be out of reach by MAX_SEGMENT_HOSTS. A workload still scaling toward a target it can reach keeps
    growing (a linear scan gains only 1/(H+1) per host, below the threshold past 200 hosts); a plateau
    (a coordinator-bound OLTP, a target far beyond the largest cluster) stops.

    >>> stops_helping({"full_scan_s": np.array([600.0, 600.0])}, {"full_scan_s": np.array([598.0, 590.0])})
    array([ True, False])
    >>> h = np.array([199, 199])  # 742 s, linear: 600 s is reached near 247 hosts, 1 s not within 1,000
    >>> stops_helping({"full_scan_s": np.array([742.0, 742.0])}, {"full_scan_s": np.array([738.3, 738.3])}, h,
    ...               {"full_scan_s": 600.0}).tolist()
    [False, False]
    >>> stops_helping({"full_scan_s": np.array([742.0])}, {"full_scan_s": np.array([738.3])}, h[:1],
    ...               {"full_scan_s": 1.0}).tolist()
    [True]
    """
    res = np.ones(np.shape(next(iter(before.values()), np.ones(1))), dtype=bool)
    for metric, b in before.items():
        higher = METRICS[metric].better == "higher"
        gain = (after[metric] - b) if higher else (b - after[metric])
        with np.errstate(divide="ignore", invalid="ignore"):
            small = ~(gain >= MIN_MARGINAL_GAIN * np.abs(b))
            if limits is None or hosts is None or metric not in limits:
                res &= small
                continue
            short = (limits[metric] / b) if higher else (b / limits[metric])  # > 1 while the target is unmet
            met = short <= 1
            # reachability decides only where the target is unmet and the gain small: computed there alone
            out_of_reach = small & ~met
            rows = np.flatnonzero(out_of_reach)
            if rows.size:
                h, s = np.broadcast_to(hosts, np.shape(b))[rows], np.broadcast_to(short, np.shape(b))[rows]
                # the metric's local scaling with hosts (1 for a linear scan): value ~ hosts ^ -elasticity, held
                # at the current rate it reaches the target at hosts x short ^ (1 / elasticity); a flattening
                # curve only gets there later, so a target beyond MAX_SEGMENT_HOSTS this way is out of reach
                elasticity = gain[rows] / np.abs(b[rows]) * h
                with np.errstate(over="ignore"):  # a nearly flat curve needs "infinitely many" hosts: out of reach
                    needed = np.where(elasticity > 0, h * s ** (1.0 / np.maximum(elasticity, 1e-12)), np.inf)
                out_of_reach[rows] = ~(needed <= MAX_SEGMENT_HOSTS)
        res &= met | out_of_reach
    return res


def helpful_limit(values: Values, low: IntArray, hosts: IntArray, limits: dict[str, float] | None = None,
                  stopped_below: BoolArray | None = None) -> IntArray:
    """Per candidate, the fewest hosts (at least `low`) past which more hosts stop helping (`stops_helping`
    with the targets' `limits`), where that is below `hosts`; elsewhere `hosts` itself. `stopped_below`: where
    more hosts stop helping at `hosts` - 1 (`stops_helping` there), when the caller has it."""
    if len(hosts) == 0 or not values(low[:1], np.zeros(1, dtype=np.int64)):
        return hosts  # no performance target: capacity sizes the cluster
    if stopped_below is not None:
        return trimmed(values, low, hosts, np.flatnonzero(stopped_below & (hosts > low)), limits)
    stopped = _stopped(values, limits)
    above = np.flatnonzero(hosts > low)  # at `low` there is nothing to trim: the model runs on the rest only
    check = above[stopped(hosts[above] - 1, above)] if above.size else above
    return trimmed(values, low, hosts, check, limits)


def trimmed(values: Values, low: IntArray, hosts: IntArray, check: IntArray, limits: dict[str, float] | None
            ) -> IntArray:
    """`hosts`, with the designs `check` (above `low`, where one host fewer already stops helping) at the fewest
    hosts past which more stop helping, as `helpful_limit` gives them; `hosts` itself, not a copy, where `check`
    is empty (the usual case: a scan still gains wherever its target asks for more hosts)."""
    if not check.size:
        return hosts
    stopped = _stopped(values, limits)

    def sub_stopped(h: IntArray, idx: IntArray) -> BoolArray:
        return stopped(h, check[idx])

    out = hosts.copy()
    out[check] = np.minimum(smallest_meeting(sub_stopped, low[check], MAX_SEGMENT_HOSTS)[0], hosts[check])
    return out


def _stopped(values: Values, limits: dict[str, float] | None) -> Probe:
    def stopped(h: IntArray, idx: IntArray) -> BoolArray:
        return stops_helping(values(h, idx), values(h + 1, idx), h, limits)

    return stopped


def shortfall_steps(workload: GreenplumAnalytics | GreenplumOltp, targets: Targets,
                    values: dict[str, NDArray[np.float64]]) -> NDArray[np.int64]:
    """How far each design falls short of its targets: the worst ratio of value to limit over the targets set (limit
    to value for a minimum), in steps of MIN_MARGINAL_GAIN (what one more host must gain to be added); 0 where every
    target is met. Of designs missing a target, fewer steps is nearer: within one step they count as equally near.

    >>> from models.scenario import parse_scenario
    >>> s = parse_scenario({"name": "doc", "workload": {"kind": "greenplum-analytics", "data_tb": 10,
    ...                                                 "concurrent_queries": 20},
    ...                     "targets": {"max_full_scan_s": 100}}, "doc")
    >>> shortfall_steps(s.workload, s.targets, {"full_scan_s": np.array([90.0, 100.4, 101.0, 200.0])}).tolist()
    [0, 1, 2, 139]
    """
    worst = np.ones(len(next(iter(values.values()))))
    for target in targets_for(workload.kind):
        limit = targets.limit(target.name, workload)
        if limit is None or target.metric not in values:
            continue
        v = np.asarray(values[target.metric], dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = v / limit if target.bound == "max" else limit / v
        worst = np.maximum(worst, np.where(np.isnan(ratio), np.inf, ratio))
    with np.errstate(divide="ignore"):
        steps = np.ceil(np.log(worst) / np.log1p(MIN_MARGINAL_GAIN) - 1e-9)
    return np.where(np.isfinite(steps), np.maximum(steps, 0), np.iinfo(np.int32).max).astype(np.int64)

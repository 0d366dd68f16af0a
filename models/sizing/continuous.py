"""The main estimate of a Greenplum analytics design on its continuous host count, for the tornado.

A design has whole segment hosts, so a +-20 % input can move its main estimate the "wrong" way: -20 % data on one
host fewer scans slower than the base when the base's last host was barely used. The scan model scales exactly with
the hosts (`models.perf.scan_load`: full-scan time and report time as 1 / H, queries per hour as H, every per-host
rate independent of H), so the estimate on a fractional count h is the design's scaled by H / h. The continuous count
is what the data needs, need / (user capacity per host), or what the design's target on the main estimate needs,
whichever is more; where another rule (the mirroring policy's fewest hosts, another target) set more hosts than
that rounds up to, or as many as that floor, the design's own count stands. Other kinds and main estimates (load
rate, TPS, SAP IQ) do not scale with the hosts alone: None.
"""

from __future__ import annotations

import math

from models.scenario import GreenplumAnalytics, Workload
from models.sizing.result import SizingResult

TIME_METRICS = ("full_scan_s", "report_s")  # as 1 / hosts
RATE_METRICS = ("queries_per_hour",)  # as hosts


def continuous_hosts(result: SizingResult, workload: Workload) -> float | None:
    """The fractional segment hosts of an analytics design (see the module); None where the main estimate does not
    scale with the hosts alone.

    A 2.2-host need rounds up to 3 hosts: 2.2 of them, unless a target on the main estimate asks for more."""
    from models.sizing.greenplum import min_hosts  # analytics only: other kinds never load it

    d, main = result.design, result.main_metric
    if not isinstance(workload, GreenplumAnalytics) or main not in TIME_METRICS + RATE_METRICS or d.segment_hosts <= 0:
        return None
    primaries = d.primary_segments_per_host or 1
    unit = primaries // max(d.vms_per_host, 1) if workload.mirrors and workload.mirroring == "spread" else 1
    floor = int(min_hosts(workload, unit))  # the mirroring policy's fewest hosts: whole hosts
    hosts = float(d.segment_hosts)
    per_host = d.usable_capacity_tb / hosts
    need = [d.data_needed_tb / per_host] if per_host > 0 else []
    for check in result.target_checks:  # the target's estimate is the design's at its confidence: scale it alike
        if check.metric == main and check.estimate > 0 and check.limit > 0:
            ratio = check.estimate / check.limit if main in TIME_METRICS else check.limit / check.estimate
            need.append(hosts * ratio)
    h = max(need, default=hosts)
    if h <= 0 or h < floor or math.ceil(h - 1e-9) < hosts:  # another rule set the count: the design's own
        return hosts
    return min(h, hosts)


def continuous_main(result: SizingResult, workload: Workload) -> float | None:
    """The main estimate's P50 on `continuous_hosts` (None where it does not apply)."""
    h = continuous_hosts(result, workload)
    est = result.estimates.get(result.main_metric)
    if h is None or est is None or h <= 0:
        return None
    scale = result.design.segment_hosts / h
    return est.p50 * scale if result.main_metric in TIME_METRICS else est.p50 / scale

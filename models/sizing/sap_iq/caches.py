"""What the IQ caches of a multiplex give against what its data and streams need (study 003's ratios,
`models.perf.sap_iq_fit`): the fit the throughput model reads, the floor below which refarch refuses the design,
and the warning and reason that say what short caches cost.
"""

from __future__ import annotations

import math

from models.calibration_data import figure, point
from models.percent import percent
from models.perf import sap_iq, sap_iq_fit
from models.problems import Problem
from models.scenario import SapIqMultiplex, Scenario
from models.sizing.parts import SizingInputError
from models.sizing.result import Warning
from models.sizing.rules import vm_memory_gib
from models.sizing.sap_iq.node import STUDY, Node, hypervisor_reserve
from models.sizing.sap_iq.rules import CacheSplit, cache_split

FIELD = "platform.memory_gib"
MAX_HOST_MEMORY_GIB = 65_536  # the scenario's own bound on platform.memory_gib


def fit(caches: CacheSplit, main_tb: float) -> sap_iq_fit.CacheFit:
    return sap_iq_fit.CacheFit(float(caches.main_cache_gib), float(caches.temp_cache_gib), main_tb)


def _node_memory(scenario: Scenario, host_gib: float) -> float:
    """The memory the IQ server sees on a host of `host_gib`: the VM's after the hypervisor reserve (vSphere)."""
    if scenario.platform.deployment != "vsphere":
        return host_gib
    return vm_memory_gib(host_gib, 1, hypervisor_reserve(scenario, host_gib))


def _least_host_gib(scenario: Scenario, temp_gib: float) -> int | None:
    """The least host memory whose node gets a temp cache of `temp_gib` (None beyond the scenario's bound)."""
    lo, hi = 1, MAX_HOST_MEMORY_GIB
    if float(cache_split(_node_memory(scenario, hi)).temp_cache_gib) < temp_gib:
        return None
    while lo < hi:  # the temp cache grows with the host's memory: bisect on whole GiB
        mid = (lo + hi) // 2
        if float(cache_split(max(_node_memory(scenario, mid), 0.0)).temp_cache_gib) >= temp_gib:
            hi = mid
        else:
            lo = mid + 1
    return lo


def floor_nodes(node: Node, streams: int) -> int:
    """The fewest nodes whose temp caches hold `temp_cache_floor_share` of what `streams` need (at least 1).

    >>> from models.sizing.sap_iq.node import Node
    >>> floor_nodes(Node(True, 28.0, 24.0, 14, 1.0, 14.0), 500), floor_nodes(Node(True, 384.0, 368.0, 14, 1.0, 14.0), 6)
    (167, 1)
    """
    temp = float(cache_split(node.memory_gib).temp_cache_gib)
    if temp <= 0:
        return MAX_HOST_MEMORY_GIB
    need_one_node = sap_iq_fit.temp_need_gib(1, streams) * figure(STUDY, "temp_cache_floor_share")
    return max(1, math.ceil(need_one_node / temp - 1e-9))


def check_floor(scenario: Scenario, w: SapIqMultiplex, nodes: int, node: Node, caches: CacheSplit) -> None:
    """Refuse a multiplex whose temp caches hold less than `temp_cache_floor_share` of what its streams need
    (study 003's temp cache per stream, spread over the nodes): the spill curve is not extrapolated that far."""
    need = sap_iq_fit.temp_need_gib(nodes, w.query_streams)
    floor = figure(STUDY, "temp_cache_floor_share")
    have = float(caches.temp_cache_gib)
    if have >= floor * need - 1e-9:
        return
    least = _least_host_gib(scenario, floor * need)
    give = (f"give at least {least:,} GiB per host" if least is not None else
            "no host memory within the scenario's bound does")
    raise SizingInputError([Problem(FIELD, (
        f"{node.host_memory_gib:,.0f} GiB per host gives each of the {nodes} IQ nodes a {have:,.1f} GiB temp cache"
        f" (-iqtc), below {percent(floor, 1)} of the {need:,.1f} GiB that {w.query_streams} stream(s) need per node at"
        f" study 003's {sap_iq_fit.temp_need_gib(1, 1):,.1f} GiB of temp cache per stream: the limit is"
        f" {floor * need:,.1f} GiB of temp cache; {give}, or more nodes (workload.nodes), or fewer streams"
        f" ({point(STUDY, 'temp_cache_floor_share').source.cite()})"))])


def warnings(w: SapIqMultiplex, nodes: int, caches: CacheSplit, main_tb: float,
             pred: sap_iq.IqPrediction) -> list[Warning]:
    """Caches short of study 003's ratios, where they cost the metrics more than the in-sample band."""
    if pred.cache_factor >= sap_iq.MEMORY_BINDS_BELOW:
        return []
    return [Warning("iq-caches-short", f"{explain(w, nodes, caches, main_tb, pred)} More memory per node"
                    " or more nodes win it back.", "warning", FIELD)]


def explain(w: SapIqMultiplex, nodes: int, caches: CacheSplit, main_tb: float, pred: sap_iq.IqPrediction,
            why: str = "") -> str:
    """What the caches hold against what the data and the streams need, and the metrics' factor; `why` in place of
    the short word on what is assumed (the rationale gives `assumed()` whole)."""
    main_miss, temp_short = sap_iq_fit.misses(fit(caches, main_tb), nodes, w.query_streams)
    need = sap_iq_fit.temp_need_gib(nodes, w.query_streams)
    return (
        f"The {nodes} main cache(s) of {float(caches.main_cache_gib):,.1f} GiB hold {percent(1 - main_miss)} of the"
        f" {main_tb:,.2f} TB main store (study 003's held {percent(1 - sap_iq_fit.study_main_miss())} of its data);"
        f" each node's {float(caches.temp_cache_gib):,.1f} GiB temp cache holds {percent(1 - temp_short)} of the"
        f" {need:,.1f} GiB its share of {w.query_streams} stream(s) needs at the study's"
        f" {sap_iq_fit.temp_need_gib(1, 1):,.1f} GiB per stream. Together they put the metrics at"
        f" {percent(pred.cache_factor)} of what the study's cache ratios give (study-derived ratios"
        + (f"). {why}" if why else "; the cost of a miss is an assumption, see the sap-iq-dqp model card).")
    )


def assumed() -> str:
    """What SAP's documentation does not give, said where the caches are explained: the cost of a miss and the
    floor below which refarch refuses a multiplex, beside SAP IQ's own per-statement guard."""
    miss = point(STUDY, "cache_miss_slowdown_main")
    return (
        f"Refarch assumptions, as SAP's documentation gives neither: a main-cache miss adds {miss.value:g} x the time"
        f" of a hit (sampled {miss.low or miss.value:g}-{miss.high or miss.value:g}), and a multiplex whose temp caches"
        f" hold less than {percent(figure(STUDY, 'temp_cache_floor_share'), 1)} of what its streams need is refused;"
        " SAP IQ's own guard is per statement, rolling one back once"
        f" {figure(STUDY, 'hash_thrashing_percent_default'):g} % of its disk I/Os are hash paging"
        " (HASH_THRASHING_PERCENT). See the sap-iq-dqp model card."
    )

"""SAP IQ sizing decisions: the DQP mode, the IQ cache split and the multiplex node count.

Each returns its value with the reason and the source a customer can check; the
performance model they rest on is `models.perf.sap_iq` (study 003,
`003_4970b14b1c56345f.txt`, and SAP's IQ 16 guidance in `sapiq_dqp_003`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from models.calibration_data import figure, point
from models.percent import percent
from models.perf.sap_iq import (
    CORE_SCALING_EXPONENT,
    DATASET,
    NETWORK,
    STORAGE,
    DqpMode,
    at_least,
    check_mode,
    cite,
    crossover_streams,
    mode_advantage,
    reference,
    throughput_at,
)

# A DQP query needs a leader and at least one worker (study: "Distributed Query Processing").
MIN_DQP_NODES = 2


# --------------------------------------------------------------------------- DQP mode choice


@dataclass(frozen=True, slots=True)
class DqpChoice:
    mode: DqpMode
    reason: str
    source: str
    network_advantage: float  # T_network / T_storage at the given streams (>1: network-transfer ahead)
    recommended: DqpMode | None = None  # set when the scenario specified `mode`: the mode the rule picks
    relative: float = 1.0  # the main metric in `mode` over the recommended mode's (study 003's measured ratio)

    @property
    def specified(self) -> bool:
        return self.recommended is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "reason": self.reason,
            "source": self.source,
            "network_advantage": self.network_advantage,
        }


def recommend_dqp_mode(query_streams: int) -> DqpChoice:
    """The DQP mode for `query_streams` concurrent query streams, with its reason and source.

    Rule: network-transfer when `mode_advantage(S) > 1`, else storage-transfer. One stream
    is the study's power test (storage-transfer ahead, Power@300GB 93,720.6 vs 79,225.5);
    six streams its throughput test (network-transfer ahead, 78,806 vs 59,874); between
    them the choice follows the interpolated throughputs (crossover near 3.1 streams).
    Source: 003_4970b14b1c56345f.txt, Results, Table 3, Power Test, Throughput Test.
    """
    if isinstance(query_streams, bool) or not isinstance(query_streams, int | np.integer):
        raise ValueError(f"query_streams must be a whole number of streams, got {query_streams!r}")
    s = int(query_streams)
    at_least("query_streams", s, 1.0)
    ref = reference()
    adv = float(mode_advantage(s))
    mode: DqpMode = NETWORK if adv > 1.0 else STORAGE
    s6 = ref.streams_measured
    if s == 1:
        p = point(DATASET, "dqp_choice_single_stream")
        reason = (
            f"One query stream: storage-transfer measured faster (Power@{ref.scale_factor_gb:g}GB "
            f"{ref.power[STORAGE]:,.1f} vs {ref.power[NETWORK]:,.1f} for network-transfer); "
            f'the study: "{p.source.quote}".'
        )
        source = f"{p.source.cite()}; {cite('power_storage_qpph')}"
    elif s >= s6:
        p = point(DATASET, "dqp_choice_concurrent")
        why = point(DATASET, "dqp_network_transfer_conclusion").source.quote
        beyond = (
            f" {s} streams is beyond the {s6} measured; the {s6}-stream ratio is held (assumption)." if s > s6 else ""
        )
        reason = (
            f"{s} concurrent query streams: network-transfer measured {100 * (adv - 1):.0f} % more throughput "
            f"(Throughput@{ref.scale_factor_gb:g}GB {ref.throughput6[NETWORK]:,.0f} vs "
            f'{ref.throughput6[STORAGE]:,.0f} with {s6} streams); "{p.source.quote}" {why}{beyond}'
        )
        source = f"{p.source.cite()}; {cite('throughput_network_qthh')}"
    else:
        lead = "network-transfer" if mode == NETWORK else "storage-transfer"
        reason = (
            f"{s} concurrent query streams lie between the study's single-stream power test "
            f"(storage-transfer ahead) and its {s6}-stream throughput test (network-transfer ahead); "
            f"interpolating the measured throughputs puts {lead} ahead by {100 * abs(adv - 1):.0f} % "
            f"(modes cross near {crossover_streams():.1f} streams; interpolated, not measured)."
        )
        source = f"{cite('power_elapsed_storage_ms')}; {cite('throughput_network_qthh')} (interpolated)"
    return DqpChoice(mode=mode, reason=reason, source=source, network_advantage=adv)


def mode_ratio(mode: DqpMode, other: DqpMode, query_streams: int) -> float:
    """The design's main metric in `mode` over `other` at `query_streams`: Power@Size for one stream (the power
    test), else Throughput@Size (interpolated between the measured 1 and 6 streams, held beyond).

    >>> round(mode_ratio(STORAGE, NETWORK, 6), 3), round(mode_ratio(NETWORK, STORAGE, 1), 3)
    (0.76, 0.845)
    """
    if query_streams == 1:
        ref = reference()
        return ref.power[mode] / ref.power[other]
    return float(throughput_at(mode, query_streams)) / float(throughput_at(other, query_streams))


def dqp_choice(query_streams: int, specified: DqpMode | None = None) -> DqpChoice:
    """The DQP mode the design runs: the scenario's when it gives one, else `recommend_dqp_mode`'s.

    A specified mode keeps the recommendation's reason beside it, and how the main metric compares (study 003
    measured both modes: storage-transfer ahead with one stream, network-transfer with six).
    """
    rec = recommend_dqp_mode(query_streams)
    if specified is None:
        return rec
    mode = check_mode(specified)
    rel = mode_ratio(mode, rec.mode, query_streams)
    metric = "Power@Size" if query_streams == 1 else "Throughput@Size"
    if mode == rec.mode:
        reason = f"{mode}, as specified in the scenario; it is also the mode recommended: {rec.reason}"
    else:
        reason = (f"{mode}, as specified in the scenario, against the {rec.mode} recommended for {query_streams}"
                  f" stream(s): {metric} about {100 * abs(1 - rel):.0f} % {'lower' if rel < 1 else 'higher'}"
                  f" than in {rec.mode}. The recommendation: {rec.reason}")
    return DqpChoice(mode, reason, f"scenario; {rec.source}", rec.network_advantage, rec.mode, rel)


# --------------------------------------------------------------------------- cache split


class CacheSplit(NamedTuple):
    main_cache_gib: float
    temp_cache_gib: float
    reason: str
    source: str


def cache_split(memory_gib_per_node: ArrayLike) -> CacheSplit:
    """IQ main cache (-iqmc) and temp cache (-iqtc) for a node with `memory_gib_per_node`.

    Formula: iq = share * memory; main = iq * f_main; temp = iq * f_temp (large memory
    -iqlm takes the remaining third); share = 0.80 (0.75-0.90), f_main = f_temp = 1/3.
    The study states no cache sizes: it used 96 GiB VMs and reports only that hash
    partitioning "required slightly higher cache settings" (Deployment Best Practices).
    The split is SAP's IQ 16 guidance (vendor-doc points of `sapiq_dqp_003`), scaled to
    the node; at the study's 96 GiB it gives 25.6 GiB main and 25.6 GiB temp cache.
    `memory_gib_per_node` is the memory the IQ server's OS sees (the VM's on vSphere).
    """
    mem = at_least("memory_gib_per_node", memory_gib_per_node, 0.0)
    share = figure(DATASET, "iq_memory_share_of_ram")
    f_main = figure(DATASET, "iq_cache_fraction_main")
    f_temp = figure(DATASET, "iq_cache_fraction_temp")
    f_lm = figure(DATASET, "iq_cache_fraction_large_memory")
    iq = share * mem
    main, temp = iq * f_main, iq * f_temp
    hint = point(DATASET, "bp_hash_partitioning_cache").source.quote
    vm = figure(DATASET, "vm_memory_gib")
    if mem.ndim == 0:
        sizes = (
            f"of {float(mem):,.0f} GiB, {percent(share)} goes to SAP IQ ({float(iq):,.1f} GiB), split in thirds: "
            f"main cache -iqmc {float(main):,.1f} GiB, temp cache -iqtc {float(temp):,.1f} GiB, "
            f"large memory -iqlm {float(iq * f_lm):,.1f} GiB"
        )
    else:
        sizes = f"{percent(share)} of node memory goes to SAP IQ, split in thirds between -iqmc, -iqtc and -iqlm"
    supported = point(DATASET, "iq_cache_main_temp_supported_range").source.quote
    reason = (
        f"Cache split: {sizes} (SAP IQ 16 guidance); temp:main cache 1:1, within what SAP's tuning guide allows"
        f' ("{supported}"). The study ran {vm:g} GiB VMs and states no cache '
        f'sizes; its best practice: "{hint}"'
    )
    source = "; ".join(
        dict.fromkeys(
            cite(p) for p in ("iq_memory_share_of_ram", "iq_cache_fraction_main", "iq_cache_main_temp_supported_range",
                              "bp_hash_partitioning_cache")
        )
    )
    out_main: Any = float(main) if mem.ndim == 0 else main
    out_temp: Any = float(temp) if mem.ndim == 0 else temp
    return CacheSplit(out_main, out_temp, reason, source)


# --------------------------------------------------------------------------- node count


class NodeRecommendation(NamedTuple):
    nodes: int
    reason: str


Constraint = tuple[int, str]  # nodes a rule needs, and why


def _floor_constraint(vsan: bool) -> Constraint:
    """The fewest nodes at all: Virtual SAN's minimum hosts, else a DQP leader and one worker."""
    floor_n = int(figure(DATASET, "vsan_min_hosts")) if vsan else MIN_DQP_NODES
    floor_why = (
        f"Virtual SAN needs at least {floor_n} hosts ({cite('vsan_min_hosts')})"
        if vsan
        else f"DQP needs a leader and at least one worker: {floor_n} nodes"
    )
    return floor_n, floor_why


def _concurrency_constraint(streams: int, cores_per_node: float, beta: float) -> Constraint:
    """Nodes that give each query stream the cluster share it had in the study (6 streams on 4 x 14 vCPU)."""
    ref = reference()
    s6 = ref.streams_measured
    conc_n = math.ceil(ref.vcpus_total / cores_per_node * (streams / s6) ** (1.0 / beta) - 1e-9)
    return (
        conc_n,
        f"{streams} streams at the study's per-stream share ({s6} streams on {ref.nodes} x "
        f"{ref.vcpus_per_node} vCPU) with {cores_per_node:g} cores per node need {conc_n} nodes",
    )


def _capacity_constraint(data: float, raw_capacity_tb_per_node: float | None) -> Constraint:
    """Virtual SAN hosts whose raw drives hold the main store, equal temp space, times the copies FTT keeps."""
    raw = figure(DATASET, "raw_hdd_tb_per_server") if raw_capacity_tb_per_node is None else raw_capacity_tb_per_node
    raw = float(at_least("raw_capacity_tb_per_node", raw, 1e-9))
    temp_ratio = figure(DATASET, "temp_to_main_dbspace_ratio")
    copies = figure(DATASET, "vsan_host_failures_to_tolerate") + 1.0
    need_tb = data * (1.0 + temp_ratio) * copies
    cap_n = math.ceil(need_tb / raw - 1e-9)
    return (
        cap_n,
        f"{data:g} TB of IQ data plus equal temp space, {copies:g} Virtual SAN copies "
        f"= {need_tb:,.1f} TB raw at {raw:g} TB per host needs {cap_n} host{'s' if cap_n != 1 else ''}",
    )


def _target_constraints(
    mode: DqpMode, streams: int, cores_per_node: float, beta: float,
    target_throughput: float | None, target_power: float | None,
) -> list[Constraint]:
    """The smallest node counts whose P50 Throughput@Size / Power@Size reach the targets given (near-linear
    scaling in total cores, exponent beta)."""
    ref = reference()
    scale_need = ref.vcpus_total / cores_per_node
    out: list[Constraint] = []
    if target_throughput is not None:
        t = float(at_least("target_throughput", target_throughput, 1e-9))
        base = float(throughput_at(mode, streams))
        tn = math.ceil(scale_need * (t / base) ** (1.0 / beta) - 1e-9)
        out.append((tn, f"Throughput@Size {t:,.0f} with {streams} streams in {mode} needs {tn} nodes"))
    if target_power is not None:
        p = float(at_least("target_power", target_power, 1e-9))
        pn = math.ceil(scale_need * (p / ref.power[mode]) ** (1.0 / beta) - 1e-9)
        out.append((pn, f"Power@Size {p:,.0f} in {mode} needs {pn} nodes"))
    return out


def _binding_reason(constraints: list[Constraint], vsan: bool, cores_per_node: float) -> NodeRecommendation:
    """The largest need wins; the reason names it, the others checked, and where the answer leaves the study
    (beyond its Virtual SAN cluster limit, or another cluster size)."""
    nodes, why = max(constraints, key=lambda cw: cw[0])
    others = "; ".join(w for n_, w in constraints if w is not why)
    reason = f"{nodes} nodes: {why}. Also checked: {others}."
    vmax = int(figure(DATASET, "vsan_max_hosts"))
    if vsan and nodes > vmax:
        reason += (
            f" {nodes} hosts exceed the {vmax}-host Virtual SAN cluster the study describes "
            f"({cite('vsan_max_hosts')}): split the multiplex or check the current limit."
        )
    if nodes * cores_per_node != reference().vcpus_total:
        reason += " Cluster size differs from the study's: performance figures are extrapolated."
    return NodeRecommendation(nodes, reason)


def recommend_nodes(
    data_tb: float,
    query_streams: int,
    *,
    cores_per_node: float | None = None,
    raw_capacity_tb_per_node: float | None = None,
    vsan: bool = True,
    target_throughput: float | None = None,
    target_power: float | None = None,
    mode: str | None = None,
) -> NodeRecommendation:
    """Multiplex nodes for `data_tb` (as stored in IQ, i.e. after compression) and `query_streams`.

    nodes = max of:

    * floor: 3 hosts on Virtual SAN ("between 3 and 32 hosts"), else 2 (a DQP leader and a worker);
    * concurrency: each stream keeps the cluster share it had in the study (6 streams on
      4 x 14 vCPU): n >= (4 * 14 / c) * (S / 6) ** (1 / beta), beta = 0.95 (median);
    * capacity (Virtual SAN only): n >= data * (1 + temp/main) * (FTT + 1) / raw TB per node,
      temp/main = 1 (Table 1: 8 temp and 8 main VMDKs of 150 GB), FTT = 1 (Table 2),
      raw = 9 TB per host (Table 5: 10 x 900 GB) unless given;
    * targets: the smallest n whose P50 Power@Size / Throughput@Size reaches the target.

    Above 32 hosts on Virtual SAN the reason says so (the 2014 limit the study quotes).
    Source: 003_4970b14b1c56345f.txt, Technology Overview, Tables 1, 2, 3, 5, 7.
    """
    data = float(at_least("data_tb", data_tb, 0.0))
    if isinstance(query_streams, bool) or not isinstance(query_streams, int | np.integer):
        raise ValueError(f"query_streams must be a whole number of streams, got {query_streams!r}")
    s = int(query_streams)
    at_least("query_streams", s, 1.0)
    ref = reference()
    c = float(at_least("cores_per_node", ref.vcpus_per_node if cores_per_node is None else cores_per_node, 1.0))
    m = check_mode(mode) if mode is not None else recommend_dqp_mode(s).mode
    beta = 0.5 * (CORE_SCALING_EXPONENT.low + CORE_SCALING_EXPONENT.high)
    constraints = [_floor_constraint(vsan), _concurrency_constraint(s, c, beta)]
    if vsan:
        constraints.append(_capacity_constraint(data, raw_capacity_tb_per_node))
    constraints += _target_constraints(m, s, c, beta, target_throughput, target_power)
    return _binding_reason(constraints, vsan, c)

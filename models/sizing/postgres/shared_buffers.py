"""shared_buffers for PostgreSQL on vSphere: the ratio of VM memory, its reason and its source.

Rests on the study-001 shared_buffers figures of `models.perf.memory` (`001_8432df66bbca52f5.txt`).
"""

from __future__ import annotations

from dataclasses import dataclass

from models.calibration_data import point
from models.percent import percent, percent_range
from models.perf.memory import DATASET, shared_buffers_figures
from models.vocabulary import PLACEMENTS, Placement


def _f(name: str) -> float:
    return point(DATASET, name).value


@dataclass(frozen=True, slots=True)
class SharedBuffersChoice:
    ratio: float  # shared_buffers as a fraction of the VM's memory
    reason: str
    source: str


def _in_dip(ratio: float) -> bool:
    sb = shared_buffers_figures()
    return sb.dip_low <= ratio <= sb.dip_high


def recommend_shared_buffers(placement: Placement, conventional: bool = False) -> SharedBuffersChoice:
    """75 % of VM memory on a VM dedicated to one database, 25 % when shared or asked for.

    Never a ratio in the 45-55 % region the study's best practices say to avoid.
    """
    if placement not in PLACEMENTS:
        raise ValueError(f"unknown placement '{placement}'; one of {', '.join(PLACEMENTS)}")
    sb = shared_buffers_figures()
    conv = point(DATASET, "sb_conventional_ratio")
    if conventional:
        choice = SharedBuffersChoice(
            sb.conventional,
            f"conventional sizing requested: {percent(sb.conventional)} of memory, the PostgreSQL tuning guide's "
            "starting point; the OS page cache does the rest of the caching",
            conv.source.cite(),
        )
    elif placement == "vm-per-database":
        cv = {k: _f(k) for k in ("sb25_cv_s3", "sb75_cv_s3", "sb25_cv_s4", "sb75_cv_s4")}
        choice = SharedBuffersChoice(
            sb.large,
            f"a VM dedicated to the database: {percent(sb.large)} of VM memory gave "
            f"+{percent(_f('sb75_gain_s3'), 1)} / +{percent(_f('sb75_gain_s4'), 1)} DBT-2 throughput over"
            f" {percent(sb.conventional)} "
            f"and steadier throughput (CV {percent(cv['sb25_cv_s3'], 1)} -> {percent(cv['sb75_cv_s3'], 1)}, "
            f"{percent(cv['sb25_cv_s4'], 1)} -> {percent(cv['sb75_cv_s4'], 1)}); enable the vPostgres balloon if"
            " memory may be "
            f"overcommitted (+{percent(_f('oc55_sb75_s4_over_s3'))} over the guest balloon alone at "
            f"{percent(_f('oc_test_rate'))} overcommitment); load-test at the highest expected load",
            point(DATASET, "sb75_gain_s3").source.cite() + "; Table 4; Performance Best Practices",
        )
    else:
        choice = SharedBuffersChoice(
            sb.conventional,
            f"several databases or server instances share the VM: {percent(sb.large)} shared_buffers did not pay "
            f"there (scheme 1: {percent(_f('sb75_shared_vm_change_s1'), 1, sign=True)}), and with it VM-per-database"
            " did "
            f"{percent_range(_f('oc55_sb75_s3_advantage'), _f('oc55_sb75_s4_advantage'))} better than a shared VM at "
            f"{percent(_f('oc_test_rate'))} overcommitment; keep the conventional {percent(sb.conventional)}",
            conv.source.cite() + "; Tables 5 and 6; Consolidation Results: Memory Overcommitment",
        )
    if _in_dip(choice.ratio):  # a calibration edit must not smuggle in the ratio the study warns against
        raise AssertionError(f"recommended ratio {choice.ratio} lies in the double-buffering dip")
    return choice


"""Greenplum OLTP beyond what study 004 measured: say so, and point at PostgreSQL.

Study 004 measured Greenplum 6 OLTP peaks on 1 coordinator + 4 segment hosts with 10-200
clients (pgbench TPC-B ~4,300 TPS, SELECT ~79,000, UPDATE 7,300, INSERT ~18,000). Every
transaction passes the single coordinator, so more segment hosts do not lift these peaks
far; a target above them is an extrapolation, and a transactional load of that size is the
job of PostgreSQL (study 001) rather than an MPP analytics database.
"""

from __future__ import annotations

from models.calibration_data import figure, point
from models.scenario import GreenplumOltp, Scenario
from models.sizing.greenplum.releases import role_word
from models.sizing.result import SCENARIO_WIDE, SizingResult, Warning

DS = "gp6_oltp_004"


def measured_peak_tps(mix: str) -> float:
    """Greenplum 6 peak TPS study 004 printed for the pgbench mix.

    >>> measured_peak_tps("tpcb")
    4300.0
    """
    return figure(DS, f"gp6_{mix}_peak_tps")


def oltp_warnings(scenario: Scenario, result: SizingResult) -> list[Warning]:
    w = scenario.workload
    if not isinstance(w, GreenplumOltp):
        return []
    peak = measured_peak_tps(w.mix)
    asked = max(w.target_tps or 0.0, scenario.targets.min_tps or 0.0)
    est = result.estimates.get("tps")
    predicted = est.p50 if est is not None else 0.0
    out: list[Warning] = []
    c = point(DS, f"gp6_{w.mix}_peak_tps").conditions
    # the study's cluster in the words of the release the design is for (Greenplum 6: the master)
    tested = (f"1 {role_word(w.greenplum_version)} + {c.get('segment_hosts')} segment hosts,"
              f" {c.get('clients_min')}-{c.get('clients_max')}")
    if asked > peak or predicted > peak:
        what = f"the {asked:,.0f} TPS asked for" if asked > peak else f"the {predicted:,.0f} TPS estimated"
        # the field that asks for it: the larger of the two TPS goals (the estimate alone names none)
        field = SCENARIO_WIDE if asked <= peak else (
            "targets.min_tps" if (scenario.targets.min_tps or 0.0) >= (w.target_tps or 0.0) else "workload.target_tps")
        out.append(Warning(
            "oltp-beyond-measured",
            f"{what.capitalize()} is beyond the ~{peak:,.0f} TPS peak study 004 measured for Greenplum 6 ({w.mix},"
            f" {tested} clients): every transaction passes the one {role_word(w.greenplum_version)}, so this is an"
            " extrapolation. For a transactional load of this size consider PostgreSQL (kind postgres-consolidation).",
            "warning", field,
        ))
    return out

"""A validation plan: what to measure on the delivered hosts, and the acceptance thresholds the design assumed.

`thresholds` takes them from a sized design (each the model's own figure for that design, so a passing
measurement confirms the assumption the design rests on): per-host disk read and write MB/s (data drives x
datasheet x drive efficiency x RAID factor, `calibration.modelled_rates`), one port's line rate per link, every
host within gpcheckperf's 0.9 x the fastest for disk, memory and links, and for Greenplum OLTP the TPS at the
design's clients with its P10-P90. `check` compares a measurement profile with them: a rate passes at or above
0.9 x its threshold (the same tolerance the sizing on measurements uses), a host or link below 0.9 x the
fastest is named, the TPS passes at or above the design's P10.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from models.hardware import HardwareCatalog
from models.measurements.calibration import modelled_rates
from models.measurements.gpcheckperf import MIB_S_TO_MB_S
from models.measurements.mixes import oltp_sweeps
from models.measurements.profile import MeasurementProfile, host_rates, network_rates, no_good_fraction
from models.perf.usl import UslFitError, fit_usl
from models.scenario import GreenplumOltp, Scenario
from models.sizing.result import SizingResult

PGBENCH_BUILTINS = {"tpcb": "tpcb-like", "select": "select-only", "update": "simple-update"}


def thresholds(scenario: Scenario, result: SizingResult, catalog: HardwareCatalog) -> dict[str, Any]:
    """The plan's thresholds.json: the design's assumptions per resource, with units and the tolerance."""
    d = result.design
    rates = modelled_rates(d, catalog) if d.kind.startswith("greenplum") else {}
    f = result.measured.scan if result.measured is not None else None
    if f is not None:  # a design sized on measurements assumes the measured rates: those are what to confirm
        scale = {"disk_read": f.drive_read, "disk_write": f.drive_write}
        rates = {k: v * scale[k] if k in scale else v for k, v in rates.items()}
        if "network" in rates and f.link_mb_s is not None:  # each port at the measured link, up to its line rate
            rates["network"] = min(rates["network"], f.link_mb_s)
    doc: dict[str, Any] = {
        "scenario": scenario.name, "segment_hosts": d.segment_hosts, "server": d.server_id,
        "data_drives_per_host": d.data_drives_per_host, "tolerance": no_good_fraction(),
        "per_host_mb_s": {k: rates[k] for k in ("disk_read", "disk_write") if k in rates},
        "link_mb_s": rates.get("network"),
        "uniformity": f"every host (and link) at or above {no_good_fraction():g} x the fastest",
    }
    w = scenario.workload
    tps = result.estimates.get("tps")
    if isinstance(w, GreenplumOltp) and tps is not None:
        doc["oltp"] = {"mix": w.mix, "pgbench_builtin": PGBENCH_BUILTINS.get(w.mix), "clients": w.clients,
                       "tps_p10": tps.p10, "tps_p50": tps.p50, "tps_p90": tps.p90}
    return doc


@dataclass(frozen=True, slots=True)
class Check:
    what: str
    threshold: float | None
    measured: float | None
    passed: bool | None  # None: not measured
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return {"what": self.what, "threshold": self.threshold, "measured": self.measured, "passed": self.passed,
                "detail": self.detail}


def check(plan: dict[str, Any], profile: MeasurementProfile) -> list[Check]:
    """Each threshold of `plan` against what `profile` measured."""
    tol = float(plan.get("tolerance", no_good_fraction()))
    out: list[Check] = []
    measured = host_rates(profile)
    for key, want in plan.get("per_host_mb_s", {}).items():
        got = measured.get(key)
        if got is None:
            out.append(Check(f"{key} per host", want, None, None, "not measured (gpcheckperf -r d)"))
            continue
        out.append(Check(f"{key} per host (slowest host {got.slowest_host})", want, got.design_mb_s,
                         got.design_mb_s >= tol * want, f"passes at {tol:g} x the threshold or above"))
    for key, got in measured.items():
        out.append(Check(f"{key}: every host within {tol:g} x the fastest", None, got.design_mb_s,
                         not got.slow_hosts, "slow: " + ", ".join(got.slow_hosts) if got.slow_hosts else "uniform"))
    net = network_rates(profile)
    link = plan.get("link_mb_s")
    if link is not None:
        if net is None:
            out.append(Check("network per link", link, None, None, "not measured (gpcheckperf -r N or -r M)"))
        else:
            out.append(Check("network per link (median)", link, net.link_mb_s, net.link_mb_s >= tol * link,
                             f"passes at {tol:g} x the line rate or above"))
            bad = [f"{a} -> {b}" for a, b in net.no_good]
            out.append(Check(f"links within {tol:g} x the fastest", None, net.slowest_link_mb_s, not bad,
                             "no good: " + ", ".join(bad) if bad else "uniform"))
    if "oltp" in plan:
        out.append(_oltp_check(plan["oltp"], profile))
    return out


def _oltp_check(oltp: dict[str, Any], profile: MeasurementProfile) -> Check:
    what = f"TPS at {oltp['clients']:g} clients ({oltp['mix']})"
    for s in oltp_sweeps(profile, oltp["mix"]):
        at = [t for c, t in zip(s.clients, s.tps, strict=True) if c == oltp["clients"]]
        if at:
            got = max(at)
            how = f"{s.what} measured at the design's clients"
        elif len(set(s.clients)) >= 3:
            try:
                got = float(fit_usl(s.clients, s.tps).throughput(float(oltp["clients"])))
            except UslFitError:
                continue
            how = f"the {s.what} sweep's USL fit at the design's clients (not measured there)"
        else:
            continue
        return Check(what, oltp["tps_p10"], got, got >= oltp["tps_p10"],
                     f"{how}; passes at the design's P10 or above (P50 {oltp['tps_p50']:,.0f}, "
                     f"P90 {oltp['tps_p90']:,.0f})")
    return Check(what, oltp["tps_p10"], None, None, f"no pgbench sweep of the {oltp['mix']} mix in the profile"
                 + (" nor HammerDB TPROC-C sweep" if oltp["mix"] == "tpcb" else ""))


def gpcheckperf_mib_s(mb_s: float) -> float:
    """A threshold in gpcheckperf's own unit (2^20 bytes a second), as the README prints it beside MB/s."""
    return mb_s / MIB_S_TO_MB_S

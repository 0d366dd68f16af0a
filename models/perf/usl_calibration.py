"""USL curves calibrated on the studies: Greenplum 6 and 5 pgbench (004), vPostgres 9.2 (001).

Sources (by file name in the studies folder, figures in `resources/calibration/`):
- `004_c20ff83f1741d1fe.txt` (dataset `gp6_oltp_004`): Greenplum 6 vs 5 pgbench peaks
  (TPC-B ~4,300 / ~70, select 79,000 / 23,000, update 7,300 / ~100, insert 18,000 / 5,000 TPS),
  10 to 200 clients, 1 master + 4 segment hosts.
- `001_8432df66bbca52f5.txt` (dataset `pg_vfabric_001`): vPostgres 9.2 pgbench SELECT-only
  linear to ~20 clients on a 32-vCPU VM, about 4x the 9.1 peak.

Neither study prints its curves (the figures are images absent from the text), so the
calibration points are *derived*: the quoted peak at an assumed client count, plus a
stated shape; each derivation is written out in the JSON. The fitted parameters say
what those readings imply, not what a measured curve would.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

import numpy as np

from models.calibration_data import Point, dataset, point
from models.fit_cache import disk_cached
from models.model_card import ModelCard, Residual
from models.perf.usl import UslFit, fit_usl
from models.uncertainty import QUOTED_RELATIVE_SD
from models.vocabulary import OLTP_MIXES

Workload = Literal[
    "gp6-tpcb",
    "gp6-select",
    "gp6-update",
    "gp6-insert",
    "gp5-tpcb",
    "gp5-select",
    "gp5-update",
    "gp5-insert",
    "pg92-select",
]
CALIBRATED_WORKLOADS: tuple[Workload, ...] = get_args(Workload)
_MIX_WORDS = {"tpcb": "TPC-B", "select": "single-row selects", "update": "single-row updates",
              "insert": "single-row inserts"}


def curve_words(workload: Workload) -> str:
    """The curve in a reader's words, never its id.

    >>> curve_words("gp6-tpcb"), curve_words("pg92-select")
    ('Greenplum 6, TPC-B', 'vPostgres 9.2, pgbench selects')
    """
    if workload == "pg92-select":
        return "vPostgres 9.2, pgbench selects"
    release, mix = workload.split("-", 1)
    return f"Greenplum {release[2:]}, {_MIX_WORDS[mix]}"


# A stated range in a calibration point is read as a 90 % interval (+-1.645 sd).
_RANGE_WIDTH_IN_SD = 2 * 1.6448536269514722

# Why pg92-tpcb is not calibrated: the text bounds the saturation point from below only.
PG92_TPCB_UNSUPPORTED = (
    "pg92-tpcb is not calibrated: 001_8432df66bbca52f5.txt gives only 'saturation ... beyond 48 clients' "
    "(a lower bound) and a peak 'nearly 100%' above 9.1 in unprinted units; Figure 3 is an image. "
    "That pins neither the peak nor the linear region, so no USL can be fitted honestly."
)


# --------------------------------------------------------------------------------------------
# Calibrations


@dataclass(frozen=True, slots=True)
class _Calibration:
    dataset: str
    series: str  # point-id prefix of the derived curve points
    peak_point: str | None  # the quoted peak the fit must reproduce
    ratio_point: str | None  # quoted GP6-over-GP5 factor, a cross-check
    unit: str


_CALIBRATIONS: dict[str, _Calibration] = {
    **{
        f"{ver}-{mix}": _Calibration(
            "gp6_oltp_004",
            f"usl_{ver}_{mix}_n",
            f"{ver}_{mix}_peak_tps",
            f"gp6_vs_gp5_{mix}" if ver == "gp6" else None,
            "TPS",
        )
        for ver in ("gp6", "gp5")
        for mix in OLTP_MIXES
    },
    "pg92-select": _Calibration("pg_vfabric_001", "usl_pg92_select_n", None, None, "x single-client TPS"),
}


def point_relative_sd(p: Point) -> float:
    """A calibration point's relative standard deviation: its stated range as a 90 % interval, else 5 %."""
    if p.low is not None and p.high is not None:
        return max((p.high - p.low) / _RANGE_WIDTH_IN_SD / abs(p.value), 1e-3)
    return QUOTED_RELATIVE_SD


def _calibration(workload: str) -> _Calibration:
    if workload == "pg92-tpcb":
        raise ValueError(PG92_TPCB_UNSUPPORTED)
    cal = _CALIBRATIONS.get(workload)
    if cal is None:
        raise ValueError(f"unknown workload '{workload}'; calibrated: {', '.join(CALIBRATED_WORKLOADS)}")
    return cal


def calibration_points(workload: str) -> list[Point]:
    cal = _calibration(workload)
    return dataset(cal.dataset).series(cal.series)


@disk_cached
def calibrated(workload: Workload) -> UslFit:
    """The USL fitted on a study's derived curve points (see the JSON derivations)."""
    cal = _calibration(workload)
    pts = calibration_points(workload)
    return fit_usl(
        [float(p.conditions["clients"]) for p in pts],
        [p.value for p in pts],
        rel_sd=[point_relative_sd(p) for p in pts],
        unit=cal.unit,
        label=workload,
    )


def _checks(workload: Workload, cal: _Calibration, fit: UslFit) -> tuple[list[Residual], list[str]]:
    """What the curve is checked against, with the sources: its derived points, the quoted peak where the
    study prints one, and the Greenplum 6 / 5 peak ratio where it quotes it."""
    pts = calibration_points(workload)
    residuals = [Residual(p.id, p.value, float(fit.throughput(float(p.conditions["clients"]))), p.unit) for p in pts]
    sources = sorted({f"{p.source.file}, {p.source.locator}" for p in pts})
    if cal.peak_point is not None:
        peak = point(cal.dataset, cal.peak_point)
        residuals.append(Residual(peak.id, peak.value, fit.peak_throughput, peak.unit))
        sources.append(peak.source.cite())
    if cal.ratio_point is not None:
        ratio = point(cal.dataset, cal.ratio_point)
        gp5 = calibrated(workload.replace("gp6", "gp5"))
        residuals.append(Residual(ratio.id, ratio.value, fit.peak_throughput / gp5.peak_throughput, ratio.unit))
        sources.append(ratio.source.cite())
    return residuals, sources


def _pg91_check(cal: _Calibration, fit: UslFit) -> dict[str, Any]:
    """Whether the vPostgres 9.1 peak the 9.2 fit implies (study 001: 9.2 peaks about 4x higher) reaches
    the client count the study says 9.1 stayed linear to; it assumes both share the single-client rate."""
    peak91 = fit.peak_throughput / point(cal.dataset, "pg92_select_peak_vs_pg91").value
    linear91 = point(cal.dataset, "pg91_select_linear_clients").value
    return {
        "implied_pg91_peak_single_client_units": peak91,
        "pg91_linear_to_clients": linear91,
        "consistent": bool(peak91 >= 0.9 * linear91),
        "assumes": "9.1 and 9.2 share the single-client rate",
    }


def _validation(extra: dict[str, Any]) -> str:
    """The card's validation line: only the pg91 check validates against something the fit did not see."""
    if "pg91_check" not in extra:
        return ""
    return (
        "The vPostgres 9.1 peak the fit implies against the study's 9.1 curve (linear to "
        f"{extra['pg91_check']['pg91_linear_to_clients']:g} clients): "
        + ("consistent." if extra["pg91_check"]["consistent"] else "not consistent.")
    )


def usl_card(
    workload: Workload, *, more_extra: dict[str, Any] | None = None, more_notes: tuple[str, ...] = ()
) -> ModelCard:
    """The card of one calibrated curve; `more_extra` / `more_notes` let a model built on it add its checks."""
    cal = _calibration(workload)
    fit = calibrated(workload)
    residuals, sources = _checks(workload, cal, fit)
    extra: dict[str, Any] = {"peak_clients": fit.peak_clients, "peak_note": fit.peak_note}
    notes: list[str] = []
    if cal.dataset == "gp6_oltp_004":
        notes.append(
            "The study prints only peaks; the curve points are an assumed shape around them "
            "(derivations in gp6_oltp_004.json), so the in-sample fit says little about the real curve "
            "below the peak: treat low-client predictions as indicative. What a sized design gives at the"
            " study's figures (its hosts, its Monte Carlo P50) is the card of the Greenplum 6 OLTP throughput as"
            " sized against the study's clusters."
        )
    extra.update(more_extra or {})
    notes.extend(more_notes)
    if workload == "pg92-select":
        extra["pg91_check"] = _pg91_check(cal, fit)
        notes.append(
            "Units are multiples of one client's throughput (the study prints no TPS); the 48-client point "
            "is an assumed CPU ceiling of the 32-vCPU VM. The USL cannot bend as sharply as a CPU ceiling, "
            "hence the residuals at 20 and 48 clients."
        )
    card_residuals = tuple(residuals)
    mape = float(np.mean([abs(r.pct_err) for r in card_residuals]))
    if mape > 5.0:
        notes.append(f"MAPE {mape:.1f} % exceeds the 5 % target: the USL shape cannot pass through all points.")
    return ModelCard(
        name=f"usl-{workload}",
        description=(
            f"Universal Scalability Law for {curve_words(workload)}: X(N) = lambda N / (1 + sigma (N-1)"
            " + kappa N (N-1))"
            + (", with Greenplum 6 hardware scaling X_H(N) = r X(N/r)" if workload.startswith("gp6") else "")
        ),
        parameters={
            "lambda": fit.lam,
            "sigma": fit.sigma,
            "kappa": fit.kappa,
            "peak_clients": fit.peak_clients,
            "peak_throughput": fit.peak_throughput,
            "r2": fit.r2,
        },
        residuals=card_residuals,
        sources=tuple(dict.fromkeys(sources)),
        note=" ".join(notes),
        extra=extra,
        validation=_validation(extra),
    )

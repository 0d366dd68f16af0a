"""Measured vs modelled of one result as rows and sentences, built once for `refarch size`, the PDF and the window.

The document is `SizingResult.calibration` (`models.measurements.calibration.report`); nothing here computes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.formatting import DASH, number

RESOURCE_LABELS = {"disk_read": "Disk read", "disk_write": "Disk write", "memory": "Memory (stream)",
                   "network": "Network link", "oltp_tps": "OLTP throughput"}


@dataclass(frozen=True)
class CalibrationRow:
    resource: str
    unit: str
    modelled: str
    measured: str
    ratio: str
    verdict: str  # within tolerance / below / above / not modelled / checked only (stream)
    changes: str
    slow_hosts: str


def rows(cal: dict[str, Any]) -> list[CalibrationRow]:
    out = []
    lo, hi = cal["tolerance"]["low"], cal["tolerance"]["high"]
    for r in cal["resources"]:
        ratio = r["ratio"]
        if r["resource"] == "memory":
            verdict = "checked only"
        elif ratio is None:
            verdict = "not modelled"
        elif r["within_tolerance"]:
            verdict = "within tolerance"
        else:
            verdict = f"below {lo:g} x" if ratio < lo else f"above {hi:.2f} x"
        out.append(CalibrationRow(
            RESOURCE_LABELS.get(r["resource"], r["resource"]), r["unit"], number(r["modelled"], 4) if r["modelled"]
            else DASH, number(r["measured"], 4), f"{ratio:.2g}" if ratio is not None else DASH, verdict,
            r["changes"], ", ".join(r["slow_hosts"])))
    return out


def summary(cal: dict[str, Any]) -> str:
    """One sentence: the profiles and what the measurements changed in the design."""
    a, b = cal["modelled_design"], cal["measured_design"]
    parts = [f"segment hosts {a['segment_hosts']} -> {b['segment_hosts']}"]
    if a["data_drives_per_host"] != b["data_drives_per_host"]:
        parts.append(f"data drives per host {a['data_drives_per_host']} -> {b['data_drives_per_host']}")
    if a["p50"] is not None and b["p50"] is not None:
        parts.append(f"P50 {number(a['p50'], 4)} -> {number(b['p50'], 4)} {b['unit']}")
    if a["binding_resource"] != b["binding_resource"]:
        parts.append(f"binding {a['binding_resource']} -> {b['binding_resource']}")
    return f"Sized on {', '.join(cal['profiles'])}: " + ", ".join(parts) + "."

"""The stated scaling rules of a measurement carried to another processor (SPECrate2017_int_base per core)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from catalog.seed import seed_catalog
from models.measurements.calibration import cpu_speed_ratio
from models.measurements.detect import parse_measurement
from models.measurements.profile import MeasurementProfile, ProfileFile
from models.scenario import parse_scenario
from models.sizing.engine import size

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = Path(__file__).parent / "fixtures"
SCORES = {r["cpu"]: r["specrate2017_int_base_per_socket"] for r in json.loads(
    (ROOT / "resources" / "benchmarks" / "specrate2017_int.json").read_text(encoding="utf-8"))["scores"]}


def test_a_core_of_another_processor_counts_by_specrate_per_core() -> None:
    catalog = seed_catalog()
    gen5 = "supermicro-asg-1115s-ne316r-1x-epyc-9454p"
    ratio, why = cpu_speed_ratio(catalog, "dell-r7625-12x-lff-2x-epyc-9124", gen5)
    assert ratio == pytest.approx((SCORES["AMD EPYC 9124"] / 16) / (SCORES["AMD EPYC 9454P"] / 48))
    assert "SPECrate2017_int_base per core" in why
    same, none = cpu_speed_ratio(catalog, "hpe-dl345-gen11-24x-u3-1x-epyc-9454p",
                                 "supermicro-asg-1115s-ne316r-1x-epyc-9454p")
    assert (same, none) == (1.0, "")  # the same processor in another chassis: a core is a core
    unknown, why = cpu_speed_ratio(catalog, "dell-r720xd-2x-e5-2690", "supermicro-asg-1115s-ne316r-1x-epyc-9454p")
    assert unknown == 1.0 and "no SPECrate2017_int_base score for Xeon E5-2690" in why


def test_an_oltp_sweep_measured_on_another_processor_says_how_it_was_carried_over() -> None:
    catalog = seed_catalog()
    doc = json.loads((ROOT / "resources" / "samples" / "gp-oltp.json").read_text(encoding="utf-8"))
    doc["workload"]["mix"] = "tpcb"
    doc["platform"]["measurements"] = ["lab"]
    now = datetime(2026, 11, 29, tzinfo=UTC)
    files = tuple(ProfileFile(n, now, parse_measurement((FIXTURES / n).read_text(encoding="utf-8"), n))
                  for n in ("pgbench_tpcb_sweep.txt", "gpcheckperf_dsN_D.txt"))
    lab = MeasurementProfile("lab", "dell-r7625-24x-u3-2x-epyc-9654", now, files)
    result = size(parse_scenario(doc), catalog, profiles={"lab": lab})
    assert result.calibration is not None
    tps = next(r for r in result.calibration["resources"] if r["resource"] == "oltp_tps")
    assert "the measured cluster (4 segment hosts of dell-r7625-24x-u3-2x-epyc-9654" in tps["changes"]
    assert "SPECrate2017_int_base per core" in tps["changes"]

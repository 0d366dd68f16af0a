"""The headline (the window's estimate card, the PDF's cover and summary tiles, the DOCX and PPTX key figures) leads
with the metric the scenario's target names, with the resource that binds it; the kind's main metric without one."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from app.formatting import value
from app.services.sizing import estimate_curve
from app.views.summary import binding_label, estimate_rows, headline, headline_metric, kpi_rows
from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.sizing.engine import size
from models.sizing.result import SizingResult

SAMPLES = Path(__file__).resolve().parents[3] / "resources" / "samples"


def _scenario(targets: dict[str, float]) -> Scenario:
    data = json.loads((SAMPLES / "retail-dw-dual-socket-sas.json").read_text())
    data["targets"] = targets
    data["workload"]["data_tb"] = 8  # a small cluster: quick to size
    return Scenario.model_validate(data)


@pytest.fixture(scope="module")
def report(seed: HardwareCatalog) -> SizingResult:
    return size(_scenario({"max_report_s": 900}), seed)


def test_a_report_target_leads_the_headline_with_the_report_response_time(report: SizingResult) -> None:
    assert report.main_metric == "full_scan_s"  # the kind's metric stays what the engine judges the kind by
    head = headline(report)
    assert head is not None and head.metric == "report_s" and head.target == "max_report_s"
    assert head.binding == binding_label(report.binding_resource)
    (kpi,) = [k for k in kpi_rows(report) if k.key == "main_estimate"]
    assert kpi.label == "Report response time (P50)"
    assert kpi.text == value(report.estimates["report_s"].p50, "s") and f"bound by {head.binding}" in kpi.note
    rows = estimate_rows(report, None)
    assert rows[0].key == "report_s" and rows[0].main and not any(r.main for r in rows[1:])


def test_without_a_target_on_an_estimate_the_kinds_main_metric_leads(report: SizingResult) -> None:
    bare = dataclasses.replace(report, target_checks=())
    assert headline_metric(bare) == "full_scan_s" and estimate_rows(bare, None)[0].key == "full_scan_s"


def test_the_target_not_met_leads_and_an_unreachable_one_names_its_own_binding(report: SizingResult) -> None:
    (check,) = report.target_checks
    scan = dataclasses.replace(check, target="max_full_scan_s", metric="full_scan_s", status="met")
    missed = dataclasses.replace(check, status="unreachable", binding="network")
    r = dataclasses.replace(report, target_checks=(scan, missed))
    head = headline(r)
    assert head is not None and (head.metric, head.binding) == ("report_s", binding_label("network"))
    both_met = dataclasses.replace(report, target_checks=(scan, check))
    assert headline_metric(both_met) == "full_scan_s"  # all met: the first judged


def test_the_host_count_curve_draws_the_headline_metric(report: SizingResult, seed: HardwareCatalog) -> None:
    curve = estimate_curve(_scenario({"max_report_s": 900}), seed, report)
    assert curve is not None and curve.metric == "report_s"
    at = curve.hosts.index(report.design.segment_hosts)
    assert curve.p50[at] == pytest.approx(report.estimates["report_s"].p50, rel=0.02)

"""A report SLA: the response time of one report (its scan fraction) while the stated reports run concurrently,
from submission to result (Little's law over the query throughput), sized like the other targets."""

from __future__ import annotations

import pytest

from models.hardware import HardwareCatalog
from models.optimizer import optimize
from models.sizing.engine import size
from models.sizing.greenplum.metrics import report_seconds
from tests.models.sizing.conftest import sample


def test_report_time_is_the_concurrent_reports_over_the_throughput(catalog: HardwareCatalog) -> None:
    scenario = sample("retail-dw-dual-socket-sas", targets={})
    r = size(scenario, catalog)
    n = scenario.workload.concurrent_queries  # type: ignore[union-attr]
    qph, rep = r.estimates["queries_per_hour"], r.estimates["report_s"]
    assert rep.p50 == pytest.approx(n * 3600 / qph.p50)
    assert rep.p10 == pytest.approx(n * 3600 / qph.p90) and rep.p90 == pytest.approx(n * 3600 / qph.p10)


@pytest.mark.parametrize("confidence", ["P50", "P90"])
def test_a_report_sla_sizes_the_hosts(catalog: HardwareCatalog, confidence: str) -> None:
    """40 reports at 25 % scanned on the dual-socket SAS sample: 10 minutes needs more hosts than an hour; each
    design meets its SLA at the confidence asked."""
    def sized(limit: float) -> object:
        return size(sample("retail-dw-dual-socket-sas", workload={"concurrent_queries": 40, "scan_fraction_pct": 25},
                           targets={"max_report_s": limit, "confidence": confidence}), catalog)

    ten, hour = sized(600.0), sized(3600.0)
    for r, limit in ((ten, 600.0), (hour, 3600.0)):
        check = r.check("max_report_s")  # type: ignore[attr-defined]
        assert check is not None and check.status == "met"
        e = r.estimates["report_s"]  # type: ignore[attr-defined]
        assert (e.p90 if confidence == "P90" else e.p50) <= limit * (1 + 1e-9)
    assert ten.design.segment_hosts > hour.design.segment_hosts  # type: ignore[attr-defined]


def test_the_optimizer_keeps_the_report_sla(catalog: HardwareCatalog) -> None:
    s = sample("retail-dw-dual-socket-sas", workload={"concurrent_queries": 30}, targets={"max_report_s": 900})
    best = optimize(s, catalog, pareto_limit=20).best_sizing
    assert best is not None
    check = best.check("max_report_s")
    assert check is not None and check.status == "met" and best.estimates["report_s"].p50 <= 900


def test_report_seconds_doctest_values() -> None:
    assert report_seconds([7200.0], 10).tolist() == [5.0]

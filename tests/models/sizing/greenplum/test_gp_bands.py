"""Greenplum bands widen with the distance from the calibration clusters (`models.perf.gp_bands`): a design at a
calibration point keeps the in-sample band, one far from it gets a wider one, in the report and in the checks."""

from __future__ import annotations

import pytest

from models.calibration_data import figure
from models.hardware import HardwareCatalog
from models.perf import gp_bands
from models.sizing.engine import size
from tests.models.sizing.conftest import sample

GEN5 = "supermicro-asg-1115s-ne316r-1x-epyc-9454p"  # study 002's processor: no CPU distance
R750 = "dell-r750-2x-gold-6342-24sas"  # Xeon Gold 6342: 7.9 against the 9454P's 10.9 per core


def _dw(catalog: HardwareCatalog, data_tb: float, **platform: object) -> object:
    changes = {"platform": platform} if platform else {}  # an empty section would replace the sample's platform
    return size(sample("retail-dw-gen5", workload={"data_tb": data_tb, "growth_pct_per_year": 0,
                                                   "concurrent_queries": 15}, targets={}, **changes), catalog)


def _width(e: object) -> float:
    return e.p90 / e.p10  # type: ignore[attr-defined, no-any-return]


def test_a_design_far_from_the_calibration_has_a_wider_band_than_one_at_it(catalog: HardwareCatalog) -> None:
    """4 hosts of study 002's processor running 15 queries (study 002's concurrent test) is a calibration point:
    its band is the in-sample one; 1,500 TB on the same hosts takes 61 of them, four doublings away."""
    near, far = _dw(catalog, 90), _dw(catalog, 1_500)
    assert near.design.segment_hosts == 4 and far.design.segment_hosts > 32  # type: ignore[attr-defined]
    assert float(gp_bands.queries_sd(0.0, 4, 15)) == 0.0
    for metric in ("full_scan_s", "queries_per_hour", "load_tb_per_hour"):
        w_near, w_far = _width(near.estimates[metric]), _width(far.estimates[metric])  # type: ignore[attr-defined]
        assert w_far > 1.5 * w_near, metric
        assert far.estimates[metric].p10 < far.estimates[metric].p50 < far.estimates[metric].p90  # type: ignore


def test_a_processor_away_from_its_generations_calibrated_one_is_a_distance_too(catalog: HardwareCatalog) -> None:
    """Each candidate carries its CPU's doublings from its generation's calibrated processor: a Xeon Gold 6342 (7.9
    against the EPYC 9454P's 10.9 per core) is 0.47 away, study 002's own none, and a processor the benchmark table
    has not got (study 000's E5-2470 generation) none; at 4 hosts only the CPU then widens the band."""
    from models.sizing.greenplum.candidates import cpu_doublings

    gold = cpu_doublings(catalog.server(R750))
    assert gold == pytest.approx(0.465, abs=0.01)
    assert cpu_doublings(catalog.server(GEN5)) == pytest.approx(0.0, abs=1e-9)
    assert cpu_doublings(catalog.server("hpe-dl380e-gen8-2x-e5-2470")) == 0.0
    per_doubling = figure("gp_vsphere_000", "band_sd_per_doubling")
    assert float(gp_bands.scan_sd(gold, 4)) == pytest.approx(per_doubling * gold) and float(gp_bands.scan_sd(0, 4)) == 0


def test_the_p90_a_design_is_sized_at_is_the_widened_band(catalog: HardwareCatalog) -> None:
    """At targets.confidence P90 the host search reads the same widened draws the report shows: the design it
    settles meets its full-scan target at the band's P90 (a time: the high end), and one host fewer would not."""
    r = size(sample("retail-dw-gen5", targets={"max_full_scan_s": 600, "confidence": "P90"}), catalog)
    check = next(c for c in r.target_checks if c.metric == "full_scan_s")
    assert check.status == "met" and check.estimate == pytest.approx(r.estimates["full_scan_s"].p90, rel=1e-9)
    assert r.estimates["full_scan_s"].p90 <= 600 < r.estimates["full_scan_s"].p90 * 1.2


def test_an_oltp_cluster_far_from_study_004s_has_a_wider_band_than_the_studys_own() -> None:
    """TPC-B on study 004's 4 segment hosts at 100 clients (inside its measured 10-200) keeps the in-sample band;
    32 segment hosts at 1,600 clients, the segment side binding, three doublings out in each, a wider one; a
    coordinator-bound select cluster is not made less certain by segment hosts it does not use."""
    from models.perf.gp_oltp import predict_tps

    near = predict_tps("tpcb", 100, 512, 4, 32, n=400).estimate
    far = predict_tps("tpcb", 1_600, 512, 32, 32, n=400).estimate
    assert float(gp_bands.oltp_hosts_sd(4)) == 0.0 and float(gp_bands.oltp_clients_sd(100)) == 0.0
    assert far.p90 / far.p10 > 1.3 * (near.p90 / near.p10)
    small, big = (predict_tps("select", 100, 8, h, 64, n=400).estimate for h in (16, 64))
    assert big.p10 == pytest.approx(small.p10) and big.p90 == pytest.approx(small.p90)  # the coordinator binds both

"""A design sized at P90 says how much of its cautious end the extrapolation band (a refarch assumption) makes, and
that the band sets the host count when it is the larger part of the range."""

from __future__ import annotations

import math
import re

from models.hardware import HardwareCatalog
from models.perf import gp_bands
from models.scenario import Scenario
from models.sizing.engine import size
from models.sizing.greenplum import cpu_doublings
from tests.models.sizing.conftest import sample


def _dw(confidence: str, data_tb: float = 12.0) -> Scenario:
    return sample("retail-dw-gen5", workload={"data_tb": data_tb, "concurrent_queries": 10},
                  targets={"max_full_scan_s": 600, "confidence": confidence})


def test_a_p90_scan_target_names_the_band_and_its_share(catalog: HardwareCatalog) -> None:
    s = _dw("P90")
    r = size(s, catalog)
    (w,) = [x for x in r.warnings if x.code == "p90-band"]
    e = r.estimates["full_scan_s"]
    sd = float(gp_bands.scan_sd(cpu_doublings(catalog.server(r.design.server_id)), r.design.segment_hosts))
    assert sd > 0 and w.field == "targets.confidence"
    assert f"{r.design.segment_hosts:,} segment hosts" in w.text and "a refarch assumption" in w.text
    band, whole = (float(x) for x in re.findall(r"x(\d+\.\d\d)", w.text))
    assert band == round(math.exp(1.2816 * sd), 2)
    assert whole == round(e.p90 / e.p50, 2) and band <= whole
    assert ("sets this host count" in w.text) == (math.log(band) ** 2 >= math.log(whole) ** 2 / 2)


def test_p50_sizing_raises_no_band_warning(catalog: HardwareCatalog) -> None:
    r = size(_dw("P50"), catalog)
    assert not [x for x in r.warnings if x.code == "p90-band"]

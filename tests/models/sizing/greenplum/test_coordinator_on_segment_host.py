"""A coordinator on a segment host (`workload.coordinator_on_segment_host`): no coordinator host, no standby; a
select's coordinator work and that host's share of the segment work add up on the same cores, so the TPS is
1 / r = 1 / r_coordinator + 1 / r_segments; write mixes stay bound by the segment hosts."""

from __future__ import annotations

import numpy as np
import pytest

from app.export.config import build_config
from models.calibration_data import point
from models.hardware import HardwareCatalog
from models.perf import gp_oltp
from models.perf.usl_calibration import calibrated
from models.sizing.engine import size
from tests.models.sizing.conftest import sample

SERVER = "dell-r6715-16x-e3s-1x-epyc-9455p"


@pytest.mark.parametrize("cores", [24.0, 64.0, 128.0])
@pytest.mark.parametrize("hosts", [1, 2, 5])
def test_pooled_select_adds_the_work_per_transaction_and_never_beats_separate_hosts(cores: float,
                                                                                   hosts: int) -> None:
    shared = gp_oltp.predict_tps("select", 150, cores, hosts, cores, n=0, pooled=True)
    apart = gp_oltp.predict_tps("select", 150, cores, hosts, cores, n=0)
    assert float(shared.capacity_ratio) <= float(apart.capacity_ratio)
    assert float(shared.estimate.p50) <= float(apart.estimate.p50) + 1e-9
    assert shared.binding_resource == gp_oltp.BINDING_SHARED_HOST
    if hosts == 1:  # one host: its cores' TPS whatever the coordinator's share of a select's CPU
        per_core = point("gp6_oltp_004", "env192_select_tps").value / point("gp6_oltp_004", "env192_cores").value
        assert float(shared.capacity_ratio) == pytest.approx(
            per_core * cores / calibrated("gp6-select").peak_throughput, rel=1e-12)
    for mix in ("tpcb", "update", "insert"):  # writes: the segment hosts bind, sharing changes nothing
        assert gp_oltp.predict_tps(mix, 150, cores, hosts, cores, pooled=True).estimate.p50 == \
            gp_oltp.predict_tps(mix, 150, cores, hosts, cores).estimate.p50


def test_the_search_curve_gives_what_the_prediction_gives_when_pooled() -> None:
    curve = gp_oltp.curve("select", 120.0, 48.0, 48.0, 50.0, pooled=True)
    got = curve.at(np.array([1, 2, 3, 7], dtype=np.int64))
    for h, tps in zip([1, 2, 3, 7], got, strict=True):
        assert tps == pytest.approx(float(gp_oltp.predict_tps("select", 120, 48.0, h, 48.0, pooled=True)
                                          .estimate.p50), rel=1e-12)
    assert np.all(np.diff(got) > 0)  # more hosts take segment work off the shared one: never flat


def test_size_builds_no_coordinator_host_and_prices_none(catalog: HardwareCatalog) -> None:
    common = {"mix": "select", "target_tps": None, "clients": 150, "min_segment_hosts": 3, "data_tb": 1}
    shared = size(sample("gp-oltp", workload={**common, "coordinator_on_segment_host": True},
                         platform={"server_id": SERVER}), catalog)
    apart = size(sample("gp-oltp", workload=common, platform={"server_id": SERVER}), catalog)
    assert shared.design.coordinator_hosts == 0 and apart.design.coordinator_hosts == 2
    assert not [h for h in shared.design.hosts if h.role == "coordinator host"]
    assert not [b for b in shared.bom if b.role == "coordinator host"]
    assert shared.totals.capex < apart.totals.capex
    assert shared.estimates["tps"].p50 < apart.estimates["tps"].p50  # the dedicated coordinator's own cores
    assert "Coordinator on a segment host" in {x.decision for x in shared.rationale}
    assert "coordinator-on-segment-host" in {w.code for w in shared.warnings}
    assert "coordinator-on-segment-host" not in {w.code for w in apart.warnings}


def test_a_tps_target_adds_segment_hosts_until_the_shared_host_meets_it(catalog: HardwareCatalog) -> None:
    """48-core hosts, no mirrors: each host more takes segment work off the shared one, so the TPS climbs towards
    what the coordinator's share of its cores allows; the search stops at the first count meeting the target."""
    common = {"mix": "select", "clients": 400, "data_tb": 1, "mirrors": False, "coordinator_on_segment_host": True}
    r = size(sample("gp-oltp", workload={**common, "target_tps": 80_000}, platform={"server_id": SERVER}), catalog)
    assert all(c.met for c in r.target_checks) and r.design.coordinator_hosts == 0
    assert r.design.segment_hosts >= 3
    fewer = size(sample("gp-oltp", workload={**common, "target_tps": None,
                                             "min_segment_hosts": r.design.segment_hosts - 1},
                        platform={"server_id": SERVER}), catalog)
    assert fewer.design.segment_hosts == r.design.segment_hosts - 1
    assert fewer.estimates["tps"].p50 < 80_000 <= r.estimates["tps"].p50


def test_the_configuration_runs_the_master_on_the_first_segment_host(catalog: HardwareCatalog) -> None:
    r = size(sample("gp-oltp", workload={"mix": "select", "target_tps": None, "min_segment_hosts": 2, "data_tb": 1,
                                         "coordinator_on_segment_host": True}, platform={"server_id": SERVER}),
             catalog)
    bundle = build_config(r)
    init = bundle.get("greenplum/gpinitsystem_config").text
    assert "\nMASTER_HOSTNAME=sdw1\n" in init
    hosts = [ln for ln in bundle.get("greenplum/hostfile_all").text.splitlines() if ln and not ln.startswith("#")]
    assert hosts == ["sdw1", "sdw2"]
    assert " -s " not in bundle.get("greenplum/gpinitsystem.sh").text.splitlines()[-1]
    assert "\nmaster_host=sdw1" in bundle.get("ansible/inventory.ini").text
    assert not any("sysctl-master" in f.path for f in bundle.files)


def test_analytics_has_no_such_field() -> None:
    with pytest.raises(Exception) as caught:
        sample("retail-dw-gen5", workload={"coordinator_on_segment_host": True})
    assert "coordinator_on_segment_host" in str(caught.value)

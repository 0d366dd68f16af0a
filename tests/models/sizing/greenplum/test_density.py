"""Density check: cores and memory per TB on disk against a peer sizing tool's provisioning, warned by number."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from models.calibration_data import figure
from models.hardware import HardwareCatalog
from models.scenario import GreenplumAnalytics, Scenario
from models.sizing.engine import size
from models.sizing.greenplum import density
from tests.models.sizing.conftest import sample

DENSE_STORAGE = "hpe-dl345-gen11-12x-lff-1x-epyc-9354p"  # 12 x 20 TB LFF on one 32-core socket


@settings(max_examples=100)
@given(st.integers(1, 5000), st.integers(1, 5000))
def test_more_concurrency_never_asks_for_less_compute(q1: int, q2: int) -> None:
    lo, hi = sorted((q1, q2))
    assert density.concurrency_factor(lo) <= density.concurrency_factor(hi)


def test_a_storage_dense_design_without_targets_is_warned_with_the_numbers(catalog: HardwareCatalog) -> None:
    s = sample("retail-dw-gen5", targets={}, workload={"data_tb": 1000, "compression_ratio": 1,
                                                      "growth_pct_per_year": 0},
               platform={"server_id": DENSE_STORAGE, "drive_id": "seagate-exos-x20-20tb-sas-lff", "drives_per_host": 12,
                         "nic_id": None})
    r = size(s, catalog)
    (warning,) = [w for w in r.warnings if w.code == "density-low"]
    server = catalog.server(DENSE_STORAGE)
    cores = r.design.segment_hosts * server.sockets * server.cpu.threads
    assert f"{cores:,} logical cores" in warning.text and "1,000.0 TB on disk" in warning.text
    need = figure("vendor_docs", "density_vcpu_per_tb_on_disk") * 1000
    assert cores < need and f"{math.ceil(need):,} cores" in warning.text
    assert "Cloudberry" in warning.text
    assert any(x.decision == "Density" for x in r.rationale)


def test_the_warning_appears_exactly_when_the_design_falls_short(catalog: HardwareCatalog) -> None:
    for data_tb in (20.0, 600.0):
        s = sample("retail-dw-gen5", targets={"max_full_scan_s": 300}, workload={"data_tb": data_tb})
        r = size(s, catalog)
        assert isinstance(s.workload, GreenplumAnalytics)
        d = density.density(s.workload, catalog.server(r.design.server_id), r.design.segment_hosts,
                               r.design.memory_gib_per_host, r.design.data_needed_tb)
        assert ("density-low" in {w.code for w in r.warnings}) == d.short


def test_higher_concurrency_scales_the_baseline_linearly() -> None:
    base = figure("vendor_docs", "density_baseline_concurrent_queries")
    assert density.concurrency_factor(int(base) * 3) == 3.0
    assert density.concurrency_factor(1) == 1.0


def test_oltp_has_no_density_check(catalog: HardwareCatalog) -> None:
    r = size(sample("gp-oltp", targets={}), catalog)
    assert not [x for x in r.rationale if x.decision == "Density"]


def _petabyte_on_the_study_002_host(drives_per_host: int) -> Scenario:
    """1 PB on disk on study 002's server and drive (the retail-dw-gen5 sample's platform)."""
    return sample("retail-dw-gen5", targets={}, workload={"data_tb": 1000, "compression_ratio": 1,
                                                          "growth_pct_per_year": 0},
                  platform={"drives_per_host": drives_per_host})


def test_study_002s_own_host_keeps_the_density_and_twice_its_drives_do_not(catalog: HardwareCatalog) -> None:
    """The rule checked against what study 002 built: its 8 drives per 48-core host pass at 1 PB; 16 (the
    server's bays, the capacity the study offers with larger drives) fall short, and the warning says whose
    rule it is."""
    study_drives = int(figure("gp_nvme_ra_002", "gen5_data_drives_per_host"))
    own = size(_petabyte_on_the_study_002_host(study_drives), catalog)
    assert "density-low" not in {w.code for w in own.warnings}
    dense = size(_petabyte_on_the_study_002_host(2 * study_drives), catalog)
    (warning,) = [w for w in dense.warnings if w.code == "density-low"]
    assert "not a Greenplum requirement" in warning.text and f"{study_drives:g} x 3.84 TB" in warning.text


def test_the_concurrency_factor_steps_as_the_calculator_does() -> None:
    assert [density.concurrency_factor(q) for q in (80, 81, 120, 121, 160, 161)] == [1.0, 1.5, 1.5, 2.0, 2.0, 2.5]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    queries=st.integers(31, 5000), data_tb=st.sampled_from([2.0, 60.0, 300.0]),
    server=st.sampled_from([None, "dell-r7625-24x-u3-2x-epyc-9654", "lenovo-sr655-v3-12x-lff-1x-epyc-9124"]),
    deployment=st.sampled_from(["bare-metal", "vsphere"]),
)
def test_reports_that_queue_ask_no_density_of_their_own(
    catalog: HardwareCatalog, queries: int, data_tb: float, server: str | None, deployment: str
) -> None:
    """The peer tool's density is for queries running at once: a request beyond what the resource group admits
    (the rest queue, holding no cores or memory) sizes the design of asking exactly the admitted count, and
    its density line names the admitted count (was: 185 asked -> 10 hosts, 500 asked of which 185 run -> 5
    hosts with a density warning asking 8 x 6.25 cores per TB)."""
    plat = {"deployment": deployment, "nic_id": None}
    if server is not None:  # the sample's own server and drive otherwise
        plat.update(server_id=server, drive_id=None)
    asked = size(sample("retail-dw-gen5", targets={}, workload={"concurrent_queries": queries, "data_tb": data_tb},
                        platform=plat), catalog)
    assert asked.greenplum is not None
    running = asked.greenplum.resource_group_concurrency
    assume(figure("sizing_rules", "gp_admission_floor_queries") < running < queries)
    exact = size(sample("retail-dw-gen5", targets={}, workload={"concurrent_queries": running, "data_tb": data_tb},
                        platform=plat), catalog)
    assert (asked.design.server_id, asked.design.segment_hosts, asked.totals.capex) == \
        (exact.design.server_id, exact.design.segment_hosts, exact.totals.capex)
    codes = {w.code for w in asked.warnings}
    assert ("density-low" in codes) == ("density-low" in {w.code for w in exact.warnings})
    (line,) = [x.text for x in asked.rationale if x.decision == "Density"]
    assert f"for {running:,} concurrent queries the resource group runs at once" in line or \
        density.concurrency_factor(running) == 1.0

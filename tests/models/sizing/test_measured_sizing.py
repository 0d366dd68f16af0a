"""Sizing on measurement profiles (platform.measurements): measured disk and network rates and a measured pgbench
sweep change a design, and the result says what changed and why; without profiles nothing changes."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from models.hardware import HardwareCatalog
from models.measurements.detect import parse_measurement
from models.measurements.profile import MeasurementProfile, ProfileFile
from models.perf import scan_load_estimates, scan_load_fit
from models.perf.measured import ScanFactors, measured
from models.scenario import parse_scenario
from models.sizing.engine import SizingInputError, size
from tests.models.sizing.conftest import SAMPLES, SizeOnce

FIXTURES = Path(__file__).resolve().parents[1] / "measurements" / "fixtures"
GEN5_SERVER = "supermicro-asg-1115s-ne316r-1x-epyc-9454p"


def profile(name: str, *files: str, server: str | None = None) -> MeasurementProfile:
    now = datetime(2026, 11, 29, tzinfo=UTC)
    parsed = [ProfileFile(f, now, parse_measurement((FIXTURES / f).read_text(encoding="utf-8"), f)) for f in files]
    return MeasurementProfile(name, server, now, tuple(parsed))


def scenario(sample: str, **changes: object) -> dict[str, object]:
    doc = json.loads((SAMPLES / sample).read_text(encoding="utf-8"))
    for path, value in changes.items():
        part, key = path.split("__")
        doc[part][key] = value
    return doc


def test_gen5_on_slow_disks_and_10gbe_needs_more_hosts_and_says_why(catalog: HardwareCatalog,
                                                                      size_once: SizeOnce) -> None:
    plain = size_once(parse_scenario(scenario("retail-dw-gen5.json")))
    slow = profile("slow-10gbe", "gpcheckperf_slow_disks_10gbe.txt", server=GEN5_SERVER)
    doc = scenario("retail-dw-gen5.json", platform__measurements=["slow-10gbe"])
    result = size(parse_scenario(doc), catalog, profiles={"slow-10gbe": slow})
    cal = result.calibration
    assert cal is not None
    before, after = cal["modelled_design"], cal["measured_design"]
    assert before["segment_hosts"] == plain.design.segment_hosts and before["binding_resource"] == "cpu"
    # slow drives cost the design: more hosts, or more drives per host (the segments fit the drives), at more capex
    grew = (after["segment_hosts"] > before["segment_hosts"]
            or after["data_drives_per_host"] > before["data_drives_per_host"])
    assert grew and after["capex"] > before["capex"]
    read = next(r for r in cal["resources"] if r["resource"] == "disk_read")
    # gpcheckperf's slowest host in MiB/s, as MB/s, against 8 drives x datasheet x efficiency of the first design
    assert read["measured"] == pytest.approx(735.5 * 1.048576, rel=1e-3) and read["ratio"] < 0.9
    assert not read["within_tolerance"] and read["applied"]
    net = next(r for r in cal["resources"] if r["resource"] == "network")
    assert net["modelled"] == 12_500 and net["ratio"] == pytest.approx(net["measured"] / 12_500)
    memory = next(r for r in cal["resources"] if r["resource"] == "memory")
    assert memory["applied"] is False and memory["modelled"] is None
    assert memory["changes"].startswith("checked only, not sized on: no refarch model has a memory-bandwidth term")
    from app.views.calibration import rows

    assert next(r.verdict for r in rows(cal) if r.resource == "Memory (stream)") == "checked only"
    said = {w.code: w.text for w in result.warnings}
    assert f"segment hosts {before['segment_hosts']} -> {after['segment_hosts']}" in said["measured-design"]
    if after["data_drives_per_host"] != before["data_drives_per_host"]:
        assert (f"data drives per host {before['data_drives_per_host']} -> {after['data_drives_per_host']}"
                in said["measured-design"])
    assert "capex " in said["measured-design"] and "disk_read measured" in said["measured-design"]
    assert result.to_dict()["calibration"] == cal
    assert "calibration" not in plain.to_dict()


def test_a_tpcb_sweep_replaces_the_study_curve_of_a_greenplum_oltp_design(catalog: HardwareCatalog,
                                                                           size_once: SizeOnce) -> None:
    plain = size_once(parse_scenario(scenario("gp-oltp.json", workload__mix="tpcb")))
    lab = profile("tpcb-lab", "pgbench_tpcb_sweep.txt")
    doc = scenario("gp-oltp.json", workload__mix="tpcb", platform__measurements=["tpcb-lab"])
    result = size(parse_scenario(doc), catalog, profiles={"tpcb-lab": lab})
    assert result.calibration is not None
    tps = next(r for r in result.calibration["resources"] if r["resource"] == "oltp_tps")
    assert tps["applied"] and tps["ratio"] != pytest.approx(1.0, abs=0.05)
    assert "replaces the study's tpcb curve" in tps["changes"]
    assert result.estimates["tps"].p50 != pytest.approx(plain.estimates["tps"].p50, rel=1e-6)
    assert result.design.segment_hosts != plain.design.segment_hosts
    # a select-only scenario finds no select sweep in a TPC-B profile: the study's curve stays, and it says so
    sel = size(parse_scenario(scenario("gp-oltp.json", platform__measurements=["tpcb-lab"])), catalog,
               profiles={"tpcb-lab": lab})
    assert sel.calibration is not None and "the study's curve stays" in sel.calibration["notes"][0]


def test_a_profile_the_catalog_lacks_is_named(catalog: HardwareCatalog) -> None:
    doc = scenario("retail-dw-gen5.json", platform__measurements=["lab", "nope"])
    with pytest.raises(SizingInputError, match=r"platform.measurements\[1\]: no measurement profile 'nope'"):
        size(parse_scenario(doc), catalog, profiles={"lab": profile("lab", "hammerdb_v3.log")})


def test_measured_factors_apply_only_inside_the_block() -> None:
    before = scan_load_fit.default_params()
    with measured(ScanFactors(drive_read=0.5, link_mb_s=1_000.0)):
        inside = scan_load_estimates.sampled_params()
        assert scan_load_fit.default_params().drive_read_efficiency == before.drive_read_efficiency * 0.5
        assert scan_load_fit.default_params().motion_fraction == before.motion_fraction  # links: per NIC, below
    after = scan_load_estimates.sampled_params()
    assert scan_load_fit.default_params() is before
    assert (inside.drive_read_efficiency == after.drive_read_efficiency * 0.5).all()


@pytest.mark.parametrize("nic_id", ["intel-x710-da2-2x10gbe", "nvidia-connectx-6-lx-2x25gbe",
                                    "nvidia-connectx-7-2x100gbe"])
def test_measured_links_are_what_each_port_of_the_designs_own_nic_carries(catalog: HardwareCatalog,
                                                                          nic_id: str) -> None:
    """The measured link rate stands for one port of whichever NIC a design has, up to its line rate: not a ratio
    to the NIC it was first compared with, carried to another NIC."""
    from models.sizing.parts import NetworkChoice

    nic = catalog.nic(nic_id)
    net = NetworkChoice(nic, 1)
    line = nic.speed_gbps * 125.0  # MB/s per port
    assert net.model_gbps_per_host == net.gbps_per_host  # outside a sizing on measurements: the line rate
    for link in (0.5 * line, 1_139.0, 2.0 * line):
        with measured(ScanFactors(link_mb_s=link)):
            assert net.model_gbps_per_host * 125.0 == pytest.approx(nic.ports * min(link, line))
    with measured(ScanFactors(drive_read=0.5)):  # disks measured, links not: the line rate
        assert net.model_gbps_per_host == net.gbps_per_host


def test_growth_and_the_estimate_curve_of_a_measured_design_use_its_measured_rates(
        catalog: HardwareCatalog) -> None:
    from models.perf.measured import using
    from models.sizing import curves
    from models.whatif import growth

    slow = profile("slow-10gbe", "gpcheckperf_slow_disks_10gbe.txt", server=GEN5_SERVER)
    doc = scenario("retail-dw-gen5.json", platform__measurements=["slow-10gbe"])
    s = parse_scenario(doc)
    result = size(s, catalog, profiles={"slow-10gbe": slow})
    assert result.measured is not None and result.measured.scan is not None
    with pytest.raises(SizingInputError):  # outside its measured rates the scenario cannot be sized again
        growth(s, catalog, result)
    with using(result.measured):
        years = growth(s, catalog, result)
        points = dict(curves.main_metric_curve(s, catalog, [result.design.segment_hosts], result))
    assert years[-1].hosts == result.design.segment_hosts
    assert points[result.design.segment_hosts].p50 == pytest.approx(result.estimates["full_scan_s"].p50, rel=1e-9)


def test_the_plan_of_a_measured_design_asks_for_the_rates_it_was_sized_on(catalog: HardwareCatalog) -> None:
    from models.measurements.calibration import modelled_rates
    from models.measurements.plan import thresholds

    slow = profile("slow-10gbe", "gpcheckperf_slow_disks_10gbe.txt", server=GEN5_SERVER)
    s = parse_scenario(scenario("retail-dw-gen5.json", platform__measurements=["slow-10gbe"]))
    result = size(s, catalog, profiles={"slow-10gbe": slow})
    assert result.measured is not None and result.measured.scan is not None
    plan = thresholds(s, result, catalog)
    modelled = modelled_rates(result.design, catalog)
    assert plan["per_host_mb_s"]["disk_read"] == pytest.approx(modelled["disk_read"] * result.measured.scan.drive_read)
    # the design's own drive count at the measured per-drive share: 9 drives where 8 were measured
    per_drive = 735.5 * 1.048576 / 8
    assert plan["per_host_mb_s"]["disk_read"] == pytest.approx(per_drive * result.design.data_drives_per_host,
                                                               rel=1e-3)


def test_a_hammerdb_sweep_replaces_study_001s_postgres_rates(catalog: HardwareCatalog, size_once: SizeOnce) -> None:
    plain = size_once(parse_scenario(scenario("pg-consolidation.json")))
    server = plain.design.server_id
    lab = profile("pg-lab", "hammerdb_autopilot.log", server=server)
    s = parse_scenario(scenario("pg-consolidation.json", platform__measurements=["pg-lab"]))
    result = size(s, catalog, profiles={"pg-lab": lab})
    assert result.calibration is not None
    rows = {r["resource"]: r for r in result.calibration["resources"]}
    # HammerDB TPM / 60 fitted: lambda is the one-virtual-user rate (3,000 TPM in the fixture = 50 TPS)
    assert rows["pg_tps_per_client"]["measured"] == pytest.approx(50.0, rel=0.01)
    from models.sizing.postgres import model_rates

    per_client, per_vcpu = model_rates(catalog.server(server))  # the throughput model's rates on the design's CPU
    assert rows["pg_tps_per_client"]["modelled"] == pytest.approx(per_client, rel=1e-6)
    assert rows["pg_tps_per_vcpu"]["modelled"] == pytest.approx(per_vcpu, rel=1e-6)
    threads = catalog.server(server).threads_total
    assert "logical CPUs" in rows["pg_tps_per_vcpu"]["changes"] and str(threads) in rows["pg_tps_per_vcpu"]["changes"]
    assert result.design != plain.design  # the databases' estimated TPS, so their WAL, follow the measured rate
    assert model_rates(catalog.server(server)) == (per_client, per_vcpu)  # outside the sizing: the model's again


def test_a_slow_memory_host_is_named_as_checked_not_as_the_designs_rate(catalog: HardwareCatalog,
                                                                        size_once: SizeOnce) -> None:
    """gpcheckperf's stream is checked across hosts: a slow one is a fault to find, not a rate the design runs at."""
    from models.measurements import calibration

    text = (FIXTURES / "gpcheckperf_slow_disks_10gbe.txt").read_text(encoding="utf-8")
    text = (text.replace("stream tot bandwidth (MB/s): 56422.48", "stream tot bandwidth (MB/s): 55177.66")
            .replace("stream min bandwidth (MB/s): 9244.82 [sdw6]", "stream min bandwidth (MB/s): 8000.00 [sdw6]")
            .replace("stream bandwidth (MB/s): 9244.82 [sdw6]", "stream bandwidth (MB/s): 8000.00 [sdw6]"))
    now = datetime(2026, 11, 29, tzinfo=UTC)
    prof = MeasurementProfile("mem", None, now, (ProfileFile("g.txt", now, parse_measurement(text, "g.txt")),))
    s = parse_scenario(scenario("retail-dw-gen5.json", platform__measurements=["mem"]))
    before = size_once(parse_scenario(scenario("retail-dw-gen5.json")))
    p = calibration.plan(s, [prof], before, catalog)
    memory = next(r for r in p.resources if r.name == "memory")
    assert memory.slow == ("sdw6",) and not memory.applied and p.scan is not None
    doc = calibration.report(p, before, before)
    said = [w.text for w in calibration.warnings(doc) if w.code == "measured-slow-hosts"]
    assert any(t.startswith("memory: sdw6 below 0.9 x the fastest host; memory bandwidth is checked, not sized on")
               for t in said)
    assert not any("memory" in t and "slowest host's rate" in t for t in said)


@pytest.mark.parametrize(("drives", "drive"), [(None, None), (4, None), (16, None), (8, "dell-900gb-sas-10k-sff")])
def test_the_disk_ratio_is_taken_on_the_measured_hosts_own_drives(catalog: HardwareCatalog, size_once: SizeOnce,
                                                                 drives: int | None, drive: str | None) -> None:
    """The measured MB/s per host is set against the model of the hosts that were measured (their drive count and
    drive), not of the first design, so the ratio is the measured share of those drives' modelled rate."""
    from dataclasses import replace

    from models.measurements import calibration

    before = size_once(parse_scenario(scenario("retail-dw-gen5.json")))
    d = before.design
    prof = replace(profile("slow", "gpcheckperf_slow_disks_10gbe.txt"), data_drives=drives, drive_id=drive)
    s = parse_scenario(scenario("retail-dw-gen5.json", platform__measurements=["slow"]))
    p = calibration.plan(s, [prof], before, catalog)
    read = next(r for r in p.resources if r.name == "disk_read")
    on = catalog.drive(drive or d.drive_id)  # type: ignore[arg-type]
    n = drives or d.data_drives_per_host
    # bare metal, no RAID: drives x datasheet x the fitted read efficiency (1.0)
    assert read.modelled == pytest.approx(n * on.seq_read_mb_s)
    assert read.ratio == pytest.approx(735.51 * 1.048576 / (n * on.seq_read_mb_s))
    assert p.scan is not None and p.scan.drive_read == pytest.approx(read.ratio)
    assert f"{n} x {on.vendor} {on.model} per host" in read.changes
    if drives is None:
        assert "the profile does not say its hosts' drives" in read.changes
    else:
        assert "the measured hosts'" in read.changes


def test_measured_hosts_too_few_for_the_first_designs_raid_level_are_compared_without_raid(
        catalog: HardwareCatalog, size_once: SizeOnce) -> None:
    """Two measured drives cannot be the first design's RAID 5: compared on no RAID, said so, not a refusal."""
    from dataclasses import replace

    from models.measurements import calibration

    plain = size_once(parse_scenario(scenario("retail-dw-gen5.json")))
    raid5 = replace(plain, design=replace(plain.design, raid="raid5"))  # the plan reads the first design only
    prof = replace(profile("slow", "gpcheckperf_slow_disks_10gbe.txt"), data_drives=2)
    s = parse_scenario(scenario("retail-dw-gen5.json", platform__raid="raid5", platform__measurements=["slow"]))
    p = calibration.plan(s, [prof], raid5, catalog)
    read = next(r for r in p.resources if r.name == "disk_read")
    drive = catalog.drive(raid5.design.drive_id)  # type: ignore[arg-type]
    assert read.modelled == pytest.approx(2 * drive.seq_read_mb_s)  # no RAID factor
    assert f"2 x {drive.vendor} {drive.model} per host, RAID none" in read.changes
    assert "no RAID: RAID-5 needs at least 3 drives, the measured hosts have 2" in read.changes


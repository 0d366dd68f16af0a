"""A Greenplum design whose inputs leave what the studies measured says so: one info warning "extrapolated" naming
each input outside its measured range with the range (`Warning.ranges`), the farthest input's field marked; none
inside every range."""

from __future__ import annotations

import dataclasses
import math

from models.calibration_data import figure
from models.hardware import HardwareCatalog
from models.sizing.engine import size
from models.sizing.greenplum.extrapolation import extrapolation_warning
from models.sizing.result import SizingResult, Warning
from tests.models.sizing.conftest import sample

GP000, GP002, GP004 = "gp_vsphere_000", "gp_nvme_ra_002", "gp6_oltp_004"
SERVER = "dell-r6715-16x-e3s-1x-epyc-9455p"  # 48 cores


def _oltp(catalog: HardwareCatalog, clients: int) -> SizingResult:
    return size(sample("gp-oltp", workload={"mix": "select", "target_tps": None, "clients": clients, "data_tb": 1,
                                            "min_segment_hosts": int(figure(GP004, "segment_hosts")),
                                            "mirrors": False}, platform={"server_id": SERVER}), catalog)


def _extrapolated(r: SizingResult) -> list[Warning]:
    return [w for w in r.warnings if w.code == "extrapolated"]


def test_oltp_inside_study_004_has_no_warning_and_clients_beyond_it_have_one(catalog: HardwareCatalog) -> None:
    inside = _oltp(catalog, 150)
    assert inside.design.segment_hosts == figure(GP004, "segment_hosts")
    assert not _extrapolated(inside)
    beyond = _oltp(catalog, 450)
    (w,) = _extrapolated(beyond)
    assert w.severity == "info" and w.field == "workload.clients"
    (row,) = w.ranges
    assert (row.field, row.value, row.low, row.high) == (
        "workload.clients", 450, figure(GP004, "clients_min"), figure(GP004, "clients_max"))
    assert "clients 450 (measured 10-200)" in w.text
    assert w.to_dict()["ranges"][0]["high"] == figure(GP004, "clients_max")


def test_analytics_outside_lists_each_input_with_its_range_farthest_first(catalog: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5", workload={"concurrent_queries": 60}), catalog)
    (w,) = _extrapolated(r)
    rows = {x.name: x for x in w.ranges}
    assert rows["queries running at once"].value == 60
    assert rows["queries running at once"].high == figure(GP002, "tpcds_streams")
    assert rows["segment hosts"].low == rows["segment hosts"].high == figure(GP000, "segment_hosts")
    assert rows["segment hosts"].field is None  # the design derives it: no input to mark
    cores = rows.get("cores per segment host")
    assert cores is None  # 48 cores: study 002's own
    distances = [abs(math.log2(x.value / (x.low if x.value < x.low else x.high))) for x in w.ranges]
    assert distances == sorted(distances, reverse=True)
    assert w.field == w.ranges[0].field
    assert "study 0" not in w.text and ".txt" not in w.text  # customer text names studies by title


def test_a_design_on_study_000s_figures_is_inside_and_sas_ssds_are_not(catalog: HardwareCatalog) -> None:
    """The measured point itself: 4 hosts of 16 cores, 8 primaries, the study's data per primary, one query."""
    base = size(sample("retail-dw-gen5", workload={"concurrent_queries": 1}), catalog)
    seg = next(h for h in base.design.hosts if h.role == "segment host")
    hosts = int(figure(GP000, "segment_hosts"))
    primaries = int(figure(GP000, "primary_segments_per_host"))
    at = dataclasses.replace(base, design=dataclasses.replace(
        base.design, segment_hosts=hosts, primary_segments_per_host=primaries,
        data_needed_tb=figure(GP000, "database_tb"),
        hosts=(dataclasses.replace(seg, sockets=1, numa_nodes_per_socket=1,
                                   cores_per_numa_node=int(figure(GP000, "cores_per_host"))),)))
    w = sample("retail-dw-gen5", workload={"concurrent_queries": 1}).workload
    nvme = catalog.drive(base.design.drive_id or "")
    assert extrapolation_warning(w, at, nvme) is None  # type: ignore[arg-type]
    ssd = next(d for d in catalog.drives if d.media == "ssd")
    out = extrapolation_warning(w, at, ssd)  # type: ignore[arg-type]
    assert out is not None and out.field == "platform.drive_id"
    assert "solid-state" in out.text
    more_cores = dataclasses.replace(at, design=dataclasses.replace(at.design, hosts=(dataclasses.replace(
        at.design.hosts[0], cores_per_numa_node=int(figure(GP002, "gen5_cores_per_host")) * 2),)))
    far = extrapolation_warning(w, more_cores, nvme)  # type: ignore[arg-type]
    assert far is not None and [x.name for x in far.ranges] == ["cores per segment host"]
    assert far.field == "platform.server_id" and far.ranges[0].high == figure(GP002, "gen5_cores_per_host")

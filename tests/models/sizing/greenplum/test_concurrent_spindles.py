"""Concurrent reports on hard disks: each report's stream interleaves with the others' on every disk, so the
queries/h estimate pays the head positioning the scan model pays for several streams per disk (drive_share), even
where one primary per spindle gives one report a disk of its own; flash and a single report are unchanged."""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest

from models.hardware import Drive, HardwareCatalog
from models.sizing.engine import size
from models.sizing.greenplum import drive_share
from models.sizing.result import SizingResult
from tests.models.sizing.conftest import sample

HDD = {"server_id": "dell-r7625-24x-u3-2x-epyc-9654", "drive_id": "seagate-exos-10e2400-2400gb-sas-sff",
       "drives_per_host": 8}


def _both(catalog: HardwareCatalog, reports: int, platform: dict[str, object]) -> tuple[SizingResult, SizingResult]:
    """The design with the contention counted, and as it was sized without it."""
    s = sample("retail-dw-dual-socket-sas", workload={"concurrent_queries": reports, "data_tb": 20},
               platform=platform, targets={})
    after = size(s, catalog)
    with mock.patch.object(drive_share.Spindles, "concurrent_factor", lambda self, r: np.ones_like(self.streams)):
        before = size(s, catalog)
    return after, before


def test_concurrent_reports_on_one_primary_per_spindle_pay_the_head_positioning(catalog: HardwareCatalog) -> None:
    after, before = _both(catalog, 8, HDD)
    d = after.design
    assert d.raid == "none" and d.primary_segments_per_host == d.data_drives_per_host  # one stream per disk alone
    drive = catalog.get(HDD["drive_id"])
    assert isinstance(drive, Drive)
    run_s = drive_share.readahead_mb() / drive.seq_read_mb_s
    share = run_s / (run_s + 1.0 / drive.random_read_iops)  # the disk's rate with a positioning per run
    q_after, q_before = after.estimates["queries_per_hour"].p50, before.estimates["queries_per_hour"].p50
    assert share - 1e-9 <= q_after / q_before < 1.0
    assert after.estimates["full_scan_s"].p50 == before.estimates["full_scan_s"].p50  # one scan: its own disks


@pytest.mark.parametrize(("reports", "platform"), [(1, HDD), (8, {"server_id": "dell-r6715-16x-e3s-1x-epyc-9455p",
                                                                  "drive_id": None, "drives_per_host": None})])
def test_one_report_or_flash_is_unchanged(catalog: HardwareCatalog, reports: int,
                                          platform: dict[str, object]) -> None:
    after, before = _both(catalog, reports, platform)
    assert after.estimates["queries_per_hour"].p50 == before.estimates["queries_per_hour"].p50

"""Licensed cores that carry no work (issue 29, item 2): per-core licences on cores the design's segments leave
idle are named with their cost per year and the catalog CPU that avoids them."""

from __future__ import annotations

import dataclasses
import math
import re

from models.hardware import HardwareCatalog
from models.sizing.engine import size
from models.sizing.idle_cores import Work, idle_core_warnings, per_core_licences
from tests.models.sizing.conftest import SizeOnce, sample

R670 = "dell-r670-10x-u3-2x-xeon-6740e"  # 2 x Xeon 6740E, 92 cores each: 184 cores, 10 bays
NVME = "micron-7450-pro-3840gb-u3"  # flash: 4 primaries per drive (a hard disk carries one)


def _idle(r):  # type: ignore[no-untyped-def]
    return [w for w in r.warnings if w.code == "licensed-cores-idle"]


def test_a_184_core_host_with_40_primaries_names_its_idle_cores_cost_and_a_smaller_cpu(
        catalog: HardwareCatalog, size_once: SizeOnce) -> None:
    """The optimizer's capex pick for the Gen5 sample: 42 hosts of 184 cores, 40 primaries each (10 drives x 4),
    where the cores take 61 at study 002's Type 2 tier (16 primaries per 48 cores): 121 cores carry segments."""
    s = sample("retail-dw-gen5", platform={"server_id": R670, "drive_id": NVME, "nic_id": None})
    r = size_once(s)
    d = r.design
    assert (d.segment_hosts, d.primary_segments_per_host) == (42, 40)
    [w] = _idle(r)
    lic = next(ln for ln, lic in per_core_licences(r.bom, catalog) if lic.applies_to == "greenplum")
    busy = math.ceil(184 * 40 / round(16 * 184 / 48))  # 121
    idle = 184 - 2 * math.ceil(busy / 2)  # 62 against a CPU of 61 cores per socket
    assert f"keep {busy} at work" in w.text and f"{idle} licensed cores per host" in w.text
    assert f"{idle * 42:,} on the 42 hosts" in w.text
    assert f"{idle * 42 * lic.unit_price:,.0f} USD a year" in w.text
    # the catalog's Intel CPU with the fewest cores of at least 61: the Xeon 6767P (64 cores)
    assert "Xeon 6767P (64 cores)" in w.text
    assert f"{(184 - 128) * 42 * lic.unit_price:,.0f} USD a year less" in w.text
    assert w.severity == "warning" and w.field == "platform.server_id"


def test_a_host_whose_cores_its_primaries_fill_raises_nothing(size_once: SizeOnce) -> None:
    r = size_once(sample("retail-dw-gen5"))  # 48 cores, 16 primaries: study 002's reference host
    assert r.design.primary_segments_per_host == 16 and not _idle(r)


def test_no_warning_without_per_core_licences(catalog: HardwareCatalog) -> None:
    s = sample("retail-dw-gen5", platform={"server_id": R670, "drive_id": NVME, "nic_id": None})
    per_host = [lic.id for lic in catalog.licences if lic.metric != "core"]
    r = size(s.model_copy(update={"commercial": s.commercial.model_copy(
        update={"licence_ids": per_host[:1]})}), catalog)
    assert not per_core_licences(r.bom, catalog) and not _idle(r)


def test_a_licence_minimum_per_cpu_is_not_called_idle(catalog: HardwareCatalog, size_once: SizeOnce) -> None:
    """vSphere counts 16 cores per CPU whatever the CPU: on study 000's 2 x 8-core hosts (the study's 8 primaries,
    one instance per disk, where the cores take 32 x 16 / 48 = 10) only the Greenplum licence's 2 cores a host are
    idle (13 at work, rounded up per socket), not vSphere's 16-core floor."""
    r = size_once(sample("study-000-vsphere"))
    lic = {lic.applies_to: ln for ln, lic in per_core_licences(r.bom, catalog)}
    assert set(lic) == {"vsphere", "greenplum"}
    [w] = _idle(r)
    hosts = r.design.segment_hosts
    assert "keep 13 at work: 2 licensed cores per host" in w.text
    assert f"{2 * hosts * lic['greenplum'].unit_price:,.0f} USD a year" in w.text


def test_the_cpu_named_is_the_smallest_that_holds_the_work(catalog: HardwareCatalog, size_once: SizeOnce) -> None:
    r = size_once(sample("retail-dw-gen5"))  # 1 x EPYC 9454P, 48 cores
    seg = next(h for h in r.design.hosts if h.role == "segment host")
    work = [Work("segment host", seg.count, 10.0, "its work")]  # 10 of 48 cores busy
    [w] = idle_core_warnings(r, work, catalog)
    assert "38 licensed cores per host" in w.text
    assert re.search(r"EPYC 91[23]\d \(16 cores\)", w.text), w.text  # the catalog's AMD CPUs of 16 cores
    assert idle_core_warnings(r, [dataclasses.replace(work[0], busy_cores=48.0)], catalog) == []

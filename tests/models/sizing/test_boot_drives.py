"""Boot drives: the smallest one picked is a figure with provenance (vendor_docs.json), stated in the rationale."""

from __future__ import annotations

import dataclasses

import pytest

from models.calibration_data import figure, point
from models.hardware import Drive, HardwareCatalog, Server
from models.references import unresolved
from models.scenario import Commercial
from models.sizing.infrastructure import HostGroup, Infrastructure, boot_lines, boot_min_tb
from models.sizing.result import BomLine


def _m2(catalog: HardwareCatalog) -> Drive:
    return next(d for d in catalog.drives if d.form_factor == "M.2")


def _boot(catalog: HardwareCatalog, drives: list[Drive]) -> Infrastructure:
    server = next(s for s in catalog.servers if s.os_drives == 2)
    others = [p for p in catalog.parts if not isinstance(p, Drive)]
    out = Infrastructure()
    group = HostGroup("segment host", server, 3, server.max_w, 2, 100.0)
    boot_lines([group], HardwareCatalog((*others, *drives), catalog.rates), Commercial(), out)
    return out


def _drives(out: Infrastructure) -> list[BomLine]:
    """The boot drive lines (a Dell server's M.2 pair also gets its boot module's line)."""
    return [ln for ln in out.lines if ln.kind == "boot-drive"]


def test_the_boot_minimum_is_the_documented_figure() -> None:
    assert boot_min_tb() == figure("vendor_docs", "boot_drive_min_tb")
    source = point("vendor_docs", "boot_drive_min_tb").source
    assert source.kind == "derived" and "esxi_system_storage_max_gb" in (source.derivation or "")
    # the boot device holds the ESXi system volumes the guide sizes
    assert boot_min_tb() * 1000 > figure("vendor_docs", "esxi_system_storage_max_gb")


def test_a_drive_below_the_minimum_is_never_the_boot_drive_even_when_cheaper(catalog: HardwareCatalog) -> None:
    base = _m2(catalog)
    small = dataclasses.replace(base, id="m2-small", capacity_tb=round(boot_min_tb() - 0.001, 6), price=1.0)
    enough = dataclasses.replace(base, id="m2-enough", capacity_tb=boot_min_tb(), price=500.0)
    out = _boot(catalog, [small, enough])
    assert {ln.part_id for ln in _drives(out)} == {"m2-enough"}
    assert all(ln.qty_per_host == 2 for ln in _drives(out))
    why = next(r for r in out.rationale if r.decision == "Boot drives")
    assert f"{boot_min_tb() * 1000:g} GB" in why.text
    assert f"{figure('vendor_docs', 'esxi_system_storage_max_gb'):g} GB" in why.text
    assert not unresolved(why.source)  # the guide is in the reference list, not a file name


def test_no_drive_at_the_minimum_warns_with_the_figure_and_prices_none(catalog: HardwareCatalog) -> None:
    small = dataclasses.replace(_m2(catalog), id="m2-small", capacity_tb=boot_min_tb() / 2)
    out = _boot(catalog, [small])
    assert out.lines == []
    (w,) = out.warnings
    assert w.code == "no-boot-drive" and w.field == "commercial.boot_drive_id"
    assert f"{boot_min_tb() * 1000:g} GB" in w.text


def test_a_named_boot_drive_is_taken_whatever_its_size(catalog: HardwareCatalog) -> None:
    small = dataclasses.replace(_m2(catalog), id="m2-small", capacity_tb=boot_min_tb() / 2)
    server: Server = next(s for s in catalog.servers if s.os_drives == 2)
    out = Infrastructure()
    cat = HardwareCatalog((*catalog.parts, small), catalog.rates)
    boot_lines([HostGroup("segment host", server, 1, server.max_w, 2, 100.0)], cat,
               Commercial(boot_drive_id="m2-small"), out)
    assert [ln.part_id for ln in _drives(out)] == ["m2-small"]
    assert "GB or more" not in out.rationale[0].text  # the minimum is not the reason for a drive the user named


def test_the_rule_follows_the_figure_not_a_copy_of_it(
        catalog: HardwareCatalog, monkeypatch: pytest.MonkeyPatch) -> None:
    import models.sizing.infrastructure as infrastructure

    real = infrastructure.figure
    monkeypatch.setattr(infrastructure, "figure", lambda ds, pid: 0.5 if pid == "boot_drive_min_tb" else real(ds, pid))
    base = _m2(catalog)
    out = _boot(catalog, [dataclasses.replace(base, id="m2-480", capacity_tb=0.48, price=1.0),
                          dataclasses.replace(base, id="m2-500", capacity_tb=0.5, price=900.0)])
    assert {ln.part_id for ln in _drives(out)} == {"m2-500"}
    assert "500 GB or more" in out.rationale[0].text


@pytest.mark.parametrize("hypervisor", [True, False])
def test_the_reason_names_the_os_the_boot_drive_carries(catalog: HardwareCatalog, hypervisor: bool) -> None:
    """A bare-metal host boots Linux: its reason says so, rather than sizing it for ESXi volumes it never holds."""
    server = next(s for s in catalog.servers if s.os_drives == 2)
    out = Infrastructure()
    boot_lines([HostGroup("segment host", server, 2, server.max_w, 2, 100.0)], catalog, Commercial(), out,
               hypervisor)
    why = next(r for r in out.rationale if r.decision == "Boot drives").text
    assert ("Linux install" in why) is not hypervisor
    assert f"{boot_min_tb() * 1000:g} GB or more" in why


def test_a_bare_metal_design_says_linux_and_a_vsphere_one_esxi(catalog: HardwareCatalog) -> None:
    import json
    from pathlib import Path

    from models.scenario import Scenario
    from models.sizing.engine import size  # whole path: the deployment reaches the reason

    samples = Path(__file__).resolve().parents[3] / "resources" / "samples"
    texts = {}
    for name in ("retail-dw-gen5", "pg-consolidation"):
        sc = Scenario.model_validate(json.loads((samples / f"{name}.json").read_text(encoding="utf-8")))
        why = next(r for r in size(sc, catalog).rationale if r.decision == "Boot drives").text
        texts[sc.platform.deployment] = why
    assert "Linux install" in texts["bare-metal"] and "Linux install" not in texts["vsphere"]

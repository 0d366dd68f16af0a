"""Fonts shipped and used with a fallback for CJK; markup escaped; the host drawing from HostLayout."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from reportlab.graphics.shapes import Drawing, Group, String

from app.export import fonts as fonts_mod
from app.export.fonts import FALLBACK, markup, report_fonts, runs, shipped_dir, string_width
from app.export.host_drawing import host_drawing
from app.export.report import render_report
from models.scenario import Scenario
from models.sizing.result import HostLayout, SizingResult, VmLayout
from tests.app.export.conftest import pdf_text


def test_fonts_and_their_licenses_ship_with_the_app() -> None:
    d = shipped_dir()
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DroidSansFallback.ttf", "LICENSE-DejaVu.md",
                 "LICENSE-DroidSansFallback.md"):
        assert (d / name).is_file(), name
    f = report_fonts()
    assert f.embedded and f.cjk_path is not None and f.cjk_path.parent == d


def test_markup_escapes_and_switches_font_only_for_uncovered_letters() -> None:
    assert markup("Müller & Søn <DW>") == "Müller &amp; Søn &lt;DW&gt;"
    m = markup("Łódź 東京 <b>")
    assert m.startswith("Łódź ") and f'<font name="{FALLBACK}">東京</font>' in m and m.endswith("&lt;b&gt;")
    assert [name for name, _ in runs("a東b", "RefarchSans")] == ["RefarchSans", FALLBACK, "RefarchSans"]


def _strings(g: Group | Drawing) -> Iterator[String]:
    for item in g.contents:
        if isinstance(item, String):
            yield item
        elif isinstance(item, Group):
            yield from _strings(item)


def test_drawing_shows_each_numa_node_and_vm_within_the_width() -> None:
    vms = tuple(VmLayout(n, 12, 94.0, 3, primary_segments=2, mirror_segments=2) for n in range(8))
    host = HostLayout("segment host", 4, "some-server", 2, 4, 12, 768.0, 24, "some-drive", "raid5", vms, 2, 25.0)
    f = report_fonts()
    width = 480.0
    d = host_drawing(host, "vsphere", width, f)
    texts = list(_strings(d))
    joined = " ".join(t.text for t in texts)
    for n in range(8):
        assert f"NUMA {n}" in joined and f"VM {n + 1}" in joined
    assert "2P + 2M" in joined and "…" not in joined
    assert "Socket 1" in joined and "24 × some-drive" in joined and "2 × 25 GbE ports" in joined
    for t in texts:  # nothing drawn past the right edge
        assert t.x + string_width(t.text, t.fontName, t.fontSize, f) <= width + 0.5, t.text


def test_bare_metal_host_draws_the_os_across_the_host() -> None:
    host = HostLayout("coordinator host", 2, "srv", 1, 2, 24, 512.0, 2, "drv", "raid1",
                      (VmLayout(None, 48, 512.0, 2),), 2, 100.0)
    joined = " ".join(t.text for t in _strings(host_drawing(host, "bare-metal", 480, report_fonts())))
    assert "Bare-metal OS" in joined and "48 cores" in joined and "RAID 1" in joined


def test_without_any_ttf_the_report_still_renders(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                  sized: object) -> None:
    s, r = sized("gp-oltp.json")  # type: ignore[operator]
    assert isinstance(s, Scenario) and isinstance(r, SizingResult)
    monkeypatch.setattr(fonts_mod, "find_font", lambda names, dirs=None: None)
    report_fonts.cache_clear()
    try:
        f = report_fonts()
        assert not f.embedded and f.regular == "Helvetica"
        out = tmp_path / "r.pdf"
        render_report([r], [s], out)
        assert f"{r.totals.capex:,.2f}" in pdf_text(out)
    finally:
        report_fonts.cache_clear()

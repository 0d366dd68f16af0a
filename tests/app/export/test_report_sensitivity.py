"""The report's sensitivity section: the tornado's whole-host ends beside its continuous ends (Greenplum), or the
statement that every end is whole (SAP IQ), from the same view rows the window and the CLI show."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from app.export import render_report
from app.services.report import size_for_report
from app.views.sensitivity import sensitivity_view
from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.sizing.result import SizingResult
from tests.app.export.conftest import flat, pdf_text

Sized = Callable[[str], tuple[Scenario, SizingResult]]


def test_the_service_adds_each_designs_tornado_only_when_asked(catalog: HardwareCatalog, sized: Sized) -> None:
    s, _ = sized("study-000-vsphere.json")
    iq, _ = sized("sap-iq.json")
    assert size_for_report([s], catalog, with_growth=False).sensitivity is None
    got = size_for_report([s, iq], catalog, with_growth=False, with_sensitivity=True).sensitivity
    assert got is not None
    gp_view, iq_view = got
    assert gp_view is not None and iq_view is not None
    assert gp_view.continuous and gp_view.rows and all(r.rounding == "continuous" for r in gp_view.rows)
    assert not iq_view.continuous and all(r.rounding == "whole" for r in iq_view.rows)


def test_the_pdf_prints_the_continuous_ends_beside_the_whole_ones(tmp_path: Path, catalog: HardwareCatalog,
                                                                 sized: Sized) -> None:
    from models.whatif import sensitivity

    s, r = sized("study-000-vsphere.json")
    iq, ri = sized("sap-iq.json")
    views = [sensitivity_view(r, sensitivity(s, catalog, 0.25, r), 25.0),
             sensitivity_view(ri, sensitivity(iq, catalog, 0.25, ri), 25.0)]
    out = tmp_path / "tornado.pdf"
    render_report([r, ri], [s, iq], out, sensitivity=views)
    text = flat(pdf_text(out))
    gp_part, iq_part = text.split("Sensitivity")[-2:]  # each option's section, in order (after the contents)
    gp = views[0]
    for row in gp.rows:  # every row's whole and continuous ends and counts, as the view formats them
        for cell in (row.low_main, row.high_main, row.low_continuous, row.high_continuous, row.hosts_continuous):
            assert cell in gp_part, (row.input, cell)
    assert "Continuous −25 %" in gp_part
    assert f"{gp.base_continuous} s on {gp.base_hosts_continuous} continuous" in gp_part
    assert "IQ nodes are whole: every end is a design of whole IQ nodes" in iq_part
    assert "Continuous" not in iq_part.split("IQ nodes are whole")[0]

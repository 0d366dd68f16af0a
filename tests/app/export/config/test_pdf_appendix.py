"""The PDF report's configuration appendix states every value the design sets, and the files refarch config writes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from app.export import render_report
from app.export.config import build_config
from app.export.config.design_values import fmt_value
from tests.app.export.conftest import flat, pdf_text


def test_appendix_lists_every_setting_and_file(sized: Callable, tmp_path: Path) -> None:
    scenario, result = sized("sap-iq.json")
    out = tmp_path / "r.pdf"
    render_report([result], [scenario], out, cards=[])
    text = flat(pdf_text(out))
    appendix = text[text.index("Appendix: deployment configuration"):]
    for g in result.design.settings:
        for s in g.settings:
            assert s.name in appendix and fmt_value(s.value) in appendix, s.name
    for f in build_config(result).files:
        assert f.path in appendix.replace(" ", ""), f.path

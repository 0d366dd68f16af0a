"""The rows of a design and of a comparison are built once and rendered as they are by `refarch size` and
`refarch compare` (text) and by the PDF: every row's label with its value, and nothing the rows do not hold.
(The window's rendering is checked in tests/app/gui/test_rows_rendered.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.cli.commands.compare import _table as compare_table
from app.cli.commands.size import render_text
from app.export import render_report
from app.views.compare import chart_series, compare_rows
from app.views.design import database_rows, design_rows
from models.hardware import HardwareCatalog
from models.sizing.engine import size
from tests.app.export.conftest import flat, long_pdf_text
from tests.models.sizing.conftest import sample

SAMPLES = ("retail-dw-gen5", "pg-consolidation", "sap-iq")


def _tight(text: str) -> str:
    """Without spaces: text extraction drops some ("0%" for "0 %") and a wrapped cell adds some."""
    return "".join(text.split())


@pytest.mark.parametrize("name", SAMPLES)
def test_the_cli_prints_the_design_rows_and_only_those(seed: HardwareCatalog, name: str) -> None:
    r = size(sample(name), seed)
    rows = design_rows(r)
    text = render_text(r)
    block = text.split("\nDesign\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert [re.split(r"\s{2,}", line.strip(), maxsplit=1) for line in block] == [[f.label, f.text] for f in rows]


def test_the_pdf_prints_every_design_row(seed: HardwareCatalog, tmp_path: Path) -> None:
    s = sample("pg-consolidation")
    r = size(s, seed)
    out = tmp_path / "design.pdf"
    render_report([r], [s], out, cards=[])
    words = flat(long_pdf_text(out))
    design = _tight(words.split("Roles and hosts", 1)[1].split("Bill of materials", 1)[0])
    for f in design_rows(r):
        assert _tight(f"{f.label} {f.text}") in design, f.key


def test_cli_and_pdf_print_the_same_compare_cells(seed: HardwareCatalog, tmp_path: Path) -> None:
    pairs = [(s, size(s, seed)) for s in (sample("retail-dw-gen5"), sample("retail-dw-dual-socket-sas"))]
    results = [r for _, r in pairs]
    rows = compare_rows(results)
    names = [r.scenario_name for r in results]
    table = compare_table(names, rows).splitlines()[2:]
    assert len(table) == len(rows)
    for line, row in zip(table, rows, strict=True):
        cells = re.split(r"\s{2,}", line.strip())
        assert cells[0] == row.heading
        for i in range(2):
            rng, delta = row.range_text(i), row.delta_text(i)
            assert cells[1 + i] == (row.text(i) + (f" [{rng}]" if rng else "") + (f" ({delta})" if delta else "")
                                    + (" *" if row.winner == i else ""))
    out = tmp_path / "compare.pdf"
    render_report(results, [s for s, _ in pairs], out, cards=[])
    section = _tight(flat(long_pdf_text(out)).split("Options compared", 2)[2])
    for row in rows:  # a cell's lines read across the row: the figures, then the ranges, then the delta
        lines = [row.text(0) + (" ✓" if row.winner == 0 else ""), row.text(1) + (" ✓" if row.winner == 1 else ""),
                 row.range_text(0), row.range_text(1), row.delta_text(1)]
        assert _tight(" ".join(lines)) in section, row.key
        assert _tight(row.label) in section
    for series in chart_series(rows):  # the chart's panels are the rows marked for it, headed as in the table
        assert _tight(series.label) in section


def test_the_cli_prints_the_database_rows(seed: HardwareCatalog) -> None:
    r = size(sample("pg-consolidation"), seed)
    block = render_text(r).split("\nDatabases (", 1)[1].split("\n\n", 1)[0].splitlines()[3:]  # title, head, rule
    assert [tuple(re.split(r"\s{2,}", line.strip())) for line in block] == [
        row.cells() for row in database_rows(r)]

"""The report as DOCX and the short deck as PPTX: opened with python-docx and python-pptx, they hold the rows the
PDF renders (design facts, key figures, estimates, BOM totals, racks), money with its currency; a failed write
leaves the targets as they were and no temporary file."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from docx import Document
from pptx import Presentation

from app.cli.main import main
from app.export.bom import bom_table
from app.export.docx_report import render_docx
from app.export.pptx_deck import render_pptx
from app.formatting import bare, money, money_figure
from app.views.design import design_rows
from app.views.ownership import ownership
from app.views.summary import racks_as_shown
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.vocabulary import metric_label
from tests.app.export.conftest import SAMPLES

Sized = Callable[[str], tuple[Scenario, SizingResult]]


def docx_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    """The document's paragraphs, and every table row as its cells' text."""
    doc = Document(str(path))
    rows = [[c.text for c in row.cells] for t in doc.tables for row in t.rows]
    return [p.text for p in doc.paragraphs], rows


def pptx_slides(path: Path) -> list[tuple[str, list[list[str]]]]:
    """Per slide: all its text boxes joined, and its table rows as cell text."""
    out = []
    for slide in Presentation(str(path)).slides:
        texts, rows = [], []
        for shape in slide.shapes:
            if shape.has_text_frame:
                texts.append(shape.text_frame.text)
            if shape.has_table:
                rows += [[c.text for c in r.cells] for r in shape.table.rows]
        out.append(("\n".join(texts), rows))
    return out


def whole(amount: float) -> str:
    """A money figure in whole units, written here from the engine's number rather than by the renderers' helper."""
    return f"{Decimal(str(amount)):,.0f}"


@pytest.mark.parametrize("sample", ["retail-dw-gen5.json", "pg-consolidation.json"])
def test_docx_holds_the_design_rows_key_figures_estimates_and_bom(sized: Sized, tmp_path: Path, sample: str) -> None:
    s, r = sized(sample)
    path = tmp_path / "report.docx"
    render_docx([r], [s], path)
    paragraphs, rows = docx_rows(path)
    cur = r.totals.currency
    assert paragraphs[0] == s.name  # the cover's title
    assert ["Customer", s.customer] in rows
    for fact in design_rows(r):  # every fact the PDF's design section prints, label beside value
        assert [fact.label, fact.text] in rows, fact.key
    quote = ownership(r).quote_clause  # the parts with no price yet, beside the capex that leaves them out
    assert ["Capex (one-time)", f"{whole(r.totals.capex)} {cur}", quote or f"{len(r.bom)} BOM lines"] in rows
    for name, e in r.estimates.items():
        label = metric_label(name) + (" (main)" if name == r.main_metric else "")
        row = next(x for x in rows if x[0] == label and len(x) == 7)  # the estimates table: 7 columns
        assert row[1:4] == [bare(e.p10, e.unit), bare(e.p50, e.unit), bare(e.p90, e.unit)], name
    table = bom_table(r, s.customer)
    assert [f"Amount ({cur})"] == [x[2] for x in rows if x[0] == "Group"]
    totals = {x[0]: x[2] for x in rows if x[0].startswith(("One-time total", "Per-year total", "BOM total"))}
    assert totals["One-time total (capex)"] == f"{Decimal(str(r.totals.capex)):,.2f}"
    assert totals["Per-year total (subscriptions and support)"] == f"{Decimal(str(r.totals.recurring_per_year)):,.2f}"
    assert totals["BOM total, first year"] == money_figure(table.grand_total)
    groups = {x[0]: x[1] for x in rows if x[0] and x[0][:1].upper() + x[0][1:] in
              {g[:1].upper() + g[1:] for g in (b.group for b in table.subtotals)}}
    assert sum(int(n.split()[0]) for n in groups.values()) == len(r.bom)  # every BOM line in one group
    for w in r.warnings:
        assert any(p.startswith(w.title) for p in paragraphs), w.code
    assert [p for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_workload_only_one_option_runs_has_no_best_column(sized: Sized, tmp_path: Path) -> None:
    (s1, r1), (s2, r2) = sized("retail-dw-gen5.json"), sized("pg-consolidation.json")
    render_docx([r1, r2], [s1, s2], tmp_path / "r.docx")
    paragraphs, rows = docx_rows(tmp_path / "r.docx")
    assert ["", "A"] in rows and ["", "B"] in rows  # the heads by letter: no "Best" to name
    assert f"A: {s1.name}" in paragraphs and f"B: {s2.name}" in paragraphs  # each option named above its table
    assert not any("no clear winner" in cell for row in rows for cell in row)


def test_pptx_compares_the_options_and_shows_each_ones_figures_racks_and_bom(sized: Sized, tmp_path: Path) -> None:
    (s1, r1), (s2, r2) = sized("retail-dw-gen5.json"), sized("retail-dw-dual-socket-sas.json")
    path = tmp_path / "deck.pptx"
    render_pptx([r1, r2], [s1, s2], path, title="Two options")
    slides = pptx_slides(path)
    cover = slides[0][0]
    assert "Two options" in cover and f"Option A: {s1.name}" in cover and f"Option B: {s2.name}" in cover
    assert s1.customer in cover
    compared = [row for text, rows in slides if "Options compared" in text for row in rows]
    capex = next(row for row in compared if row[0].startswith("Capex"))
    assert capex[0] == f"Capex ({r1.totals.currency})"
    assert capex[1:3] == [whole(r1.totals.capex), whole(r2.totals.capex)]
    assert not any("per 1,000" in row[0] for row in compared)  # the deck keeps the totals, the report the rates
    for letter, (s, r) in zip("AB", ((s1, r1), (s2, r2)), strict=True):
        own = [(text, rows) for text, rows in slides if text.startswith(f"Option {letter}: {s.name}")]
        kpis = next(text for text, _ in own if "key figures" in text)
        assert money(r.totals.capex, r.totals.currency, cents=False) in kpis
        main = r.estimates[r.main_metric]
        estimate = next(row for text, rows in own if "key figures" in text for row in rows if "(main)" in row[0])
        assert estimate[1:4] == [bare(main.p10, main.unit), bare(main.p50, main.unit), bare(main.p90, main.unit)]
        drawn = "\n".join(text for text, _ in own if ": racks" in text)
        for rack in r.racks:  # each rack's head, and a box per slot labelled with its role and the part's model
            assert f"{rack.name} · {rack.u_used}/{rack.u_total} U" in drawn
        # each role as the release names it (Greenplum 6's master host)
        slots = [x for x in (sl for rack in racks_as_shown(r) for sl in rack.slots) if x.kind == "server"]
        assert sum(drawn.count(f"\n{x.role}: ") for x in {x.role: x for x in slots}.values()) == len(slots)
        bom = [row for text, rows in own if "bill of materials" in text for row in rows]
        assert ["One-time total (capex)", "", f"{Decimal(str(r.totals.capex)):,.2f}"] in bom


@pytest.fixture
def old_targets(tmp_path: Path) -> Iterator[dict[Path, bytes]]:
    targets = {tmp_path / name: f"old {name}".encode() for name in ("r.pdf", "r.docx", "r.pptx")}
    for p, data in targets.items():
        p.write_bytes(data)
    yield targets


def test_a_failed_deck_leaves_every_target_as_it_was(sized: Sized, tmp_path: Path, old_targets: dict[Path, bytes],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The DOCX and the PPTX are staged with the PDF: the deck failing last leaves the PDF and DOCX untouched."""
    from app.services import report
    from app.services.errors import ServiceError

    s, r = sized("retail-dw-gen5.json")
    monkeypatch.setattr("app.export.pptx_deck.Presentation", _disk_full)
    inputs = report.ReportInputs([s], [r], None, [[]])
    with pytest.raises(ServiceError) as caught:
        report.write_report(inputs, tmp_path / "r.pdf", docx=tmp_path / "r.docx", pptx=tmp_path / "r.pptx")
    assert [str(p) for p in caught.value.problems] == [f"{tmp_path / 'r.pptx'}: disk full"]
    assert {p: p.read_bytes() for p in old_targets} == old_targets
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.docx", "r.pdf", "r.pptx"]


def test_a_failed_docx_save_leaves_no_file(sized: Sized, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s, r = sized("retail-dw-gen5.json")
    monkeypatch.setattr("docx.document.Document.save", lambda self, path: _disk_full())
    with pytest.raises(OSError, match="disk full"):
        render_docx([r], [s], tmp_path / "new.docx")
    assert list(tmp_path.iterdir()) == []


def _disk_full(*_: object) -> None:
    raise OSError("disk full")


def test_cli_writes_the_docx_and_pptx_beside_the_pdf(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pdf, docx_path, pptx_path = tmp_path / "r.pdf", tmp_path / "r.docx", tmp_path / "r.pptx"
    code = main(["--db", f"sqlite:///{tmp_path / 'c.sqlite'}", "report", str(SAMPLES / "sap-iq.json"), "-o", str(pdf),
                 "--docx", str(docx_path), "--pptx", str(pptx_path), "--no-growth"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.splitlines() == [f"wrote {pdf}", f"wrote {docx_path}", f"wrote {pptx_path}"]
    paragraphs, _ = docx_rows(docx_path)
    assert "Bill of materials" in paragraphs
    assert any("key figures" in text for text, _ in pptx_slides(pptx_path))
    code = main(["report", str(SAMPLES / "sap-iq.json"), "-o", str(pdf), "--docx", str(pdf)])
    assert code == 2
    assert "must be different files" in capsys.readouterr().err


def test_the_window_s_export_names_the_file_it_cannot_write(tmp_path: Path) -> None:
    from app.services import report
    from app.services.errors import ServiceError
    from catalog.seed import seed_catalog
    from models.scenario import load_scenario

    target = tmp_path / "missing" / "deck.pptx"
    with pytest.raises(ServiceError) as caught:
        report.export_editable([load_scenario(SAMPLES / "sap-iq.json")], seed_catalog(), target, "pptx")
    assert [str(p) for p in caught.value.problems] == [f"{target}: folder {target.parent} does not exist"]
    assert not target.parent.exists()

"""The customer and internal editions of a report (`refarch report --audience`, File > Export > Edition): the
customer's PDF and DOCX hold no catalog id, no model id, no instruction to the team and only the models its designs
use; the internal edition keeps all of them. Judged on a Greenplum OLTP design of single-row updates on a server
whose prices are old and whose PCIe slot count the catalog lacks (two warnings with an internal part)."""

from __future__ import annotations

from pathlib import Path

import pytest
from docx import Document

from app.export import render_report
from app.export.docx_report import render_docx
from models.hardware import HardwareCatalog
from models.perf.cards import all_cards
from models.scenario import Scenario
from models.sizing.engine import size
from models.sizing.result import SizingResult
from tests.app.export.conftest import flat, pdf_text, sample_json, scenario_from

SERVER = "dell-r750-2x-gold-6342-24sas"  # priced in 2023 (older than the 12-month limit), no PCIe slot count


@pytest.fixture(scope="module")
def design(catalog: HardwareCatalog) -> tuple[Scenario, SizingResult]:
    data = sample_json("gp-oltp.json")
    data["workload"].update(mix="update", target_tps=3000)
    data["platform"].update(server_id=SERVER)
    s = scenario_from(data)
    return s, size(s, catalog)


def docx_text(path: Path) -> str:
    doc = Document(str(path))
    cells = [c.text for t in doc.tables for row in t.rows for c in row.cells]
    return "\n".join([p.text for p in doc.paragraphs] + cells)


def test_the_customer_edition_leaves_out_ids_instructions_and_unused_models(
        design: tuple[Scenario, SizingResult], tmp_path: Path) -> None:
    s, r = design
    internal_parts = {w.code: w.internal for w in r.warnings if w.internal}
    assert {"nic-slots-unknown", "price-old"} <= set(internal_parts)  # the case this test is about
    texts = {}
    for audience in ("customer", "internal"):
        render_report([r], [s], tmp_path / f"{audience}.pdf", audience=audience)
        render_docx([r], [s], tmp_path / f"{audience}.docx", audience=audience)
        texts[audience] = (flat(pdf_text(tmp_path / f"{audience}.pdf")), flat(docx_text(tmp_path / f"{audience}.docx")))
    part_ids = {ln.part_id for ln in r.bom}
    model_ids = {c.name for c in all_cards()}
    (pdf, docx), (pdf_in, docx_in) = texts["customer"], texts["internal"]
    for text in (pdf, docx):
        assert not [i for i in part_ids | model_ids if i in text]
        assert not [x for x in internal_parts.values() if flat(x) in text]
        assert "Review these with the customer" not in text and "refarch catalog seed" not in text
    # the appendix: the update curve and the power model; no analytics, PostgreSQL or SAP IQ model
    appendix = pdf[pdf.index("Appendix: models"):pdf.index("Appendix: deployment")]
    assert "Scalability curve, Greenplum 6, single-row updates" in appendix and "Power and energy" in appendix
    from models.perf.cards import TITLES

    others = [t for name, t in TITLES.items() if name not in ("usl-gp6-update", "gp-cost-power",
                                                                "gp6-oltp-through-size")]
    assert not [t for t in others if t in appendix]
    assert "SAP IQ" not in appendix and "PostgreSQL" not in appendix
    # the internal edition keeps every one of them
    assert all(i in pdf_in.replace(" ", "") for i in part_ids), "a BOM line without its catalog id"
    assert all(m in pdf_in for m in model_ids) and "Review these with the customer before quoting" in pdf_in
    assert all(flat(x) in pdf_in and flat(x) in docx_in for x in internal_parts.values())
    assert SERVER in docx_in and SERVER not in docx


def test_every_model_has_a_title_a_customer_reads() -> None:
    """A new card without a title would print its id in the customer's appendix."""
    from models.perf.cards import TITLES

    assert {c.name for c in all_cards()} == set(TITLES)
    assert not [t for t in TITLES.values() if any(c.name in t for c in all_cards())]


def test_the_cli_writes_the_customer_edition_unless_told_otherwise(tmp_path: Path) -> None:
    from app.cli.main import main

    scenario = tmp_path / "s.json"
    scenario.write_text((Path(__file__).resolve().parents[3] / "resources" / "samples" /
                         "retail-dw-dual-socket-sas.json").read_text(encoding="utf-8"), encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'cat.db'}"
    assert main(["--db", db, "report", str(scenario), "-o", str(tmp_path / "c.pdf"), "--no-growth"]) == 0
    assert main(["--db", db, "report", str(scenario), "-o", str(tmp_path / "i.pdf"), "--no-growth",
                 "--audience", "internal"]) == 0
    customer, internal = flat(pdf_text(tmp_path / "c.pdf")), flat(pdf_text(tmp_path / "i.pdf"))
    assert SERVER not in customer.replace(" ", "") and SERVER in internal.replace(" ", "")
    with pytest.raises(SystemExit) as bad:
        main(["--db", db, "report", str(scenario), "-o", str(tmp_path / "x.pdf"), "--audience", "finance"])
    assert bad.value.code == 2


def test_the_window_s_export_writes_the_edition_chosen(design: tuple[Scenario, SizingResult],
                                                      catalog: HardwareCatalog, tmp_path: Path) -> None:
    """File > Export > Edition sets the exporter's audience, which the export use case takes (the Word report
    here: the customer's names the server by name only)."""
    import threading

    from app.gui.export_actions import run_export

    s, _ = design
    for audience in ("customer", "internal"):
        path = tmp_path / f"{audience}.docx"
        run_export("docx", [s], catalog, path, threading.Event(), lambda d, t: None, audience)
        assert (SERVER in docx_text(path)) == (audience == "internal")


def test_large_bom_figures_print_on_one_line(design: tuple[Scenario, SizingResult], tmp_path: Path) -> None:
    """A quantity of 13,984 and a yearly line of 11.5 M (a per-core subscription on a large cluster) fit their
    columns: read back line by line, each figure is whole (it printed "1398" over "4" and "11,507,940.1" over
    "0 /yr")."""
    import dataclasses
    import shutil
    import subprocess

    s, r = design
    i = next(k for k, ln in enumerate(r.bom) if ln.kind == "licence" and ln.recurring)
    big = dataclasses.replace(r.bom[i], qty_per_host=13_984, hosts=1, unit_price=822.93, list_unit_price=822.93)
    r2 = dataclasses.replace(r, bom=(*r.bom[:i], big, *r.bom[i + 1:]))
    render_report([r2], [s], tmp_path / "big.pdf", audience="customer")
    exe = shutil.which("pdftotext")
    if exe is None:
        lines = pdf_text(tmp_path / "big.pdf").splitlines()
    else:
        lines = subprocess.run([exe, "-layout", str(tmp_path / "big.pdf"), "-"], capture_output=True, text=True,
                               check=True).stdout.splitlines()
    row = [ln for ln in lines if "13,984" in ln]
    assert row and f"{13_984 * 82293 / 100:,.2f} /yr" in row[0], row  # 11,507,853.12

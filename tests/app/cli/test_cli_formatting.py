"""The CLI's text prints money the way app.formatting (shared with the window and the PDF) writes it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main
from app.formatting import money, priced_amount

SAMPLES = Path(__file__).resolve().parents[3] / "resources" / "samples"


@pytest.mark.parametrize("sample", ["retail-dw-gen5.json", "pg-consolidation.json"])
def test_size_text_shows_the_bom_total_as_app_formatting_writes_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, sample: str
) -> None:
    db = f"sqlite:///{tmp_path / 'catalog.sqlite'}"
    assert main(["--db", db, "size", str(SAMPLES / sample), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert main(["--db", db, "size", str(SAMPLES / sample)]) == 0
    text = capsys.readouterr().out
    t = data["totals"]
    cur = t["currency"]
    assert f"(BOM {money(t['bom_total'], cur)};" in text
    assert f"Capex {money(t['capex'], cur)} " in text
    # the BOM table names the currency in its price headings, and each extended price is the shared money figure
    bom = text.split("Bill of materials\n", 1)[1]
    header = bom.splitlines()[0]
    assert f"extended ({cur})" in header and f"net ({cur})" in header
    for line in data["bom"]:  # "incl." or "on quote" for a part with no price of its own, never "0.00"
        assert priced_amount(line["extended_price"], line["price_status"]) in bom

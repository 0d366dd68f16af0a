"""Vendor quotes: matched parts take the quoted price, nothing else changes, and a bad quote writes nothing."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from openpyxl import Workbook

from catalog.errors import InvalidRowsError
from catalog.quotes import QuoteLine, match
from catalog.store import CatalogStore
from models.hardware import Accessory, Nic

WHEN = date(2026, 11, 20)


def _csv(path: Path, rows: list[str]) -> Path:
    path.write_text("Part Number,Description,Qty,Unit Price,Currency\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def _rows(store: CatalogStore) -> dict[str, dict[str, object]]:
    return {r["id"]: r for r in store.export_rows()}


def test_a_quote_overrides_exactly_the_matched_parts(seeded_store: CatalogStore, tmp_path: Path) -> None:
    before = _rows(seeded_store)
    ids = sorted(before)
    by_model = before[ids[1]]
    quote = _csv(tmp_path / "acme-q42.csv", [f"{ids[0]},whatever,3,\"1,234.50\",EUR",
                                              f",{by_model['model']},1,99.5,USD"])
    report = seeded_store.apply_quote(quote, WHEN)
    assert sorted(report.updated) == sorted([ids[0], ids[1]]) and report.unmatched == []
    after = _rows(seeded_store)
    for pid in ids:
        if pid in report.updated:
            row = after[pid]
            assert row["price_basis"] == "quote" and row["source"] == "quote acme-q42.csv 2026-11-20"
            assert row["price_as_of"] == "2026-11-20"
        else:
            assert after[pid] == before[pid]
    assert (after[ids[0]]["price"], after[ids[0]]["currency"]) == (1234.5, "EUR")
    assert (after[ids[1]]["price"], after[ids[1]]["currency"]) == (99.5, "USD")


def test_unmatched_or_bad_lines_write_nothing_and_are_listed(seeded_store: CatalogStore, tmp_path: Path) -> None:
    before = _rows(seeded_store)
    pid = sorted(before)[0]
    quote = _csv(tmp_path / "q.csv", [f"{pid},x,1,600,USD", "NOPE-1,Mystery,1,5,USD", f"{pid},x,1,abc,usd"])
    with pytest.raises(InvalidRowsError) as caught:
        seeded_store.apply_quote(quote, WHEN)
    text = "\n".join(caught.value.lines())
    assert "NOPE-1" in text and "line 4" in text and "unit_price" in text
    assert _rows(seeded_store) == before
    # the matched lines may be applied on purpose; the unmatched are still reported
    ok = _csv(tmp_path / "q2.csv", [f"{pid},x,1,600,USD", "NOPE-1,Mystery,1,5,USD"])
    report = seeded_store.apply_quote(ok, WHEN, allow_unmatched=True)
    assert report.updated == [pid] and len(report.unmatched) == 1


def test_an_xlsx_quote_reads_like_a_csv(seeded_store: CatalogStore, tmp_path: Path) -> None:
    pid = sorted(_rows(seeded_store))[-1]
    wb = Workbook()
    ws = wb.active
    path = tmp_path / "q.xlsx"
    ws.append(["SKU", "Item", "Quantity", "Net unit price", "CCY"])
    ws.append([pid, "part", 2, 1777.25, "GBP"])
    wb.save(path)
    report = seeded_store.apply_quote(path, WHEN)
    assert report.updated == [pid]
    got = _rows(seeded_store)[pid]
    assert (got["price"], got["currency"], got["price_basis"]) == (1777.25, "GBP", "quote")


def _nic(part_id: str, part_number: str) -> Nic:
    return Nic(part_id, "Intel", f"E810 {part_id}", 500.0, "USD", WHEN, "vendor datasheet", ports=2,
               speed_gbps=25, watts=12, part_number=part_number)


def test_a_quote_line_names_a_part_by_its_vendor_part_number() -> None:
    """Vendors quote their own SKUs: a line matches the one part carrying that part number (any case);
    a number two parts share matches neither, rather than guessing."""
    parts = [_nic("nic-a", "E810XXVDA2"), _nic("nic-b", "X710DA2"), _nic("nic-c", "DUP-1"), _nic("nic-d", "DUP-1")]
    lines = [QuoteLine(2, "e810xxvda2", "", 4, 410.0, "USD"), QuoteLine(3, "DUP-1", "", 1, 9.0, "USD"),
             QuoteLine(4, "nic-b", "", 1, 300.0, "USD")]
    result = match(lines, parts)
    assert [(ln.number, p.id) for ln, p in result.matched] == [(2, "nic-a"), (4, "nic-b")]
    assert [ln.number for ln in result.unmatched] == [3]


@pytest.mark.parametrize("quantity", ["inf", "NaN", "1e999999999", "-1", "2.5"])
def test_a_quantity_that_is_no_whole_count_is_a_problem_of_its_line(seeded_store: CatalogStore, tmp_path: Path,
                                                                    quantity: str) -> None:
    pid = sorted(_rows(seeded_store))[0]  # "1e999999999" used to build a billion-digit integer (a hang)
    with pytest.raises(InvalidRowsError) as caught:
        seeded_store.apply_quote(_csv(tmp_path / "q.csv", [f"{pid},x,{quantity},10,USD"]), WHEN)
    assert any("line 2" in line and "quantity" in line and quantity in line for line in caught.value.lines())


def test_a_workbook_that_unpacks_past_the_limit_is_refused_before_it_is_parsed(monkeypatch: pytest.MonkeyPatch,
                                                                               tmp_path: Path) -> None:
    import zipfile

    from catalog import quotes
    from catalog.errors import CatalogFileError

    monkeypatch.setattr(quotes, "XLSX_MAX_UNPACKED_BYTES", 1_000_000)  # the real limit is 200 MB
    path = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/worksheets/sheet1.xml", b" " * 2_000_000)  # 2 MB of XML in a 2 KB file
    assert path.stat().st_size < 10_000
    with pytest.raises(CatalogFileError, match="unpacks to 2,000,000 bytes"):
        quotes.read_quote(path)


@pytest.mark.parametrize("damage", ["truncated", "bad sheet xml", "text", "unsupported zip version"])
def test_a_damaged_workbook_is_a_file_error(tmp_path: Path, damage: str) -> None:
    import zipfile

    from catalog import quotes
    from catalog.errors import CatalogFileError

    path = tmp_path / "q.xlsx"
    wb = Workbook()
    wb.active.append(["Part Number", "Unit Price", "Currency"])
    wb.active.append(["x", 1, "USD"])
    wb.save(path)
    if damage == "truncated":
        path.write_bytes(path.read_bytes()[:-200])
    elif damage == "bad sheet xml":  # load_workbook succeeds; the sheet fails only while its rows are read
        with zipfile.ZipFile(path) as z:
            parts = {n: z.read(n) for n in z.namelist()}
        parts["xl/worksheets/sheet1.xml"] = parts["xl/worksheets/sheet1.xml"].replace(b"</sheetData>", b"<row><c")
        with zipfile.ZipFile(path, "w") as z:
            for name, body in parts.items():
                z.writestr(name, body)
    elif damage == "unsupported zip version":  # the tester's case: "internal error", exit 1
        path.write_bytes(_zip_version(path.read_bytes(), 99))
    else:
        path.write_text("Part Number,Unit Price,Currency\n")
    with pytest.raises(CatalogFileError, match="not a readable XLSX workbook"):
        quotes.read_quote(path)


def _zip_version(data: bytes, version: int) -> bytes:
    """Every entry's "version needed to extract" set to `version` (local headers and central directory)."""
    out = bytearray(data)
    for magic, offset in ((b"PK\x03\x04", 4), (b"PK\x01\x02", 6)):
        at = out.find(magic)
        while at >= 0:
            out[at + offset:at + offset + 2] = version.to_bytes(2, "little")
            at = out.find(magic, at + 4)
    return bytes(out)


def test_cli_quote_of_a_workbook_with_an_unsupported_zip_version_is_exit_2(tmp_path: Path, small_seed: Path,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli.main import main

    path = tmp_path / "q.xlsx"
    wb = Workbook()
    wb.active.append(["Part Number", "Unit Price", "Currency"])
    wb.save(path)
    path.write_bytes(_zip_version(path.read_bytes(), 99))
    assert main(["--db", f"sqlite:///{tmp_path / 'c.sqlite'}", "catalog", "quote", str(path)]) == 2
    err = capsys.readouterr().err
    assert "not a readable XLSX workbook (zip file version 9.9)" in err and "internal error" not in err


def test_a_csv_quote_with_nul_bytes_is_refused_as_not_text(tmp_path: Path) -> None:
    from catalog import quotes
    from catalog.errors import CatalogFileError

    path = tmp_path / "q.csv"
    path.write_bytes(b"Part Number,Unit Price,Currency\nx,1\x00,USD\n")
    with pytest.raises(CatalogFileError, match="NUL byte"):
        quotes.read_quote(path)


def test_a_quote_fills_the_part_number_a_part_lacks_and_keeps_a_known_one(seeded_store: CatalogStore,
                                                                          tmp_path: Path) -> None:
    """Rails the seed names without a part number (chassis-specific) take the one the vendor's quote prints; a
    power cord whose part number the seed knows keeps it, whatever a line matched by description says."""
    common = {"vendor": "Dell", "price": 0, "currency": "USD", "price_as_of": "2026-11-01",
              "source": "no public list price found", "applies_to": "Dell"}
    seeded_store.add(Accessory(id="dell-readyrails-sliding-2u", model="ReadyRails sliding rails, 2U", use="rails",
                               rack_u=2, amps=0, **_accessory(common)))
    seeded_store.add(Accessory(id="dell-power-cord-c13-c14-2m", model="Rack power cord C13 to C14, 10 A, 2 m",
                               use="power-cord", rack_u=0, amps=10, part_number="450-AADY", **_accessory(common)))
    before = _rows(seeded_store)
    rails, cord = before["dell-readyrails-sliding-2u"], before["dell-power-cord-c13-c14-2m"]
    assert rails["part_number"] == "" and cord["part_number"] == "450-AADY"
    quote = _csv(tmp_path / "dell-q7.csv", [f'770-TEST,"{rails["vendor"]} {rails["model"]}",12,41.00,USD',
                                             f'999-OTHER,"{cord["model"]}",24,9.50,USD'])
    report = seeded_store.apply_quote(quote, WHEN)
    assert sorted(report.updated) == ["dell-power-cord-c13-c14-2m", "dell-readyrails-sliding-2u"]
    after = _rows(seeded_store)
    assert (after["dell-readyrails-sliding-2u"]["part_number"], after["dell-readyrails-sliding-2u"]["price"]) == \
        ("770-TEST", 41.0)
    assert (after["dell-power-cord-c13-c14-2m"]["part_number"], after["dell-power-cord-c13-c14-2m"]["price"]) == \
        ("450-AADY", 9.5)


def _accessory(common: dict[str, object]) -> dict[str, object]:
    return {k: (date.fromisoformat(str(v)) if k == "price_as_of" else v) for k, v in common.items()}


def test_a_row_without_a_basis_whose_source_the_quote_import_wrote_reads_as_quoted(store: CatalogStore) -> None:
    """A catalog file written before price_basis existed (or edited by hand without it): the source a quote import
    writes ('quote FILE DATE') reads as a quote, a source saying estimate as one, any other as a list price."""
    base = {"vendor": "V", "model": "M", "currency": "EUR", "price_as_of": "2026-11-01", "kind": "nic", "price": 400,
            "ports": 2, "speed_gbps": 25, "watts": 12}
    store.import_rows([{**base, "id": "q", "model": "Q", "source": "quote acme-q7.csv 2026-11-20"},
                       {**base, "id": "e", "model": "E", "source": "price: estimate from a reseller"},
                       {**base, "id": "l", "model": "L", "source": "quote 12 of the vendor's list"}])
    assert [store.get(i).price_basis for i in ("q", "e", "l")] == ["quote", "estimate", "list"]

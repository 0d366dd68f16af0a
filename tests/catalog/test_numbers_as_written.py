"""Numbers as written: quotes, rates and catalog files read with their decimal separator, never guessed cell by cell;
implausible prices and rates, and absurd dates, refused with the field and the limit."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest

from app.cli.main import main
from catalog.errors import CatalogFileError, InvalidRowsError
from catalog.files import read_file
from catalog.numbers import NumberCell, detect, reading
from catalog.rates import read_rates_file
from catalog.store import CatalogStore
from models.hardware import Nic
from tests.catalog.conftest import small_seed_rows

WHEN = date(2026, 11, 20)


def _nic(part_id: str, price: float, currency: str = "EUR") -> Nic:
    return Nic(part_id, "Intel", f"E810 {part_id}", price, currency, date(2026, 1, 5), "vendor list", ports=2,
               speed_gbps=25, watts=12)


def _quote(path: Path, *lines: str) -> Path:
    path.write_text("Part Number,Qty,Unit Price,Currency\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def nics(store: CatalogStore) -> CatalogStore:
    store.import_rates([{"currency": "EUR", "usd_per_unit": 1.08, "as_of": "2026-11-01", "source": "ECB"}])
    store.add(_nic("nic-big", 1200.0))
    store.add(_nic("nic-small", 12.0))
    return store


def test_a_european_quote_is_read_as_written(nics: CatalogStore, tmp_path: Path) -> None:
    """The tester's case: "1.234,56" EUR was stored as 1.2346 and "12,50" as 1250, exit 0."""
    nics.apply_quote(_quote(tmp_path / "q.csv", 'nic-big,1,"1.234,56",EUR', 'nic-small,2,"12,50",EUR'), WHEN)
    assert nics.get("nic-big").price == 1234.56
    assert nics.get("nic-small").price == 12.5


@pytest.mark.parametrize(("cell", "price"), [('"12,50"', 12.5), ('"1.234,56"', 1234.56), ('"1 199,5"', 1199.5)])
def test_one_european_cell_alone_shows_the_file_s_separator(nics: CatalogStore, tmp_path: Path, cell: str,
                                                            price: float) -> None:
    part = "nic-small" if price < 100 else "nic-big"
    nics.apply_quote(_quote(tmp_path / "q.csv", f"{part},1,{cell},EUR"), WHEN)
    assert nics.get(part).price == price


def test_an_ambiguous_cell_is_refused_naming_line_and_column_until_decimal_is_given(nics: CatalogStore,
                                                                                  tmp_path: Path) -> None:
    quote = _quote(tmp_path / "q.csv", 'nic-big,1,"1,234",EUR', "nic-small,1,12,EUR")
    with pytest.raises(CatalogFileError) as caught:
        nics.apply_quote(quote, WHEN)
    text = str(caught.value)
    assert "line 2, column unit_price: '1,234' reads as 1234 or as 1.234" in text and "--decimal" in text
    assert nics.get("nic-big").price == 1200.0  # nothing written
    nics.apply_quote(quote, WHEN, decimal=".")
    assert nics.get("nic-big").price == 1234.0


def test_a_file_writing_numbers_two_ways_is_refused(nics: CatalogStore, tmp_path: Path) -> None:
    quote = _quote(tmp_path / "q.csv", 'nic-big,1,"1.234,56",EUR', 'nic-small,1,"1,234.56",EUR')
    with pytest.raises(CatalogFileError, match="decimal separator") as caught:
        nics.apply_quote(quote, WHEN)
    assert "line 2, column unit_price '1.234,56'" in str(caught.value)
    assert "line 3, column unit_price '1,234.56'" in str(caught.value)


def test_a_cell_against_the_given_separator_is_a_problem_of_its_line(nics: CatalogStore, tmp_path: Path) -> None:
    with pytest.raises(InvalidRowsError) as caught:
        nics.apply_quote(_quote(tmp_path / "q.csv", 'nic-small,1,"12,50",EUR'), WHEN, decimal=".")
    assert any("line 2" in p and "unit_price" in p and "'12,50'" in p for p in caught.value.lines())


def test_a_price_far_from_the_previous_one_needs_confirming(nics: CatalogStore, tmp_path: Path) -> None:
    quote = _quote(tmp_path / "q.csv", "nic-small,1,1250,EUR")  # "12,50" read the old way
    with pytest.raises(InvalidRowsError, match="--confirm-outliers") as caught:
        nics.apply_quote(quote, WHEN)
    assert "nic-small" in caught.value.lines()[0] and "10x" in caught.value.lines()[0]
    assert nics.get("nic-small").price == 12.0
    nics.apply_quote(quote, WHEN, confirm_outliers=True)
    assert nics.get("nic-small").price == 1250.0


@pytest.mark.parametrize(("part", "cell", "kept"), [("nic-small", "120", 12.0), ("nic-big", "120", 1200.0),
                                                 ("nic-small", "11,99", None)])
def test_a_digit_typed_one_place_off_needs_confirming(nics: CatalogStore, tmp_path: Path, part: str, cell: str,
                                                      kept: float | None) -> None:
    """12 EUR quoted as 120 (or 1,200 as 120) is exactly 10x: the commonest slip, asked about like 100x (it went
    through when only more than 10x was); a price just inside the factor is written."""
    quote = _quote(tmp_path / "q.csv", f'{part},1,"{cell}",EUR')
    if kept is None:
        nics.apply_quote(quote, WHEN)
        assert nics.get(part).price == 11.99
        return
    with pytest.raises(InvalidRowsError, match="--confirm-outliers") as caught:
        nics.apply_quote(quote, WHEN)
    assert part in caught.value.lines()[0] and "10x or more away" in caught.value.lines()[0]
    assert nics.get(part).price == kept


def test_a_rate_moved_by_exactly_the_factor_needs_confirming(nics: CatalogStore) -> None:
    row = {"currency": "EUR", "usd_per_unit": 3.24, "as_of": "2026-11-02", "source": "typo"}  # 3 x 1.08
    with pytest.raises(InvalidRowsError, match="--confirm-outliers") as caught:
        nics.import_rates([row])
    assert "EUR at 3.24 USD is 3x or more away" in caught.value.lines()[0]
    nics.import_rates([{**row, "usd_per_unit": 3.2}])
    assert nics.rates().rate("EUR", "USD") == 3.2


def test_a_price_beyond_any_part_needs_confirming_even_for_a_new_currency(nics: CatalogStore, tmp_path: Path) -> None:
    with pytest.raises(InvalidRowsError) as caught:
        nics.apply_quote(_quote(tmp_path / "q.csv", "nic-big,1,9000000,USD"), WHEN)
    assert "above 2,000,000 USD" in caught.value.lines()[0]


def test_a_far_rate_needs_confirming(nics: CatalogStore) -> None:
    row = {"currency": "EUR", "usd_per_unit": 108, "as_of": "2026-11-02", "source": "typo"}
    with pytest.raises(InvalidRowsError, match="--confirm-outliers") as caught:
        nics.import_rates([row])
    assert "usd_per_unit: EUR at 108 USD is 3x or more away from the previous rate 1.08" in caught.value.lines()[0]
    assert nics.rates().rate("EUR", "USD") == 1.08
    nics.import_rates([row], confirm_outliers=True)
    assert nics.rates().rate("EUR", "USD") == 108


@pytest.mark.parametrize(("value", "limit"), [("1e308", "10000"), ("1e-308", "0.000001")])
def test_absurd_rates_are_refused_with_the_field_and_the_limit(store: CatalogStore, value: str, limit: str) -> None:
    """The tester's case: rates of 1e308 and 1e-308 were accepted (a report then said "Capex 0.00 EUR")."""
    with pytest.raises(InvalidRowsError) as caught:
        store.import_rates([{"currency": "EUR", "usd_per_unit": value, "as_of": "2026-11-01", "source": "x"}])
    problem = caught.value.problems[0]
    assert problem.field == "usd_per_unit" and limit in problem.message


@pytest.mark.parametrize("when", ["0001-01-01", "9999-12-31"])
def test_absurd_dates_are_refused_with_the_field_and_the_limit(store: CatalogStore, when: str) -> None:
    """The tester's case: dates 0001-01-01 and 9999-12-31 were accepted."""
    with pytest.raises(InvalidRowsError) as caught:
        store.import_rates([{"currency": "EUR", "usd_per_unit": 1.1, "as_of": when, "source": "x"}])
    problem = caught.value.problems[0]
    assert problem.field == "as_of" and ("1990-01-01" in problem.message or "366 days" in problem.message)
    rows = small_seed_rows()
    rows[0]["price_as_of"] = when
    with pytest.raises(InvalidRowsError) as caught:
        store.import_rows(rows)
    assert [p.field for p in caught.value.problems] == ["price_as_of"]


def test_a_quote_date_out_of_range_is_refused(nics: CatalogStore, tmp_path: Path) -> None:
    with pytest.raises(InvalidRowsError, match="1990-01-01"):
        nics.apply_quote(_quote(tmp_path / "q.csv", "nic-big,1,1250,EUR"), date(1, 1, 1))


def test_catalog_csv_and_rates_files_read_their_decimal_separator(tmp_path: Path) -> None:
    rows = small_seed_rows()
    nic = next(r for r in rows if r["kind"] == "nic")
    header = list(nic)
    cells = [str(nic[c]) for c in header]
    cells[header.index("price")] = '"610,50"'
    cells[header.index("speed_gbps")] = '"25,0"'
    path = tmp_path / "parts.csv"
    path.write_text(",".join(header) + "\n" + ",".join(cells) + "\n", encoding="utf-8")
    (row,) = read_file(path)
    assert (row.values["price"], row.values["speed_gbps"]) == ("610.50", "25.0")
    cells[header.index("price")], cells[header.index("speed_gbps")] = '"1,234"', "25"
    path.write_text(",".join(header) + "\n" + ",".join(cells) + "\n", encoding="utf-8")
    with pytest.raises(CatalogFileError, match=re.escape("line 2, column price: '1,234' reads as 1234 or as 1.234")):
        read_file(path)
    assert read_file(path, ",")[0].values["price"] == "1.234"
    rates = tmp_path / "rates.csv"
    rates.write_text('currency,usd_per_unit,as_of,source\nEUR,"1,16",2026-11-01,ECB\nGBP,"1,271",2026-11-01,x\n')
    assert [r["usd_per_unit"] for r in read_rates_file(rates)] == [1.16, 1.271]
    rates.write_text('[{"currency": "EUR", "usd_per_unit": "1,160", "as_of": "2026-11-01", "source": "x"}]')
    with pytest.raises(CatalogFileError, match="row 1, column usd_per_unit"):
        read_rates_file(rates.rename(tmp_path / "rates.json"))


def test_an_export_always_shows_its_decimal_separator(store: CatalogStore, tmp_path: Path) -> None:
    """A float such as 1.234 alone would read two ways; the export writes 1.2340 so it imports again."""
    store.add(Nic("nic-x", "Intel", "X", 1.234, "USD", date(2026, 1, 5), "list", ports=2, speed_gbps=2.125,
                  watts=1.5))
    from catalog.files import render

    path = tmp_path / "x.csv"
    path.write_text(render(store.export_rows("nic"), "csv"), encoding="utf-8")
    assert "1.2340" in path.read_text() and float(read_file(path)[0].values["price"]) == 1.234


def test_reading_and_detection_rules() -> None:
    assert [reading(t) for t in ("1'234.5", "1 234,5", "-12,5", "1,2,3", "12.345.678", ".5", "1.5e3")] == \
        [".", ",", ",", "neither", ",", ".", "."]
    assert detect([NumberCell(1, "c", "1.234"), NumberCell(2, "c", "7")]).separator is None
    assert detect([NumberCell(1, "c", "1.234"), NumberCell(2, "c", "0.5")]).separator == "."


def test_cli_quote_ambiguity_is_exit_2_and_decimal_applies(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           small_seed: Path) -> None:
    db = f"sqlite:///{tmp_path / 'c.sqlite'}"
    quote = _quote(tmp_path / "q.csv", 'cx6-25g-2p,1,"1,234",USD')
    assert main(["--db", db, "catalog", "quote", str(quote), "--date", "2026-11-20"]) == 2
    err = capsys.readouterr().err
    assert "line 2, column unit_price" in err and "Traceback" not in err
    assert main(["--db", db, "catalog", "quote", str(quote), "--date", "2026-11-20", "--decimal", ","]) == 2
    assert "10x or more away" in capsys.readouterr().err  # 1.234 USD against 610 USD
    assert main(["--db", db, "catalog", "quote", str(quote), "--date", "2026-11-20", "--decimal", ".",
                 "--confirm-outliers"]) == 0
    assert "1 part(s) now at the quoted price" in capsys.readouterr().out
    assert main(["--db", db, "catalog", "list", "--format", "json"]) == 0
    parts = {p["id"]: p for p in json.loads(capsys.readouterr().out)}
    assert parts["cx6-25g-2p"]["price"] == 1234.0


@pytest.mark.parametrize("suffix", ["csv", "json"])
def test_cli_import_replace_with_a_far_price_needs_confirming(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              small_seed: Path, suffix: str) -> None:
    db = f"sqlite:///{tmp_path / 'c.sqlite'}"
    nic = next(r for r in small_seed_rows() if r["id"] == "cx6-25g-2p")
    path = tmp_path / f"nic.{suffix}"
    changed = {**nic, "price": 61000}  # 610 with two digits too many
    if suffix == "json":
        path.write_text(json.dumps([changed]), encoding="utf-8")
    else:
        path.write_text(",".join(changed) + "\n" + ",".join(str(v) for v in changed.values()) + "\n", encoding="utf-8")
    assert main(["--db", db, "catalog", "import", str(path), "--replace"]) == 2
    err = capsys.readouterr().err
    assert "price(s) look wrong" in err and "cx6-25g-2p" in err and "10x or more away from the previous price" in err
    assert main(["--db", db, "catalog", "import", str(path), "--replace", "--confirm-outliers"]) == 0
    capsys.readouterr()
    assert main(["--db", db, "catalog", "list", "--format", "json"]) == 0
    parts = {p["id"]: p for p in json.loads(capsys.readouterr().out)}
    assert parts["cx6-25g-2p"]["price"] == 61000

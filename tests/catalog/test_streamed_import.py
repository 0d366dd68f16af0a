"""A catalog import (JSON or CSV) streams: its memory does not grow with the file beyond the ids it must remember; the
same rows and the same all-or-nothing checks as the whole-file import."""

from __future__ import annotations

import contextlib
import json
import os
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.cli.main import main
from catalog import store as store_module
from catalog.errors import CatalogFileError, InvalidRowsError
from catalog.files import parse_csv, read_file, render, with_numbers
from catalog.numbers import NumberFormatError, Separator, parse_number
from catalog.store import CatalogStore
from catalog.streaming import csv_file_separator, iter_csv_rows, iter_json_rows
from catalog.validation import SourceRow
from tests.catalog.conftest import small_seed_rows


def _nics(count: int) -> list[dict[str, Any]]:
    return [{"id": f"nic-{i:06d}", "kind": "nic", "vendor": "Acme", "model": f"Dual 25 {i}", "part_number": f"PN{i}",
             "price": 500.0 + i % 100, "currency": "USD", "price_as_of": "2025-01-01",
             "source": "estimate from the vendor list", "ports": 2, "speed_gbps": 25.0, "watts": 12.0}
            for i in range(count)]


def _peak_import(tmp_path: Path, count: int, fmt: str = "json") -> tuple[int, int]:
    path = tmp_path / f"nics-{count}.{fmt}"
    path.write_text(json.dumps(_nics(count), indent=2) if fmt == "json" else render(_nics(count), "csv"),
                    encoding="utf-8")
    with CatalogStore.open(f"sqlite:///{tmp_path / f'c{count}-{fmt}.sqlite'}", seed=False) as store:
        tracemalloc.start()
        try:
            if fmt == "json":
                store.import_stream(lambda: iter_json_rows(path))
            else:
                sep = csv_file_separator(path)
                store.import_stream(lambda: iter_csv_rows(path, sep))
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert len(store.export_rows("nic")) == count
    return path.stat().st_size, peak


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_memory_grows_far_slower_than_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    """The tester's case: a 100 MB catalog JSON took 0.9 GB (every row held as a dict, then validated, then written
    with its history). Measured on two files, the second twice the first: the extra peak allocation per extra byte
    of file stays under 2 (the whole-file import: 9 to 11; the ids it must remember are most of it), so a 100 MB
    file stays within 500 MB with the interpreter's own ~100 MB. A CSV the same (it was read whole: a 41.6 MB CSV
    peaked at 967 MB, 23x)."""
    monkeypatch.setattr(store_module, "WRITE_BATCH", 100)
    small_size, small_peak = _peak_import(tmp_path, 600, fmt)
    big_size, big_peak = _peak_import(tmp_path, 1_200, fmt)
    # a CSV row is about 100 bytes against the ~300 of remembered id, kind and row number per part: 4x its bytes
    per_byte = 2.0 if fmt == "json" else 4.0
    assert (big_peak - small_peak) < per_byte * (big_size - small_size), (small_size, small_peak, big_size, big_peak)


def test_a_streamed_import_checks_like_the_whole_file_import(store: CatalogStore, tmp_path: Path) -> None:
    rows = small_seed_rows()
    rows.append({**rows[0]})  # a duplicate id
    server = next(r for r in rows if r["kind"] == "server")
    rows.append({**server, "id": "srv-2", "cpu_id": "no-such-cpu"})
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    with pytest.raises(InvalidRowsError) as caught:
        store.import_stream(lambda: iter_json_rows(path))
    text = "\n".join(caught.value.lines())
    assert "duplicate id" in text and "unknown cpu 'no-such-cpu'" in text
    assert store.export_rows() == []
    path.write_text(json.dumps(small_seed_rows()), encoding="utf-8")
    report = store.import_stream(lambda: iter_json_rows(path), source="seed.json")
    assert report.total == len(small_seed_rows())
    assert store.change_sets()[0].rows == report.total


@pytest.mark.parametrize(("text", "message"), [
    ('{"id": "x"}', "expected a JSON list of parts, got an object"),
    ('[{"id": "a"}, 3]', "item 2 is a int, not an object"),
    ('[{"id": "a"} {"id": "b"}]', "expected ',' or ']' after item 1"),
    ('[{"id": "a", "id": "b"}]', "appears more than once"),
    ('[{"price": NaN}]', "NaN"),
    ('[{"id": "a"}', "not valid JSON"),
    ('[{"id": "a"}] x', "text after the list"),
])
def test_a_damaged_json_file_is_a_file_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CatalogFileError, match=message):
        list(iter_json_rows(path))


def test_cli_import_of_a_json_file_streams(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "nics.json"
    path.write_text(json.dumps(_nics(20)), encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'c.sqlite'}"
    assert main(["--db", db, "catalog", "import", str(path)]) == 0
    assert "imported 20 parts" in capsys.readouterr().out
    assert main(["--db", db, "catalog", "import", str(path)]) == 2
    assert "already in the catalog" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text("[1]", encoding="utf-8")
    assert main(["--db", db, "catalog", "import", str(tmp_path / "bad.json")]) == 2


def test_a_streamed_csv_gives_the_whole_file_readers_rows(tmp_path: Path) -> None:
    """Row numbers, lines, numbers read with the file's separator (a European file too), blank lines and cells past
    the header: what `read_file` gives, row for row."""
    header, *lines = render(_nics(5), "csv").splitlines()
    path = tmp_path / "nics.csv"
    path.write_text(header + "\n" + lines[0] + "\n\n,,,\n" + "\n".join(lines[1:]) + ",extra\n", encoding="utf-8")
    sep = csv_file_separator(path)
    assert list(iter_csv_rows(path, sep)) == read_file(path)
    assert [r.line for r in iter_csv_rows(path, sep)] == [2, 5, 6, 7, 8]
    comma = tmp_path / "comma.csv"  # a European spreadsheet's numbers
    comma.write_text(render([{**r, "price": "1.234,5", "speed_gbps": "25", "watts": "12,5"} for r in _nics(3)], "csv"),
                     encoding="utf-8")
    sep = csv_file_separator(comma)
    streamed = list(iter_csv_rows(comma, sep))
    assert sep == "," and streamed == parse_csv(comma.read_text(encoding="utf-8"), str(comma))
    assert float(streamed[0].values["price"]) == 1234.5 and float(streamed[0].values["watts"]) == 12.5


@pytest.mark.parametrize(("data", "message"), [
    (b"", "empty file"),
    (b"name,price\nx,1\n", "needs at least the columns 'id' and 'kind'"),
    (b"id,kind\n\xff\xfe,nic\n", "UTF-8"),
    (b"id,kind\na\x00,nic\n", "NUL byte"),
    (b'id,kind,price\na,nic,"1.234"\n', "decimal separator cannot be told"),
])
def test_a_damaged_csv_file_is_a_file_error_before_the_catalog_is_opened(tmp_path: Path, data: bytes, message: str,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "x.csv"
    path.write_bytes(data)
    with pytest.raises(CatalogFileError, match=message):
        csv_file_separator(path)
    db = tmp_path / "never.sqlite"
    assert main(["--db", f"sqlite:///{db}", "catalog", "import", str(path)]) == 2
    assert message in capsys.readouterr().err and not db.exists()


@settings(max_examples=300, deadline=None)
@given(text=st.from_regex(r" ?[-+]?[0-9]{1,5}([.,][0-9]{1,4})?(e[0-9])? ?", fullmatch=True),
       sep=st.sampled_from([".", ","]))
def test_a_plainly_written_number_reads_as_the_number_parser_reads_it(text: str, sep: Separator) -> None:
    """`with_numbers` skips `parse_number` for plain cells: what it gives is what the parser gives, for any cell."""
    expected: str = text
    with contextlib.suppress(NumberFormatError):
        expected = str(parse_number(text, sep))
    assert with_numbers(SourceRow(1, {"price": text}), sep).values["price"] == expected


@pytest.mark.parametrize("case", ["missing", "folder", "pipe", "device", "too large", "symlink loop"])
def test_the_streamed_readers_refuse_a_path_in_the_whole_file_readers_words(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    """One check (models.file_input.check_path) for both: the same message for each path neither can read."""
    import catalog.files as files_module
    import catalog.streaming as streaming_module
    path = tmp_path / "catalog.json"
    if case == "folder":
        path.mkdir()
    elif case == "pipe":
        os.mkfifo(path)
    elif case == "device":
        path = Path("/dev/null")
    elif case == "too large":
        path.write_text("[]" + " " * 40, encoding="utf-8")
        monkeypatch.setattr(files_module, "CATALOG_MAX_BYTES", 20)
        monkeypatch.setattr(streaming_module, "CATALOG_MAX_BYTES", 20)
    elif case == "symlink loop":
        path.symlink_to(tmp_path / "catalog.json")
    messages = []
    for read in (read_file, lambda p: list(iter_json_rows(p)), lambda p: list(iter_csv_rows(p, ".")),
                 csv_file_separator):
        with pytest.raises(CatalogFileError) as caught:
            read(path)
        messages.append(str(caught.value))
    assert len(set(messages)) == 1, messages
    assert messages[0].startswith(f"{path}: ")


def _read_transient(tmp_path: Path, count: int) -> int:
    """Bytes allocated while reading a kind's rows beyond what the rows kept take."""
    with CatalogStore.open(f"sqlite:///{tmp_path / f'read-{count}.sqlite'}", seed=False) as store:
        store.import_rows(_nics(count))
        tracemalloc.start()
        try:
            rows = store.versioned_rows("nic")
            kept, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert len(rows) == count
    return peak - kept


def test_reading_a_kind_builds_its_records_a_batch_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a big import the window reads every row back for its tables (versioned_rows) and the sizing snapshot:
    the ORM built every record of the kind at once, beside the parts and rows made from them. A 100 MB catalog JSON
    (345,594 NICs) imported in the window peaked at 1,441 MiB, 270 MiB of it the import. Measured here as the
    allocation beyond the rows returned, per extra part: about 800 bytes with every record alive, about 270 (the
    parts the rows are made from) a batch at a time."""
    monkeypatch.setattr(store_module, "LOAD_BATCH", 100)
    small, big = _read_transient(tmp_path, 600), _read_transient(tmp_path, 1_200)
    assert (big - small) / 600 < 500, (small, big)

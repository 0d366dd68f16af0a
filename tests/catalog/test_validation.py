"""Row validation: every problem of every row is reported with its row number and field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from catalog.errors import CatalogFileError, RowProblem
from catalog.files import parse_csv, parse_json, read_file
from catalog.validation import validate_rows
from tests.catalog.conftest import small_seed_rows


def _by_id(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in rows}


def _problems(rows: list[dict[str, Any]], existing: dict[str, Any] | None = None,
              replace: bool = False) -> set[tuple[int, str]]:
    result = validate_rows(rows, existing or {}, replace=replace)
    return {(p.row, p.field) for p in result.problems}


def test_the_fixture_seed_is_valid() -> None:
    result = validate_rows(small_seed_rows(), {})
    assert result.ok, [str(p) for p in result.problems]
    assert len(result.rows) == len(small_seed_rows())


def test_every_bad_row_is_reported_with_row_and_field() -> None:
    rows = small_seed_rows()
    parts = _by_id(rows)
    parts["xeon-gold-6430"]["cores"] = -4  # row 1: negative count
    parts["epyc-9354"]["threads"] = "sixty-four"  # row 2: text in a number
    del parts["r760-2s"]["memory_gib"]  # row 3: missing field
    parts["r760-2s"]["price_as_of"] = "2024-13-01"  # row 3: bad date
    parts["nvme-7.68"]["interface"] = "NVMe Gen9"  # row 4: bad enum
    parts["nvme-7.68"]["form_factor"] = "5.25in"  # row 4: bad enum
    parts["cx6-25g-2p"]["ports"] = 0  # row 5: zero count
    parts["ddr5-64g-4800"]["kind"] = "gpu"  # row 6: unknown kind
    rows.append({**parts["r760-2s"], "id": "r760-other", "cpu_id": "xeon-gold-6431", "memory_gib": 256})  # 7
    rows.append(dict(parts["cx6-25g-2p"], ports=2))  # row 8: duplicate id within the file
    assert _problems(rows) == {
        (1, "cores"), (2, "threads"), (3, "memory_gib"), (3, "price_as_of"),
        (4, "interface"), (4, "form_factor"), (5, "ports"), (6, "kind"),
        (7, "price_as_of"), (7, "cpu_id"),  # the bad date copied from row 3 does not hide the cpu_id
        (8, "id"),
    }


def test_messages_name_the_bad_value_and_the_fix() -> None:
    rows = small_seed_rows()
    parts = _by_id(rows)
    parts["epyc-9354"]["threads"] = "sixty-four"
    parts["r760-2s"]["cpu_id"] = "xeon-gold-6431"
    messages = {p.field: p.message for p in validate_rows(rows, {}).problems}
    assert "whole number" in messages["threads"] and "sixty-four" in messages["threads"]
    assert "unknown cpu 'xeon-gold-6431'" in messages["cpu_id"] and "xeon-gold-6430" in messages["cpu_id"]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("id", "Xeon Gold!"), ("currency", "usd"), ("price", -1), ("price", "1,200"), ("price_as_of", "01/06/2024"),
        ("price_as_of", 20240601), ("vendor", "  "), ("cores", True), ("base_ghz", "nan"), ("base_ghz", 0),
        ("threads", 16),  # fewer threads than cores
    ],
)
def test_bad_cpu_values_are_refused(field: str, value: object) -> None:
    row = dict(_by_id(small_seed_rows())["xeon-gold-6430"], **{field: value})
    assert (1, field) in _problems([row]), f"{field}={value!r} was accepted"


@pytest.mark.parametrize(
    ("field", "value"),
    [("data_bay_form_factor", "M.2"), ("rack_u", 0), ("sockets", "2.5"), ("data_bays", -1), ("max_w", 100)],
)
def test_bad_server_values_are_refused(field: str, value: object) -> None:
    rows = small_seed_rows()
    _by_id(rows)["r760-2s"][field] = value
    assert (3, field) in _problems(rows)


def test_a_server_may_use_a_cpu_already_in_the_catalog() -> None:
    server = _by_id(small_seed_rows())["r760-2s"]
    assert _problems([server], {"xeon-gold-6430": "cpu"}) == set()
    assert _problems([server], {"xeon-gold-6430": "nic"}) == {(1, "cpu_id")}


def test_ids_in_the_catalog_are_duplicates_unless_replacing_the_same_kind() -> None:
    nic = _by_id(small_seed_rows())["cx6-25g-2p"]
    assert _problems([nic], {"cx6-25g-2p": "nic"}) == {(1, "id")}
    assert _problems([nic], {"cx6-25g-2p": "nic"}, replace=True) == set()
    assert _problems([nic], {"cx6-25g-2p": "cpu"}, replace=True) == {(1, "kind")}


def test_unknown_and_misplaced_columns_are_refused_but_cores_total_is_ignored() -> None:
    cpu = dict(_by_id(small_seed_rows())["xeon-gold-6430"], coers=32, cores_total=999)
    server = dict(_by_id(small_seed_rows())["r760-2s"], cores_total=1)
    assert _problems([cpu, server]) == {(1, "coers")}


def test_missing_kind_is_reported() -> None:
    row = _by_id(small_seed_rows())["cx6-25g-2p"]
    del row["kind"]
    assert _problems([row]) == {(1, "kind")}


CSV_WITH_PROBLEMS = '''\
id,kind,vendor,model,price,currency,price_as_of,source,cores,threads,base_ghz,tdp_w,ports,speed_gbps,watts
cpu-a,cpu,Intel,"Xeon
 with a two-line model",100,USD,2024-01-01,estimate,8,16,2.0,100,,,

cpu-b,cpu,Intel,Xeon B,100,USD,2024-01-01,estimate,-8,16,2.0,100,,,
nic-a,nic,Intel,E810,abc,USD,2024-01-01,estimate,,,,,2,25,12,extra
'''


def test_csv_problems_give_row_and_line() -> None:
    rows = parse_csv(CSV_WITH_PROBLEMS)
    assert [(r.number, r.line) for r in rows] == [(1, 2), (2, 5), (3, 6)]
    problems = validate_rows(rows, {}).problems
    assert {(p.row, p.line, p.field) for p in problems} == {
        (2, 5, "cores"), (3, 6, "price"), (3, 6, "(extra cells)"),
    }
    assert str(next(p for p in problems if p.field == "cores")).startswith("row 2 (line 5), cores: ")


def test_json_problems_name_the_row_and_id() -> None:
    rows = parse_json('[{"id": "nic-a", "kind": "nic"}]')
    problems = validate_rows(rows, {}).problems
    assert problems and all(str(p).startswith("row 1 (id 'nic-a'), ") for p in problems)
    assert "ports" in {p.field for p in problems}


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("bad.json", '[{"id": "a",}]', "not valid JSON"),
        ("obj.json", '{"id": "a"}', "expected a JSON list"),
        ("items.json", '[1, 2]', "not an object"),
        ("nohead.csv", "id,vendor\na,b\n", "'id' and 'kind'"),
        ("dup.csv", "id,kind,id\n", "appears twice"),
        ("empty.csv", "", "empty file"),
    ],
)
def test_unreadable_files_raise_one_clear_error(tmp_path: Path, name: str, content: str, expected: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CatalogFileError, match=expected):
        read_file(path)


def test_missing_and_binary_files(tmp_path: Path) -> None:
    with pytest.raises(CatalogFileError, match="no such file"):
        read_file(tmp_path / "nope.csv")
    (tmp_path / "bin.csv").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(CatalogFileError, match="UTF-8"):
        read_file(tmp_path / "bin.csv")


def test_format_is_detected_from_content_without_an_extension(tmp_path: Path) -> None:
    (tmp_path / "parts").write_text('[{"id": "a", "kind": "nic"}]', encoding="utf-8")
    assert read_file(tmp_path / "parts")[0].values["id"] == "a"
    (tmp_path / "parts2").write_text("id,kind\na,nic\n", encoding="utf-8")
    assert read_file(tmp_path / "parts2")[0].values["kind"] == "nic"


def test_problem_text() -> None:
    assert str(RowProblem(3, "cores", "must be greater than 0", line=4)) == \
        "row 3 (line 4), cores: must be greater than 0"

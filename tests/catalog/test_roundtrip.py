"""Export -> import gives the same parts: through CSV and JSON, across SQLite and PostgreSQL."""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog.files import parse_csv, parse_json, read_file, write_csv, write_json
from catalog.rows import part_from_row, part_to_row
from catalog.store import CatalogStore
from catalog.validation import validate_rows
from models.hardware import Cpu, Nic, Part
from tests.catalog.conftest import small_seed_rows


def _awkward_rows() -> list[dict[str, object]]:
    """The fixture seed plus values that trip up CSV and float handling."""
    rows = small_seed_rows()
    rows.append(dict(rows[4], id="nic-odd", model='Intel E810 "XXV", 4x25GbE\nrev 2', vendor="Ünïcødé GmbH",
                     price=0.1 + 0.2, speed_gbps=1e-7, watts=123456789.123, source="estimate; row, with commas"))
    return rows


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_export_then_import_into_a_fresh_catalog_gives_equal_rows(
    catalog_url: str, tmp_path: Path, fmt: str
) -> None:
    with CatalogStore.open(catalog_url, seed=False) as source:
        source.import_rows(_awkward_rows())
        exported = source.export_rows()
        parts = source.list()
    path = tmp_path / f"export.{fmt}"
    with path.open("w", encoding="utf-8", newline="") as out:
        (write_csv if fmt == "csv" else write_json)(exported, out)
    with CatalogStore.open(f"sqlite:///{tmp_path / 'fresh.sqlite'}", seed=False) as fresh:
        report = fresh.import_rows(read_file(path))
        assert report.total == len(exported)
        assert fresh.export_rows() == exported
        assert fresh.list() == parts


def test_export_of_one_kind_has_only_its_columns() -> None:
    buffer = io.StringIO()
    write_csv([part_to_row(p) for p in _parts_of(small_seed_rows()) if isinstance(p, Nic)], buffer)
    header = buffer.getvalue().splitlines()[0].split(",")
    assert header == ["id", "kind", "vendor", "model", "part_number", "price", "currency", "price_as_of", "source",
                      "price_basis", "ports", "speed_gbps", "watts", "pcie_gen", "pcie_lanes"]


def _parts_of(rows: list[dict[str, object]]) -> list[Part]:
    result = validate_rows(rows, {})
    assert result.ok, [str(p) for p in result.problems]
    cpus: dict[str, Cpu] = {}
    parts = []
    for valid in sorted(result.rows, key=lambda r: r.kind != "cpu"):
        part = part_from_row(valid.row, cpus)
        if isinstance(part, Cpu):
            cpus[part.id] = part
        parts.append(part)
    return parts


slugs = st.from_regex(r"[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}", fullmatch=True)
texts = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=30).filter(str.strip)
positive = st.floats(min_value=1e-6, max_value=1e9, allow_nan=False, allow_infinity=False)

cpus_strategy = st.builds(
    Cpu,
    id=slugs,
    vendor=texts.map(str.strip),
    model=texts.map(str.strip),
    price=st.decimals(min_value=0, max_value=10**8, places=4).map(float),
    currency=st.sampled_from(["USD", "EUR", "JPY"]),
    price_as_of=st.dates(min_value=date(2000, 1, 1), max_value=date.today()),
    source=texts.map(str.strip),
    cores=st.integers(1, 512),
    threads=st.just(1024),
    base_ghz=positive,
    tdp_w=positive,
)


@settings(max_examples=60, deadline=None)
@given(st.lists(cpus_strategy, min_size=1, max_size=5, unique_by=lambda c: c.id), st.sampled_from(["csv", "json"]))
def test_any_valid_parts_survive_a_file_round_trip(cpus: list[Cpu], fmt: str) -> None:
    buffer = io.StringIO()
    rows = [part_to_row(c) for c in cpus]
    (write_csv if fmt == "csv" else write_json)(rows, buffer)
    parsed = parse_csv(buffer.getvalue()) if fmt == "csv" else parse_json(buffer.getvalue())
    assert _parts_of([dict(r.values) for r in parsed]) == cpus


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_pcie_slots_and_memory_types_survive_export_and_import(catalog_url: str, tmp_path: Path, fmt: str) -> None:
    """Revision 0005's columns go out and come back; an empty cell (CSV) or null (JSON) stays unknown (None)."""
    rows = small_seed_rows()
    by_id = {r["id"]: r for r in rows}
    by_id["r760-2s"].update(pcie_slots=8, memory_type="DDR5")
    by_id["ddr5-64g-4800"].update(memory_type="DDR5")
    rows.append(dict(by_id["r760-2s"], id="r760-unknown"))  # absent: unknown
    del rows[-1]["pcie_slots"], rows[-1]["memory_type"]
    with CatalogStore.open(catalog_url, seed=False) as source:
        source.import_rows(rows)
        exported = source.export_rows()
    path = tmp_path / f"export.{fmt}"
    with path.open("w", encoding="utf-8", newline="") as out:
        (write_csv if fmt == "csv" else write_json)(exported, out)
    with CatalogStore.open(f"sqlite:///{tmp_path / 'fresh.sqlite'}", seed=False) as fresh:
        fresh.import_rows(read_file(path))
        server, unknown, dimm = fresh.get("r760-2s"), fresh.get("r760-unknown"), fresh.get("ddr5-64g-4800")
    assert (server.pcie_slots, server.memory_type, dimm.memory_type) == (8, "DDR5", "DDR5")  # type: ignore[union-attr]
    assert (unknown.pcie_slots, unknown.memory_type) == (None, None)  # type: ignore[union-attr]


@pytest.mark.parametrize(("column", "value", "says"), [
    ("memory_type", "DDR6", "DDR3"), ("pcie_slots", 0, "greater than 0"), ("pcie_slots", "eight", "whole number"),
])
def test_a_bad_slot_count_or_memory_type_is_refused_by_name(column: str, value: object, says: str) -> None:
    rows = small_seed_rows()
    next(r for r in rows if r["kind"] == "server")[column] = value
    result = validate_rows(rows, {})
    assert not result.ok
    assert any(column in str(p) and says in str(p) for p in result.problems), [str(p) for p in result.problems]

"""Scenario files: every problem reported with its JSON path and the allowed range."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from models.scenario import MAX_FILE_BYTES, ScenarioFileError, load_project, load_scenario, parse_scenario

GOOD = {
    "schema_version": 1,
    "name": "Retail DW",
    "workload": {"kind": "greenplum-analytics", "data_tb": 60, "compression_ratio": 3,
                 "growth_pct_per_year": 30, "horizon_years": 3, "concurrent_queries": 20, "mirrors": True},
    "platform": {"deployment": "bare-metal", "server_id": None, "drive_id": None, "drives_per_host": None,
                 "nic_id": None, "memory_gib": None, "swap_gib": 32, "raid": "none"},
    "targets": {"max_full_scan_s": None, "min_load_tb_per_hour": None, "max_capex": None},
}


def test_the_issue_example_parses() -> None:
    s = parse_scenario(GOOD)
    assert s.workload.kind == "greenplum-analytics"
    assert s.platform.swap_gib == 32


def test_every_problem_is_listed_with_its_path() -> None:
    bad = json.loads(json.dumps(GOOD))
    bad["workload"]["data_tb"] = -1
    bad["workload"]["compression_ratio"] = 0.5
    bad["workload"]["concurrent_queries"] = "many"
    bad["platform"]["raid"] = "raid6"
    with pytest.raises(ScenarioFileError) as info:
        parse_scenario(bad)
    by_path = {p.path: p.message for p in info.value.problems}
    assert by_path["workload.data_tb"] == "must be greater than 0 (got -1)"
    assert by_path["workload.compression_ratio"].startswith("must be greater than or equal to 1")
    assert "workload.concurrent_queries" in by_path
    assert "raid10" in by_path["platform.raid"]
    assert len(info.value.problems) == 4
    assert "workload.data_tb: must be greater than 0 (got -1)" in str(info.value)


@pytest.mark.parametrize(("path", "changes"), [
    ("commercial.currency", {"commercial": {"currency": "euro"}}),
    ("workload.san_currency", {"workload": {"kind": "sap-iq-multiplex", "data_tb": 10, "query_streams": 4,
                                            "san_currency": "euro"}}),
])
def test_a_currency_that_is_not_a_code_names_the_rule(path: str, changes: dict[str, dict[str, object]]) -> None:
    """A currency is an ISO 4217 code: the message says so (it quoted the regular expression ^[A-Z]{3}$)."""
    with pytest.raises(ScenarioFileError) as info:
        parse_scenario({**GOOD, **changes})
    by_path = {p.path: p.message for p in info.value.problems}
    assert by_path[path] == "must be a three-letter ISO 4217 currency code in capitals, such as USD or EUR (got 'euro')"


def test_unknown_kind_lists_the_allowed_kinds() -> None:
    bad = {**GOOD, "workload": {"kind": "oracle-rac", "data_tb": 1}}
    with pytest.raises(ScenarioFileError) as info:
        parse_scenario(bad)
    assert any(p.path == "workload.kind" and "greenplum-analytics" in p.message and "oracle-rac" in p.message
               for p in info.value.problems)


def test_unsupported_schema_version() -> None:
    with pytest.raises(ScenarioFileError) as info:
        parse_scenario({**GOOD, "schema_version": 2})
    assert any(p.path == "schema_version" and "not supported" in p.message for p in info.value.problems)


def test_not_json_and_oversized_files(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"name": "x", ')
    with pytest.raises(ScenarioFileError, match="not valid JSON"):
        load_scenario(broken)
    huge = tmp_path / "huge.json"
    huge.write_text(" " * (MAX_FILE_BYTES + 1))
    with pytest.raises(ScenarioFileError, match="limit"):
        load_scenario(huge)
    with pytest.raises(ScenarioFileError, match="no such file"):
        load_scenario(tmp_path / "missing.json")


def test_a_lone_scenario_opens_as_a_project(tmp_path: Path) -> None:
    f = tmp_path / "s.json"
    f.write_text(json.dumps(GOOD))
    project = load_project(f)
    assert [s.name for s in project.scenarios] == ["Retail DW"]


def test_consolidation_requires_vsphere() -> None:
    bad = {**GOOD, "workload": {"kind": "postgres-consolidation",
                                "databases": [{"name": "a", "size_gb": 3, "peak_clients": 30, "working_set_gb": 1}]}}
    with pytest.raises(ScenarioFileError, match="vsphere"):
        parse_scenario(bad)

"""A consolidation holds an estate of thousands: 10,000 databases validate and round-trip through a file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from models.file_input import SCENARIO_MAX_BYTES, dump_json_checked
from models.scenario import ScenarioFileError, load_scenario, parse_scenario, scenario_to_json


def _estate(n: int) -> dict[str, Any]:
    current = {"vcpus": 8, "memory_gib": 32.0, "cpu_used_mhz": 4200.5, "memory_used_gib": 12.25,
               "cpu_model": "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz",
               "source": "RVTools export RVTools_export_all.xlsx" * 2, "cpu_basis": "a core counts as a core" * 2}
    return {"name": "estate", "platform": {"deployment": "vsphere"}, "workload": {
        "kind": "postgres-consolidation",
        "databases": [{"name": f"vm-{i:05d}.corp.example.com", "size_gb": 20 + i % 50, "peak_clients": 5 + i % 20,
                       "working_set_gb": 2 + i % 6, "current": current} for i in range(n)]}}


def test_ten_thousand_databases_with_their_current_vms_save_and_open(tmp_path: Path) -> None:
    scenario = parse_scenario(_estate(10_000))
    text = dump_json_checked(scenario_to_json(scenario), max_bytes=SCENARIO_MAX_BYTES, what="scenario", name="s")
    assert len(text.encode()) > 5_000_000  # more than the old 5 MB limit held
    path = tmp_path / "estate.json"
    path.write_text(text, encoding="utf-8")
    assert len(load_scenario(path).workload.databases) == 10_000  # type: ignore[union-attr]


def test_more_than_ten_thousand_is_refused_naming_the_limit() -> None:
    with pytest.raises(ScenarioFileError) as info:
        parse_scenario(_estate(10_001))
    assert [p.path for p in info.value.problems] == ["workload.databases"]
    assert "10000" in info.value.problems[0].message

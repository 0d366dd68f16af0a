"""`refarch bench --only estate` times `refarch size` on consolidations of 100 and 10,000 databases; no speed is
asserted here."""

from __future__ import annotations

from app.bench.estate_bench import estate_json
from models.scenario import parse_scenario


def test_the_estate_scenarios_are_valid_consolidations() -> None:
    scenario = parse_scenario(estate_json(10_000))
    assert len(scenario.workload.databases) == 10_000  # type: ignore[union-attr]


def test_the_estate_bench_is_registered() -> None:
    from app.bench import registry

    assert registry.discover() == []
    assert "estate" in registry.registered()

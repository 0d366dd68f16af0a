from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from catalog.seed import seed_catalog
from models.hardware import HardwareCatalog
from models.scenario import Scenario, parse_scenario
from models.sizing.engine import size
from models.sizing.result import SizingResult

SAMPLES = Path(__file__).resolve().parents[3] / "resources" / "samples"


@pytest.fixture(scope="session")
def catalog() -> HardwareCatalog:
    return seed_catalog()


SizeOnce = Callable[[Scenario], SizingResult]


@pytest.fixture(scope="session")
def size_once(catalog: HardwareCatalog) -> SizeOnce:
    """`size(scenario, catalog)` computed once per distinct scenario for the whole session, for tests that only read
    the result (its dataclasses are frozen): tests that size the same scenarios (every server pinned in turn, say)
    share the work. A refusal is kept too and raised again, so each caller still sees it."""
    done: dict[str, SizingResult | Exception] = {}

    def get(scenario: Scenario) -> SizingResult:
        key = scenario.model_dump_json()
        if key not in done:
            try:
                done[key] = size(scenario, catalog)
            except Exception as refused:  # raised again below, to every caller
                done[key] = refused
        out = done[key]
        if isinstance(out, Exception):
            raise out
        return out

    return get


def sample(name: str, **changes: Any) -> Scenario:
    """A sample scenario with nested changes, e.g. sample("retail-dw-gen5", workload={"concurrent_queries": 40});
    an empty dict replaces the section (targets={} drops every target)."""
    data = json.loads((SAMPLES / f"{name}.json").read_text())
    for section, values in changes.items():
        if isinstance(values, dict) and values:
            data.setdefault(section, {}).update(values)
        else:
            data[section] = values
    return parse_scenario(data)

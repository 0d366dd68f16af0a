from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from catalog.seed import seed_catalog
from models.hardware import HardwareCatalog
from models.scenario import Scenario, parse_scenario

SAMPLES = Path(__file__).resolve().parents[3] / "resources" / "samples"


@pytest.fixture(scope="session")
def catalog() -> HardwareCatalog:
    return seed_catalog()


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

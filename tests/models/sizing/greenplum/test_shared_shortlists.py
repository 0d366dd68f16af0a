"""The shortlists of one Greenplum sizing (the recommendation and its within-budget, trade-off and cost-of-ownership
alternatives) share their host searches and explained designs: the result is what each computed alone gives."""

from __future__ import annotations

from typing import Any

import pytest

from models.hardware import HardwareCatalog
from models.sizing.engine import size
from models.sizing.greenplum import design
from tests.models.sizing.conftest import sample

FREE = {"server_id": None, "drive_id": None, "drives_per_host": None}
CASES: list[tuple[str, dict[str, Any]]] = [
    ("retail-dw-gen5", {}),
    ("retail-dw-gen5", {"platform": FREE}),
    ("retail-dw-gen5", {"platform": FREE, "commercial": {"optimize_for": "tco"}}),
    ("retail-dw-gen5", {"platform": FREE, "targets": {"max_capex": 100_000.0}}),
    ("retail-dw-gen5", {"platform": FREE, "workload": {"data_tb": 400, "concurrent_queries": 50}}),
    ("study-000-vsphere", {"platform": FREE}),
    ("gp-oltp", {"platform": FREE}),
    ("gp-oltp", {"platform": FREE, "workload": {"clients": 3000}, "commercial": {"optimize_for": "tco"}}),
]


class _Alone(design._Shared):
    """Shares nothing: every shortlist searches, explains and completes on its own."""

    def __init__(self) -> None:
        super().__init__()

    def explained(self, *args: Any) -> Any:
        self.searched.clear()
        self.done.clear()
        return super().explained(*args)

    @property
    def searched(self) -> dict[tuple[object, ...], Any]:
        return {}  # a new dict each time: no search is kept

    @searched.setter
    def searched(self, value: Any) -> None:
        pass


@pytest.mark.parametrize(("name", "changes"), CASES)
def test_shared_shortlists_give_what_each_gives_alone(
    catalog: HardwareCatalog, monkeypatch: pytest.MonkeyPatch, name: str, changes: dict[str, Any]
) -> None:
    scenario = sample(name, **changes)
    shared = size(scenario, catalog).to_dict()
    monkeypatch.setattr(design, "_Shared", _Alone)
    assert size(scenario, catalog).to_dict() == shared


def test_a_design_two_shortlists_pick_is_explained_once(catalog: HardwareCatalog,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The sample's recommendation, its trade-off and its cost-of-ownership alternative settle on one design."""
    calls: list[int] = []
    explain = design.explain_candidate

    def counted(*args: Any) -> Any:
        calls.append(1)
        return explain(*args)

    monkeypatch.setattr(design, "explain_candidate", counted)
    capex = sample("retail-dw-gen5", commercial={"optimize_for": "capex"})  # the capex pick has a TCO alternative
    result = size(capex, catalog)
    assert any(r.decision == "Recommended parts" for r in result.rationale)
    assert len(calls) == 1
    monkeypatch.setattr(design, "_Shared", _Alone)
    calls.clear()
    size(capex, catalog)
    assert len(calls) == 3

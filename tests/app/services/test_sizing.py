"""The sizing use case: the engine's result, its refusals as a ServiceError naming the scenario and the
fields, the estimate curve, and the task protocol passed through."""

from __future__ import annotations

import pytest

from app.services import sizing
from app.services.errors import ServiceError
from catalog.seed import seed_catalog
from models.hardware import HardwareCatalog
from models.sizing.curves import host_counts, main_metric_curve
from models.sizing.engine import size as engine_size
from models.tasks import Cancelled
from tests.models.sizing.conftest import sample


@pytest.fixture(scope="module")
def catalog() -> HardwareCatalog:
    return seed_catalog()


def test_the_result_is_the_engine_s(catalog: HardwareCatalog) -> None:
    s = sample("gp-oltp")
    assert sizing.size(s, catalog).to_dict() == engine_size(s, catalog).to_dict()


def test_a_refused_scenario_names_itself_and_the_field(catalog: HardwareCatalog) -> None:
    s = sample("retail-dw-gen5", platform={"server_id": "no-such-server"})
    with pytest.raises(ServiceError) as caught:
        sizing.size(s, catalog, label="dw.json")
    assert caught.value.message == "invalid scenario dw.json"
    assert [p.path for p in caught.value.problems] == ["platform.server_id"]
    assert caught.value.shown() == caught.value.problems


def test_cancel_and_progress_reach_the_engine(catalog: HardwareCatalog) -> None:
    with pytest.raises(Cancelled):
        sizing.size(sample("retail-dw-gen5"), catalog, cancelled=lambda: True)
    seen: list[tuple[int, int]] = []
    sizing.size(sample("retail-dw-gen5"), catalog, lambda d, t: seen.append((d, t)))
    assert seen and seen[-1][0] == seen[-1][1]


def test_the_curve_is_the_model_s_sorted_by_hosts(catalog: HardwareCatalog) -> None:
    s = sample("retail-dw-gen5")
    r = engine_size(s, catalog)
    curve = sizing.estimate_curve(s, catalog, r)
    assert curve is not None and curve.current_hosts == r.design.segment_hosts
    points = sorted(main_metric_curve(s, catalog, host_counts(r.design.segment_hosts), r))
    assert curve.hosts == tuple(h for h, _ in points)
    assert curve.p50 == tuple(e.p50 for _, e in points)
    with pytest.raises(Cancelled):
        sizing.estimate_curve(s, catalog, r, cancelled=lambda: True)

"""The one task protocol: every long task takes `progress` / `cancelled`, raises `models.tasks.Cancelled`
when asked to stop, and reports progress that never goes down and ends at its total."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catalog.seed import seed_catalog
from models.hardware import HardwareCatalog
from models.optimizer import optimize
from models.sizing.curves import host_counts, main_metric_curve
from models.sizing.engine import size
from models.tasks import PART_UNITS, Cancelled, check_cancelled, part_progress
from models.whatif import growth, sensitivity
from tests.models.sizing.conftest import sample

KINDS = ("retail-dw-gen5", "gp-oltp", "pg-consolidation", "sap-iq")


@pytest.fixture(scope="module")
def catalog() -> HardwareCatalog:
    return seed_catalog()


class Recorder:
    """A progress callable that keeps what it was told."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, int]] = []

    def __call__(self, done: int, total: int) -> None:
        self.seen.append((done, total))

    def assert_monotonic_to_the_end(self) -> None:
        assert self.seen, "no progress was reported"
        dones = [d for d, _ in self.seen]
        assert dones == sorted(dones), f"progress went down: {self.seen}"
        assert len({t for _, t in self.seen}) == 1, f"the total changed: {self.seen}"
        assert all(0 <= d <= t for d, t in self.seen)
        assert self.seen[-1][0] == self.seen[-1][1]


def after(calls: int) -> Callable[[], bool]:
    """`cancelled()` that turns True on its (calls + 1)-th call: a stop part-way through."""
    n = {"calls": 0}

    def cancelled() -> bool:
        n["calls"] += 1
        return n["calls"] > calls

    return cancelled


def test_check_cancelled_raises_only_when_asked() -> None:
    check_cancelled(None)
    check_cancelled(lambda: False)
    with pytest.raises(Cancelled):
        check_cancelled(lambda: True)


@given(st.lists(st.lists(st.integers(0, 50), min_size=1, max_size=6), min_size=1, max_size=5))
def test_parts_in_order_give_monotonic_progress(steps: list[list[int]]) -> None:
    rec = Recorder()
    for i, part in enumerate(steps):
        p = part_progress(rec, i, len(steps))
        assert p is not None
        total = max(part) or 1
        for done in sorted(part):
            p(done, total)
        p(total, total)
    rec.assert_monotonic_to_the_end()


def test_a_part_outside_the_task_is_refused() -> None:
    with pytest.raises(ValueError, match="part 2"):
        part_progress(lambda d, t: None, 2, 2)


@pytest.mark.parametrize("name", KINDS)
def test_size_reports_monotonic_progress_and_the_same_result(name: str, catalog: HardwareCatalog) -> None:
    rec = Recorder()
    scenario = sample(name)
    with_protocol = size(scenario, catalog, rec, lambda: False)
    rec.assert_monotonic_to_the_end()
    assert with_protocol.to_dict() == size(scenario, catalog).to_dict()


def checks_of(task: Callable[[Callable[[], bool]], object]) -> int:
    """How many times a whole run of `task` asks `cancelled()`."""
    n = {"calls": 0}

    def never() -> bool:
        n["calls"] += 1
        return False

    task(never)
    return n["calls"]


@pytest.mark.parametrize("name", KINDS)
def test_size_stops_at_every_check(name: str, catalog: HardwareCatalog) -> None:
    scenario = sample(name)
    checks = checks_of(lambda c: size(scenario, catalog, cancelled=c))
    assert checks >= 2
    for k in range(checks):
        with pytest.raises(Cancelled):
            size(scenario, catalog, cancelled=after(k))


def test_as_you_grow_reports_one_part_per_year(catalog: HardwareCatalog) -> None:
    base = sample("retail-dw-gen5")
    scenario = base.model_copy(update={"commercial": base.commercial.model_copy(update={"purchase": "as-you-grow"})})
    rec = Recorder()
    size(scenario, catalog, rec)
    rec.assert_monotonic_to_the_end()
    years = scenario.workload.horizon_years  # type: ignore[union-attr]
    assert years > 0
    # the design, then each year 0..horizon (bounded by the TCO years), each a part of PART_UNITS
    assert rec.seen[-1][1] == (1 + min(years, scenario.commercial.tco_years - 1) + 1) * PART_UNITS


def test_optimize_reports_monotonic_progress_and_stops_when_cancelled(catalog: HardwareCatalog) -> None:
    scenario = sample("retail-dw-gen5")
    rec = Recorder()
    optimize(scenario, catalog, progress=rec, chunk=512)  # the sample's RAID level and deployment: ~3,000 designs
    rec.assert_monotonic_to_the_end()
    assert len(rec.seen) > 1
    with pytest.raises(Cancelled):
        optimize(scenario, catalog, cancelled=after(1), chunk=512)  # after the first chunk


@pytest.mark.parametrize("name", ["retail-dw-gen5", "gp-oltp", "sap-iq"])
def test_the_monte_carlo_curve_reports_each_point_and_stops_when_cancelled(name: str,
                                                                           catalog: HardwareCatalog) -> None:
    scenario = sample(name)
    result = size(scenario, catalog)
    counts = host_counts(result.design.segment_hosts)
    rec = Recorder()
    points = main_metric_curve(scenario, catalog, counts, result, rec, lambda: False)
    rec.assert_monotonic_to_the_end()
    assert rec.seen[-1] == (len(counts), len(counts))
    assert points == main_metric_curve(scenario, catalog, counts, result)
    with pytest.raises(Cancelled):
        main_metric_curve(scenario, catalog, counts, result, cancelled=after(2))


def test_growth_and_sensitivity_stop_when_cancelled(catalog: HardwareCatalog) -> None:
    scenario = sample("retail-dw-gen5")
    result = size(scenario, catalog)
    with pytest.raises(Cancelled):
        growth(scenario, catalog, result, cancelled=after(1))
    with pytest.raises(Cancelled):
        sensitivity(scenario, catalog, result=result, cancelled=after(1))

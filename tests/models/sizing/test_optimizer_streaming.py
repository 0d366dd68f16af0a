"""The streamed optimizer gives exactly the designs the whole-catalog optimizer gave (issue 17).

`optimizer_reference.reference_optimize` is the pre-streaming algorithm; every sample, an
infeasible case and a catalog with near-duplicate parts (ties everywhere) must give the same count,
best design, Pareto front (in order) and closest design per unmet target, with chunks small enough
that the fronts and running bests are merged across many chunks.
"""

from __future__ import annotations

import dataclasses

import pytest

from models.hardware import Drive, HardwareCatalog, Server
from models.optimizer import DesignPoint, optimize
from models.scenario import Scenario
from tests.models.sizing.conftest import sample
from tests.models.sizing.optimizer_reference import RefPoint, RefResult, reference_optimize

GP_SAMPLES = ("retail-dw-gen5", "retail-dw-dual-socket-sas", "study-000-vsphere", "gp-oltp")


def _doubled(catalog: HardwareCatalog) -> HardwareCatalog:
    """Every server and drive twice, the copy 0.3 % dearer: equal performance and power, near-equal capex."""
    extra = [dataclasses.replace(p, id=f"{p.id}-copy", price=round(p.price * 1.003, 2))
             for p in catalog if isinstance(p, Server | Drive)]
    return HardwareCatalog.of([*catalog, *extra])


def _same(point: DesignPoint | None, ref: RefPoint | None) -> None:
    if ref is None:
        assert point is None
        return
    assert point is not None
    assert {k: getattr(point, k) for k in ref.__dataclass_fields__} == dataclasses.asdict(ref)


def _free(scenario: Scenario) -> Scenario:
    """The scenario with its RAID level left to the search (null), as the reference searches every level."""
    return scenario.model_copy(update={"platform": scenario.platform.model_copy(update={"raid": None})})


def _check(scenario: Scenario, catalog: HardwareCatalog, chunk: int) -> RefResult:
    # the reference is the capex search: the scenario minimises capex (the default objective is TCO); it searches
    # every deployment and RAID level
    scenario = _free(scenario.model_copy(update={"commercial": scenario.commercial.model_copy(
        update={"optimize_for": "capex"})}))
    ref = reference_optimize(scenario, catalog, pareto_limit=10**6)
    got = optimize(scenario, catalog, pareto_limit=10**6, chunk=chunk, any_deployment=True)
    assert (got.evaluated, got.feasible) == (ref.evaluated, ref.feasible)
    _same(got.best, ref.best)
    assert len(got.pareto) == len(ref.pareto)
    for p, r in zip(got.pareto, ref.pareto, strict=True):
        _same(p, r)
    assert got.unmet == ref.unmet
    return ref


@pytest.mark.parametrize("name", GP_SAMPLES)
def test_every_sample_gives_todays_designs(name: str, catalog: HardwareCatalog) -> None:
    _check(sample(name), catalog, chunk=997)  # a prime: chunk edges fall inside every server's block


@pytest.mark.parametrize("targets", [
    {"max_full_scan_s": 1, "max_capex": 1000, "max_power_w": 100, "max_rack_u": 2},
    {"max_full_scan_s": 20, "min_load_tb_per_hour": 500, "min_queries_per_hour": 10**7},
])
def test_an_infeasible_case_gives_todays_closest_designs(targets: dict[str, float],
                                                         catalog: HardwareCatalog) -> None:
    ref = _check(sample("retail-dw-gen5", targets=targets), catalog, chunk=1500)
    assert ref.best is None and ref.unmet and len(ref.pareto) > 1  # the case is not vacuous


def test_near_duplicate_parts_break_ties_as_before(catalog: HardwareCatalog) -> None:
    doubled = _doubled(catalog)
    _check(sample("retail-dw-gen5", targets={"max_full_scan_s": 900, "max_power_w": 60_000}), doubled, chunk=4096)
    _check(sample("gp-oltp"), doubled, chunk=4096)


def test_a_search_too_large_is_refused_before_it_runs(catalog: HardwareCatalog,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import models.optimizer as opt

    monkeypatch.setattr(opt, "MAX_CANDIDATES", 1000)
    evaluated: list[int] = []
    with pytest.raises(opt.SearchTooLarge) as info:
        optimize(_free(sample("retail-dw-gen5")), catalog, progress=lambda done, total: evaluated.append(done),
                 any_deployment=True)
    assert not evaluated
    total = reference_optimize(sample("retail-dw-gen5"), catalog).evaluated
    problem = str(info.value.problems[0])
    assert f"{total:,} candidate designs" in problem and "1,000 one optimizer run" in problem

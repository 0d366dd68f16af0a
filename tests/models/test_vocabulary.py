"""The vocabulary covers the scenario schema exactly and agrees with what the sizers produce."""

from __future__ import annotations

import typing
from pathlib import Path

import pytest
from pydantic import BaseModel

from catalog.seed import seed_catalog
from models.field_words import FIELDS, field_info, field_label
from models.hardware import HardwareCatalog
from models.scenario import Platform, Scenario, Targets, Workload, load_scenario
from models.sizing.engine import size
from models.vocabulary import (
    KINDS,
    METRICS,
    RAID_LEVELS,
    RAIDS,
    TARGETS,
    WORKLOAD_KINDS,
    raid_code,
    target_of_metric,
    targets_for,
)

SAMPLES = Path(__file__).resolve().parents[2] / "resources" / "samples"


def _model_of(annotation: object) -> type[BaseModel] | None:
    for arg in (annotation, *typing.get_args(annotation)):
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            return arg
    return None


def _paths(model: type[BaseModel], prefix: str) -> set[str]:
    out: set[str] = set()
    for name, f in model.model_fields.items():
        path = f"{prefix}{name}"
        sub = _model_of(f.annotation)
        if sub is not None and typing.get_origin(f.annotation) is list:
            out.add(path)
            out |= _paths(sub, f"{path}[].")
        elif sub is not None:
            out |= _paths(sub, f"{path}.")
        else:
            out.add(path)
    return out


def _schema_paths() -> set[str]:
    paths = _paths(Scenario, "") - {"schema_version"}
    for member in typing.get_args(typing.get_args(Workload)[0]):
        paths |= _paths(member, "workload.")
    return paths


def test_every_scenario_field_is_declared_once_and_nothing_else() -> None:
    schema = _schema_paths() - {"workload", "platform", "targets", "assumptions"}
    declared = set(FIELDS) - {"workload"}
    assert schema - declared == set(), "fields without a label in models.field_words.FIELDS"
    assert declared - schema == set(), "labels for fields the scenario does not have"


def test_targets_are_the_targets_model_and_bound_declared_metrics() -> None:
    # targets.confidence says which estimate the targets are checked on; it bounds no metric itself
    assert set(TARGETS) == set(Targets.model_fields) - {"confidence"}
    for t in TARGETS.values():
        assert t.metric in METRICS, t.name
        assert set(t.kinds) <= set(METRICS[t.metric].kinds), t.name
        assert target_of_metric(t.metric) is t
        assert METRICS[t.metric].better == ("lower" if t.bound == "max" else "higher"), t.name
        # a whole-unit metric's target is an int field of Targets, and only then
        assert t.whole == (int in typing.get_args(Targets.model_fields[t.name].annotation)), t.name


def test_kinds_and_raid_levels_follow_their_literals() -> None:
    assert tuple(KINDS) == WORKLOAD_KINDS
    assert tuple(RAIDS) == RAID_LEVELS
    assert [raid_code(r) for r in RAID_LEVELS] == list(range(len(RAID_LEVELS)))
    assert set(typing.get_args(typing.get_args(Platform.model_fields["raid"].annotation)[0])) == set(RAID_LEVELS)
    for kind in WORKLOAD_KINDS:
        assert KINDS[kind].main_metric in METRICS
        assert kind in METRICS[KINDS[kind].main_metric].kinds
        assert {t.name for t in targets_for(kind)} >= {"max_capex", "max_power_w", "max_rack_u"}


def test_field_labels_carry_units_and_list_positions() -> None:
    assert field_label("targets.max_full_scan_s") == "Max full-scan time (s)"
    assert field_label("workload.databases[0].working_set_gb") == "Database 1, Working set (GB)"
    assert field_label("no.such.path") == "no.such.path"
    info = field_info("platform.raid")
    assert info is not None and info.choice_label("raid10") == "RAID 10"


@pytest.fixture(scope="module")
def catalog() -> HardwareCatalog:
    return seed_catalog()


@pytest.mark.parametrize("sample", sorted(p.name for p in SAMPLES.glob("*.json") if ".refarch." not in p.name))
def test_sizers_report_declared_metrics_in_declared_units(sample: str, catalog: HardwareCatalog) -> None:
    scenario = load_scenario(SAMPLES / sample)
    result = size(scenario, catalog)
    kind = scenario.workload.kind
    for name, estimate in result.estimates.items():
        assert name in METRICS, name
        assert kind in METRICS[name].kinds, (name, kind)
        assert estimate.unit == METRICS[name].unit, (name, estimate.unit)
    assert result.main_metric in result.estimates


def test_every_kind_has_a_short_label_without_its_explanation() -> None:
    from models.vocabulary import KINDS, kind_short_label

    for name, kind in KINDS.items():
        short = kind_short_label(name)
        assert short and "(" not in short and kind.label.startswith(short), name
    assert kind_short_label("greenplum-analytics") == "Greenplum analytics"

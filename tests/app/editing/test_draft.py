"""Drafts: paths, and pydantic's errors mapped onto the fields the form shows."""

from __future__ import annotations

from app.editing.draft import get_in, path_str, set_in, validate
from app.editing.fields import new_scenario_json, workload_for_kind


def test_path_notation_matches_the_cli() -> None:
    assert path_str(("workload", "databases", 0, "size_gb")) == "workload.databases[0].size_gb"


def test_set_in_creates_missing_objects_and_copies_values() -> None:
    draft: dict = {"name": "x"}
    value = {"a": [1]}
    set_in(draft, ("targets", "extra"), value)
    value["a"].append(2)  # the draft must not share the caller's object (undo keeps the old one)
    assert get_in(draft, ("targets", "extra")) == {"a": [1]}


def test_a_new_scenario_is_valid() -> None:
    scenario, issues = validate(new_scenario_json("S"))
    assert scenario is not None and not issues


def test_field_errors_are_keyed_by_json_path_without_the_kind_tag() -> None:
    draft = new_scenario_json("S")
    draft["workload"]["data_tb"] = 0
    draft["platform"] = {"swap_gib": "lots"}
    scenario, issues = validate(draft)
    assert scenario is None
    assert "greater than 0" in issues.by_field["workload.data_tb"]
    assert "platform.swap_gib" in issues.by_field


def test_empty_required_field_says_a_value_is_required() -> None:
    draft = new_scenario_json("S")
    draft["workload"]["concurrent_queries"] = None
    _, issues = validate(draft)
    assert issues.by_field["workload.concurrent_queries"] == "a value is required"


def test_a_whole_scenario_rule_lands_on_the_field_it_names() -> None:
    draft = new_scenario_json("S")
    draft["workload"] = workload_for_kind("postgres-consolidation", draft["workload"])
    draft["platform"] = {"deployment": "bare-metal"}
    _, issues = validate(draft)
    assert "vsphere" in issues.by_field["platform.deployment"]


def test_switching_kind_keeps_the_shared_fields() -> None:
    gp = {"kind": "greenplum-analytics", "data_tb": 42.0, "concurrent_queries": 5, "compression_ratio": 2.5}
    iq = workload_for_kind("sap-iq-multiplex", gp)
    assert iq["kind"] == "sap-iq-multiplex" and iq["data_tb"] == 42.0 and iq["compression_ratio"] == 2.5
    assert "concurrent_queries" not in iq


def test_a_target_is_entered_as_a_whole_number_where_the_vocabulary_says_its_metric_counts_units() -> None:
    from app.editing.fields import TARGET_FIELDS
    from models.vocabulary import TARGETS

    kinds = {spec.path[1]: spec.kind for spec in TARGET_FIELDS if spec.path[1] in TARGETS}
    assert kinds == {name: "int" if t.whole else "float" for name, t in TARGETS.items()}
    assert kinds["max_rack_u"] == "int" and kinds["max_capex"] == "float"

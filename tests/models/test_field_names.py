"""An unknown key in a scenario or project names the field it probably meant."""

from __future__ import annotations

import pytest

from models.field_names import suggestion
from models.scenario import Project, Scenario, ScenarioFileError, parse_project, parse_scenario


@pytest.mark.parametrize(("root", "loc", "meant"), [
    (Scenario, ("platform", "serverid"), "platform.server_id"),
    (Scenario, ("workload", "greenplum-oltp", "client"), "workload.clients"),
    (Scenario, ("workload", "postgres-consolidation", "databases", 4, "peak_client"),
     "workload.databases[4].peak_clients"),
    (Scenario, ("commercial", "customer"), "customer"),  # the same name one level up
    (Scenario, ("workload", "sap-iq-multiplex", "currency"), "commercial.currency"),  # not the sibling san_currency
    (Scenario, ("compression_ratio",), "workload.compression_ratio"),
    (Project, ("scenarios", 3, "tco_years"), "scenarios[3].commercial.tco_years"),
    (Scenario, ("qqqq",), None),
    (Scenario, ("workload", "greenplum-analytics", "xyzzy"), None),
    (Scenario, ("workload", "greenplum-analytics", "databases"), None),  # was itself: another kind's field
    (Scenario, ("workload", "sap-iq-multiplex", "mirrors"), None),
])
def test_suggestion(root: type[Scenario] | type[Project], loc: tuple[str | int, ...], meant: str | None) -> None:
    assert suggestion(root, loc) == meant


def test_parsed_files_carry_the_hint_on_the_problem() -> None:
    with pytest.raises(ScenarioFileError) as info:
        parse_scenario({"name": "s", "workload": {"kind": "greenplum-oltp", "clients": 10, "data_tb": 1,
                                                 "mirorring": "group"}})
    [problem] = info.value.problems
    assert problem.path == "workload.mirorring"
    assert problem.message.startswith("unknown field; did you mean workload.mirroring?")
    with pytest.raises(ScenarioFileError) as info:
        parse_project({"name": "p", "scenarios": [{"name": "a", "workload": {"kind": "greenplum-analytics",
                       "data_tb": 1, "concurrent_queries": 1}, "targets": {"max_capx": 10}}]})
    assert [str(p) for p in info.value.problems] == [
        "scenarios[0].targets.max_capx: unknown field; did you mean scenarios[0].targets.max_capex? (the fields"
        " are listed by `refarch schema` and in docs/SCENARIO.md)"]


def test_a_field_of_another_workload_kind_says_which_kind_has_it() -> None:
    # "workload.databases: unknown field; did you mean workload.databases?" suggested the field itself
    with pytest.raises(ScenarioFileError) as info:
        parse_scenario({"name": "s", "workload": {"kind": "sap-iq-multiplex", "data_tb": 5, "query_streams": 4,
                                                 "mirrors": True}})
    assert [str(p) for p in info.value.problems] == [
        "workload.mirrors: a field of greenplum-analytics and greenplum-oltp workloads, not of sap-iq-multiplex (the"
        " fields are listed by `refarch schema` and in docs/SCENARIO.md)"]


def test_a_misspelt_workload_kind_names_the_kind_it_probably_meant() -> None:
    with pytest.raises(ScenarioFileError) as info:
        parse_scenario({"name": "s", "workload": {"kind": "postgres-consolidaton", "databases": []}})
    [problem] = info.value.problems
    assert (problem.path, problem.message) == (
        "workload.kind", "unknown kind 'postgres-consolidaton'; did you mean 'postgres-consolidation'? allowed:"
        " greenplum-analytics, greenplum-oltp, postgres-consolidation, sap-iq-multiplex")
    with pytest.raises(ScenarioFileError) as info:
        parse_scenario({"name": "s", "workload": {"kind": "oracle-rac"}})
    assert "did you mean" not in info.value.problems[0].message

"""Scenario templates (`refarch new KIND`, the window's "Add scenario"): valid, sized as they are, in the project's
customer and currency."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from app.cli.main import main
from app.editing.templates import project_defaults, scenario_template
from app.services.project_files import save_project
from app.services.sizing import size
from catalog.seed import seed_catalog
from models.hardware import HardwareCatalog
from models.scenario import GreenplumAnalytics, Project, Scenario, ScenarioFileError, load_scenario
from models.scenario_schema import scenario_schema
from models.vocabulary import WORKLOAD_KINDS


@pytest.fixture(scope="module")
def catalog() -> HardwareCatalog:
    return seed_catalog()


@pytest.mark.parametrize("kind", WORKLOAD_KINDS)
def test_every_template_sizes_as_it_is(kind: str, catalog: HardwareCatalog, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / f"{kind}.json"
    assert main(["new", kind, "-o", str(out), "--customer", "Acme GmbH", "--currency", "EUR"]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(scenario_schema()).validate(data)
    scenario = load_scenario(out)
    assert scenario.workload.kind == kind and scenario.customer == "Acme GmbH"
    result = size(scenario, catalog, label=str(out))
    assert result.design.total_hosts >= 1 and result.totals.currency == "EUR"
    assert all(b.currency == "EUR" for b in result.bom)
    assert "docs/SCENARIO.md" in scenario.notes
    assert "targets" in data and "min_tps" in data["targets"]  # every field is written out, targets empty


def test_new_prints_refuses_to_overwrite_and_names_a_bad_currency(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "sap-iq-multiplex", "--name", "IQ for Acme"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["name"] == "IQ for Acme" and printed["commercial"]["currency"] == "USD"
    out = tmp_path / "s.json"
    out.write_text("{}", encoding="utf-8")
    assert main(["new", "greenplum-oltp", "-o", str(out)]) == 2
    assert "exists" in capsys.readouterr().err and out.read_text(encoding="utf-8") == "{}"
    assert main(["new", "greenplum-oltp", "--currency", "euro"]) == 2
    assert "commercial.currency: must be a three-letter ISO 4217" in capsys.readouterr().err


def test_new_refuses_a_currency_the_rate_table_lacks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the template was written and then failed to size: "no server in the catalog" (IQ), "no servers or no drives"
    db = ["--db", f"sqlite:///{tmp_path / 'c.sqlite'}"]
    out = tmp_path / "nok.json"
    assert main([*db, "new", "sap-iq-multiplex", "--currency", "NOK", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--currency NOK: no exchange rate for it" in err and "EUR" in err and "rates set NOK" in err
    assert not out.exists()
    assert main([*db, "new", "sap-iq-multiplex", "--currency", "SEK", "-o", str(out)]) == 0  # one the table has
    assert load_scenario(out).commercial.currency == "SEK"


def test_new_takes_what_a_projects_scenarios_agree_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gp = GreenplumAnalytics(data_tb=10, concurrent_queries=5)
    agreed = Scenario.model_validate({"name": "a", "customer": "Acme", "workload": gp.model_dump(),
                                      "commercial": {"currency": "GBP"}})
    path = tmp_path / "p.refarch.json"
    save_project(Project(name="P", scenarios=[agreed, agreed.model_copy(update={"name": "b"})]), path)
    assert main(["new", "postgres-consolidation", "--project", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["customer"] == "Acme" and data["commercial"]["currency"] == "GBP"
    assert data["platform"]["deployment"] == "vsphere"
    assert main(["new", "postgres-consolidation", "--project", str(path), "--customer", "Other"]) == 0
    assert json.loads(capsys.readouterr().out)["customer"] == "Other"  # given on the command line: it wins


def test_project_defaults_only_where_every_scenario_agrees() -> None:
    a = {"customer": "Acme", "commercial": {"currency": "EUR"}}
    assert project_defaults([a, a]) == ("Acme", "EUR")
    assert project_defaults([a, {"customer": "Beta", "commercial": {"currency": "EUR"}}]) == ("", "EUR")
    assert project_defaults([]) == ("", None)


def test_a_template_refuses_an_unknown_kind_and_a_bad_name() -> None:
    with pytest.raises(ValueError, match="unknown workload kind 'oracle'"):
        scenario_template("oracle")
    with pytest.raises(ScenarioFileError) as info:
        scenario_template("greenplum-oltp", "x" * 201)
    assert info.value.problems[0].path == "name"

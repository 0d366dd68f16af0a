"""`refarch schema`: the published JSON Schema of scenario and project files and the reference page docs/SCENARIO.md."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from app.cli.main import main
from app.cli.scenario_reference import reference_markdown
from models.field_words import FIELDS

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "resources" / "samples"


def _schema(capsys: pytest.CaptureFixture[str], *which: str) -> dict[str, Any]:
    assert main(["schema", *which]) == 0
    schema: dict[str, Any] = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def _errors(schema: dict[str, Any], data: Any) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    return [f"{e.json_path}: {e.message}" for e in validator.iter_errors(data)]


def test_every_sample_validates_against_the_published_schema(capsys: pytest.CaptureFixture[str]) -> None:
    scenario, project = _schema(capsys), _schema(capsys, "project")
    assert scenario["$schema"] == project["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    samples = sorted(SAMPLES.glob("*.json"))
    assert len(samples) >= 7
    for path in samples:
        data = json.loads(path.read_text(encoding="utf-8"))
        schema = project if data.get("kind") == "refarch-project" else scenario
        assert _errors(schema, data) == [], path.name


def test_the_schema_refuses_what_refarch_refuses(capsys: pytest.CaptureFixture[str]) -> None:
    schema = _schema(capsys)
    good = json.loads((SAMPLES / "pg-consolidation.json").read_text(encoding="utf-8"))
    bad_cases = {
        "unknown key": lambda d: d["targets"].update(min_load_tb_per_h=3),
        "no kind": lambda d: d["workload"].pop("kind"),
        "size 0": lambda d: d["workload"]["databases"][0].update(size_gb=0),
        "currency in lower case": lambda d: d.update(commercial={"currency": "eur"}),
        "busy hour as text": lambda d: d["workload"]["databases"][1].update(busy_hours=["nine"]),
    }
    for what, spoil in bad_cases.items():
        data = copy.deepcopy(good)
        spoil(data)
        assert _errors(schema, data), what


def test_the_schema_titles_fields_as_the_vocabulary_does(capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps(_schema(capsys))
    for path, info in FIELDS.items():
        if path != "workload":
            assert json.dumps(info.text) in text, path
    props = _schema(capsys)["$defs"]["PgDatabase"]["properties"]
    assert props["size_gb"]["title"] == "Size (GB)" and "Unit: GB" in props["size_gb"]["description"]


def test_the_committed_reference_page_is_the_generated_one() -> None:
    committed = (ROOT / "docs" / "SCENARIO.md").read_text(encoding="utf-8")
    assert committed == reference_markdown(), "run: refarch schema --format markdown -o docs/SCENARIO.md"


def test_the_reference_page_lists_every_field_with_unit_and_default() -> None:
    page = reference_markdown()
    rows = {line.split("|")[1].strip().strip("`"): line for line in page.splitlines() if line.startswith("| `")}
    for path in FIELDS:
        if path != "workload":
            assert path in rows, path
    size = [c.strip() for c in rows["workload.databases[].size_gb"].split("|")]
    assert size[2:6] == ["number", "GB", "required", "> 0, <= 1,000,000"]
    assert [c.strip() for c in rows["commercial.tco_years"].split("|")][3:5] == ["years", "`5`"]


def test_schema_writes_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "reference.md"
    assert main(["schema", "--format", "markdown", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == reference_markdown()
    assert main(["schema", "project", "-o", str(tmp_path / "p.json")]) == 0
    assert json.loads((tmp_path / "p.json").read_text(encoding="utf-8"))["title"] == "refarch project"


def test_a_misspelt_or_misplaced_field_names_the_one_meant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads((SAMPLES / "retail-dw-gen5.json").read_text(encoding="utf-8"))
    data["targets"]["min_load_tb_per_h"] = 3
    data["currency"] = "EUR"
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["size", str(path)]) == 2
    err = capsys.readouterr().err
    assert "targets.min_load_tb_per_h: unknown field; did you mean targets.min_load_tb_per_hour?" in err
    assert "currency: unknown field; did you mean commercial.currency?" in err
    assert "refarch schema" in err and "docs/SCENARIO.md" in err

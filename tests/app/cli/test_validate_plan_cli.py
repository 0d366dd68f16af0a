"""`refarch validate-plan`: the plan's thresholds are the design's own assumptions, and `measure import --plan`
checks measurements against them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main
from catalog.seed import seed_catalog
from models.measurements.calibration import modelled_rates
from models.scenario import load_scenario
from models.sizing.engine import size

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "resources" / "samples"
FIXTURES = ROOT / "tests" / "models" / "measurements" / "fixtures"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('plan') / 'c.sqlite'}"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_gen5_plan_thresholds_are_the_designs_assumptions_and_import_checks_them(
        db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "plan"
    code, out, err = run(capsys, "--db", db, "validate-plan", str(SAMPLES / "retail-dw-gen5.json"), "-o", str(out_dir))
    assert code == 0, err
    names = {Path(p).relative_to(out_dir).as_posix() for p in out.split()}
    assert names == {"hosts/segment_hosts", "gpcheckperf.sh", "thresholds.json", "README.md"}
    plan = json.loads((out_dir / "thresholds.json").read_text(encoding="utf-8"))
    catalog = seed_catalog()
    design = size(load_scenario(SAMPLES / "retail-dw-gen5.json"), catalog).design
    modelled = modelled_rates(design, catalog)
    assert plan["per_host_mb_s"] == {"disk_read": modelled["disk_read"], "disk_write": modelled["disk_write"]}
    assert plan["link_mb_s"] == modelled["network"] == catalog.nic(design.nic_id or "").speed_gbps * 125
    assert len((out_dir / "hosts" / "segment_hosts").read_text().split()) == design.segment_hosts
    script = (out_dir / "gpcheckperf.sh").read_text()
    assert "-r d -D" in script and "-r s -D" in script and "-r N" in script and "-r M" in script
    assert f"{modelled['disk_read']:,.0f} MB/s" in (out_dir / "README.md").read_text()
    code, out, err = run(capsys, "--db", db, "measure", "import", str(FIXTURES / "gpcheckperf_slow_disks_10gbe.txt"),
                         "--name", "slow", "--plan", str(out_dir), "--format", "json")
    checks = {c["what"].split(" (")[0]: c for c in json.loads(out)["checks"]}
    assert checks["disk_read per host"]["passed"] is False
    assert checks["disk_read per host"]["threshold"] == modelled["disk_read"]
    assert checks["network per link"]["passed"] is False
    # a failed acceptance check is a failure a script sees (exit 1, named on stderr); the profile is stored anyway
    assert code == 1 and "checks of the validation plan failed" in err and "disk_read per host" in err
    assert run(capsys, "--db", db, "measure", "show", "slow")[0] == 0


def test_oltp_plan_sweeps_past_the_designs_clients_and_checks_tps_at_them(
        db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads((SAMPLES / "gp-oltp.json").read_text(encoding="utf-8"))
    doc["workload"]["mix"] = "tpcb"
    scenario_path = tmp_path / "oltp.json"
    scenario_path.write_text(json.dumps(doc), encoding="utf-8")
    out_dir = tmp_path / "plan"
    assert run(capsys, "--db", db, "validate-plan", str(scenario_path), "-o", str(out_dir))[0] == 0
    plan = json.loads((out_dir / "thresholds.json").read_text(encoding="utf-8"))
    estimate = size(load_scenario(scenario_path), seed_catalog()).estimates["tps"]
    assert (plan["oltp"]["tps_p10"], plan["oltp"]["tps_p90"]) == (estimate.p10, estimate.p90)
    sweep = (out_dir / "pgbench_sweep.sh").read_text()
    assert "-b tpcb-like" in sweep and " 100 " in sweep and " 256;" in sweep
    code, out, _ = run(capsys, "--db", db, "measure", "import", str(FIXTURES / "pgbench_tpcb_sweep.txt"), "--name",
                       "tpcb", "--plan", str(out_dir / "thresholds.json"), "--format", "json")
    tps = next(c for c in json.loads(out)["checks"] if c["what"].startswith("TPS at 100 clients"))
    assert tps["threshold"] == estimate.p10 and tps["passed"] is (tps["measured"] >= estimate.p10)
    failed = any(c["passed"] is False for c in json.loads(out)["checks"])
    assert code == (1 if failed else 0)


def test_a_plan_is_refused_for_a_non_greenplum_design_or_a_full_folder(
        db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--db", db, "validate-plan", str(SAMPLES / "pg-consolidation.json"), "-o",
                       str(tmp_path / "pg"))
    assert code == 2 and "for Greenplum designs" in err
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    code, _, err = run(capsys, "--db", db, "validate-plan", str(SAMPLES / "retail-dw-gen5.json"), "-o",
                       str(tmp_path / "full"))
    assert code == 2 and "is not empty" in err
    code, _, err = run(capsys, "--db", db, "measure", "import", str(FIXTURES / "hammerdb_v3.log"), "--name", "h",
                       "--plan", str(tmp_path / "full"))
    assert code == 2 and "cannot read the validation plan" in err


def test_names_with_control_characters_stay_on_their_line_in_every_plan_file(
        db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """gpcheckperf.sh copied the scenario's name into its first comment as it was: a name 'DW<newline>rm -rf ~' made
    the script run `rm -rf ~`, and the README's heading took the newline and the terminal escape too."""
    data = json.loads((SAMPLES / "gp-oltp.json").read_text(encoding="utf-8"))
    data["name"] = "DW\nrm -rf ~ \x1b[2J\r\u202eevil"
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps(data), encoding="utf-8")
    out_dir = tmp_path / "plan"
    code, _, err = run(capsys, "--db", db, "validate-plan", str(scenario), "-o", str(out_dir))
    assert code == 0, err
    for path in (p for p in out_dir.rglob("*") if p.is_file()):
        text = path.read_text(encoding="utf-8")
        assert not any(c in text for c in "\x1b\r\u202e"), path
        assert not any(line.lstrip().startswith("rm -rf") for line in text.splitlines()), path
    assert "# Validation plan for DW\\nrm -rf ~ \\x1b[2J\\r\\u202eevil: run as gpadmin" in (
        out_dir / "gpcheckperf.sh").read_text(encoding="utf-8")
    assert "# Validation plan: DW\\nrm -rf ~" in (out_dir / "README.md").read_text(encoding="utf-8")

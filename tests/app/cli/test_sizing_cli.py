"""size / compare / optimize / growth / sensitivity from the command line, good and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main

SAMPLES = Path(__file__).resolve().parents[3] / "resources" / "samples"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'catalog.sqlite'}"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_size_json_on_the_seeded_catalog(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, _ = run(capsys, "--db", db, "size", str(SAMPLES / "retail-dw-gen5.json"), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["design"]["segment_hosts"] >= 2
    assert data["estimates"]["full_scan_s"]["unit"] == "s"
    bom = data["bom"]
    assert data["totals"]["capex"] == pytest.approx(sum(b["extended_price"] for b in bom if not b["recurring"]),
                                                    abs=0.005)
    assert data["totals"]["bom_total"] == pytest.approx(sum(b["extended_price"] for b in bom), abs=0.005)
    assert data["totals"]["currency"] == "USD" and {b["currency"] for b in bom} == {"USD"}
    kinds = {b["kind"] for b in bom}
    assert {"server", "switch", "cable", "rack", "pdu", "licence", "support"} <= kinds
    assert [y["year"] for y in data["tco"]] == list(range(1, data["totals"]["tco_years"] + 1))
    assert data["tco"][-1]["cumulative"] == pytest.approx(data["totals"]["tco"], abs=0.005)
    assert data["racks"] and all(r["u_used"] <= r["u_total"] for r in data["racks"])


def test_size_text_names_sections(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, _ = run(capsys, "--db", db, "size", str(SAMPLES / "study-000-vsphere.json"))
    assert code == 0
    for heading in ("Design", "Estimates", "Bill of materials", "Rationale", "Warnings"):
        assert heading in out


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "not valid JSON"),
        ('{"name": "trunc', "not valid JSON: Unterminated string starting at line 1, column 10"),
        ('{"schema_version": 1, "name": "x", "workload": {"kind": "greenplum-analytics", "data_tb": -1,'
         ' "concurrent_queries": 0}}', "workload.data_tb"),
        ('{"schema_version": 9, "name": "x", "workload": {"kind": "sap-iq-multiplex", "data_tb": 1,'
         ' "query_streams": 1}}', "schema_version"),
        ('{"schema_version": 1, "name": "x", "workload": {"kind": "teradata"}}', "allowed: greenplum-analytics"),
        ('[1, 2]', "JSON object"),
        ('{"schema_version": 1, "name": "x", "workload": {"kind": "sap-iq-multiplex", "data_tb": 1,'
         ' "query_streams": 6, "dqp_mode": "off"}}',
         "workload.dqp_mode: must be 'storage-transfer' or 'network-transfer' (got 'off')"),
        ('{"schema_version": 1, "name": "x", "workload": {"kind": "greenplum-analytics", "data_tb": 1,'
         ' "concurrent_queries": 40, "segment_tier": "type-4"}}', "workload.segment_tier"),
    ],
)
def test_bad_scenarios_exit_2_with_the_path(capsys: pytest.CaptureFixture[str], tmp_path: Path, db: str,
                                            content: str, expected: str) -> None:
    f = tmp_path / "bad.json"
    f.write_text(content)
    code, out, err = run(capsys, "--db", db, "size", str(f))
    assert code == 2
    assert expected in err
    assert "Traceback" not in err + out


def test_unknown_server_suggests_ids(capsys: pytest.CaptureFixture[str], tmp_path: Path, db: str) -> None:
    data = json.loads((SAMPLES / "retail-dw-gen5.json").read_text())
    data["platform"]["server_id"] = "supermicro-asg-1115s-1x-epyc-9454p"
    f = tmp_path / "typo.json"
    f.write_text(json.dumps(data))
    code, _, err = run(capsys, "--db", db, "size", str(f))
    assert code == 2
    assert "platform.server_id" in err and "did you mean" in err


def test_compare_json_has_rows_with_winners(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, _ = run(capsys, "--db", db, "compare", str(SAMPLES / "retail-dw-gen5.json"),
                       str(SAMPLES / "retail-dw-dual-socket-sas.json"), "--format", "json")
    assert code == 0
    data = json.loads(out)
    capex = next(r for r in data["rows"] if r["metric"] == "capex")
    assert capex["winner"] == 0 and capex["deltas_vs_first"][0] == 0


def test_compare_needs_two(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, _, err = run(capsys, "--db", db, "compare", str(SAMPLES / "retail-dw-gen5.json"))
    assert code == 2 and "at least two" in err


def test_optimize_json_shape(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, _ = run(capsys, "--db", db, "optimize", str(SAMPLES / "retail-dw-gen5.json"), "--format", "json",
                       "--top", "3")
    assert code == 0
    data = json.loads(out)
    assert data["evaluated"] >= data["feasible"] > 0
    assert data["best"]["totals"]["capex"] > 0 and "server_id" in data["best"]["platform"]
    assert 0 < len(data["pareto"]) <= 3
    # the sample names RAID none on bare metal: every design shown keeps both, and the output says so
    assert {(p["raid"], p["deployment"]) for p in data["pareto"]} == {("none", "bare-metal")}
    assert [k.split(" kept")[0] for k in data["kept"]] == ["RAID level none", "deployment bare-metal"]


def test_growth_and_sensitivity(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, _ = run(capsys, "--db", db, "growth", str(SAMPLES / "retail-dw-gen5.json"), "--format", "json")
    assert code == 0 and len(json.loads(out)["years"]) == 4
    code, out, _ = run(capsys, "--db", db, "sensitivity", str(SAMPLES / "retail-dw-gen5.json"), "--format", "json")
    bars = json.loads(out)["bars"]
    assert code == 0 and bars and all(b["rounding"] == "continuous" for b in bars)
    assert all(b["base_hosts"] - 1 < b["base_hosts_continuous"] <= b["base_hosts"] for b in bars)
    code, _, err = run(capsys, "--db", db, "sensitivity", str(SAMPLES / "retail-dw-gen5.json"), "--delta-pct", "0")
    assert code == 2 and "--delta-pct" in err


def test_optimize_on_a_catalog_without_servers_says_so_without_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from catalog.seed import seed_catalog
    from catalog.store import CatalogStore

    url = f"sqlite:///{tmp_path / 'nics-only.sqlite'}"
    with CatalogStore.open(url, seed=False) as store:
        store.add(seed_catalog().nic("mellanox-connectx-5-2x100gbe"))
    code, out, _ = run(capsys, "--db", url, "optimize", str(SAMPLES / "retail-dw-gen5.json"))
    assert code == 1 and "no servers or no drives" in out


def test_optimize_with_no_feasible_design_names_targets_and_closest(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                                    db: str) -> None:
    data = json.loads((SAMPLES / "retail-dw-gen5.json").read_text())
    data["targets"] = {"max_capex": 1000}
    f = tmp_path / "tight.json"
    f.write_text(json.dumps(data))
    code, out, _ = run(capsys, "--db", db, "optimize", str(f), "--format", "json")
    assert code == 0
    result = json.loads(out)
    assert result["feasible"] == 0 and result["best"] is None
    assert "closest" in result["unmet"]["max_capex"]
    assert result["currency"] == "USD" and result["pareto"]  # the front's capex figures carry their currency


def test_a_front_without_a_feasible_design_prices_in_the_scenarios_currency(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, db: str) -> None:
    """With nothing feasible there is no sized pick to read the currency from: the front's capex column still names
    the project currency (it printed bare figures)."""
    data = json.loads((SAMPLES / "retail-dw-gen5.json").read_text())
    data["targets"] = {"max_full_scan_s": 1}
    data.setdefault("commercial", {})["currency"] = "EUR"
    f = tmp_path / "impossible-eur.json"
    f.write_text(json.dumps(data))
    code, out, _ = run(capsys, "--db", db, "optimize", str(f), "--top", "3")
    assert code == 0 and "No feasible design" in out
    front = out.split("Pareto front")[1].splitlines()[3:]
    assert front and all(" EUR " in line for line in front if line.strip())


# --- project files (.refarch.json, as the GUI saves them) ---------------------------------------------------

PROJECT = SAMPLES / "sample.refarch.json"
PROJECT_NAMES = [s["name"] for s in json.loads(PROJECT.read_text())["scenarios"]]
GP_NAMES = ["Retail DW: Gen5 single socket", "Order entry on Greenplum 6"]


def test_size_sizes_every_scenario_of_a_project(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, _ = run(capsys, "--db", db, "size", str(PROJECT), "--format", "json")
    assert code == 0
    assert [r["scenario"] for r in json.loads(out)] == PROJECT_NAMES


def test_size_picks_one_scenario_by_name(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, _ = run(capsys, "--db", db, "size", str(PROJECT), "--scenario", GP_NAMES[1], "--format", "json")
    assert code == 0
    assert json.loads(out)["scenario"] == GP_NAMES[1]


def test_an_unknown_scenario_name_exits_2_listing_the_names(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, _, err = run(capsys, "--db", db, "growth", str(PROJECT), "--scenario", "No such")
    assert code == 2
    assert "'No such' is not there" in err and PROJECT_NAMES[0] in err


def test_compare_growth_sensitivity_optimize_take_a_project(capsys: pytest.CaptureFixture[str], db: str) -> None:
    picks = [a for n in GP_NAMES for a in ("--scenario", n)]
    code, out, _ = run(capsys, "--db", db, "compare", str(PROJECT), *picks, "--format", "json")
    assert code == 0 and json.loads(out)["scenarios"] == GP_NAMES
    rows = {r["metric"]: r for r in json.loads(out)["rows"]}
    assert rows["capex"]["winner"] is None
    assert rows["capex"]["no_winner_reason"] == "the options run different workloads"
    code, out, _ = run(capsys, "--db", db, "growth", str(PROJECT), *picks, "--format", "json")
    assert code == 0 and [g["scenario"] for g in json.loads(out)] == GP_NAMES
    code, out, _ = run(capsys, "--db", db, "sensitivity", str(PROJECT), "--scenario", GP_NAMES[0])
    assert code == 0 and "Main estimate" in out and "hosts_cont" in out and "\nlow_cont / high_cont, hosts_cont:" in out
    code, out, err = run(capsys, "--db", db, "optimize", str(PROJECT), "--format", "json", "--top", "1")
    assert code == 0
    assert {r["scenario"] for r in json.loads(out)} <= set(PROJECT_NAMES)
    assert "left out" in err  # the PostgreSQL and SAP IQ scenarios: the optimizer covers Greenplum kinds


def test_compare_ranks_options_only_within_their_workload(capsys: pytest.CaptureFixture[str], db: str) -> None:
    """The whole sample project: a table per workload kind, winners among the Greenplum warehouses sized for the
    same work only (the 6 TB lab test bed is shown, not ranked), shares in percent; the JSON carries the same
    per-kind verdicts."""
    code, out, _ = run(capsys, "--db", db, "compare", str(PROJECT))
    assert code == 0
    tables = out.split("\n\n")
    gp = next(t for t in tables if t.startswith("Greenplum analytics"))
    capex = next(line for line in gp.splitlines() if line.startswith("Capex"))
    assert capex.rstrip().endswith("Retail DW: Gen5 single socket") and capex.count(" *") == 1
    assert "Not ranked, sized for other work (data, concurrency or targets) than the others: Greenplum on vSphere 5.5,"\
        " performance lab test bed" in gp
    pg = next(t for t in tables if t.startswith("PostgreSQL consolidation"))
    assert "(% of baseline throughput)  100" in pg and "Full-scan time" not in pg and " *" not in pg
    assert "different workloads are in separate tables" in out
    code, out, _ = run(capsys, "--db", db, "compare", str(PROJECT), "--format", "json")
    by_kind = {g["kind"]: g for g in json.loads(out)["by_kind"]}
    gp_capex = next(r for r in by_kind["greenplum-analytics"]["rows"] if r["metric"] == "capex")
    winner = by_kind["greenplum-analytics"]["scenarios"][gp_capex["winner"]]
    assert winner == "Retail DW: Gen5 single socket"
    assert all(r["winner"] is None for g in by_kind.values() if len(g["scenarios"]) == 1 for r in g["rows"])


def test_report_takes_a_project(capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path) -> None:
    out_pdf = tmp_path / "p.pdf"
    code, _, _ = run(capsys, "--db", db, "report", str(PROJECT), "--scenario", GP_NAMES[0], "--no-growth",
                     "-o", str(out_pdf))
    assert code == 0 and out_pdf.stat().st_size > 10_000


def test_a_broken_project_exits_2(capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.refarch.json"
    bad.write_text('{"kind": "refarch-project", "schema_version": 1, "scenarios": [{"name": "x"}]}')
    code, _, err = run(capsys, "--db", db, "size", str(bad))
    assert code == 2 and "scenarios[0].workload" in err


def test_a_dqp_mode_given_in_the_json_is_sized_and_said_to_be_specified(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, db: str) -> None:
    data = json.loads((SAMPLES / "sap-iq.json").read_text())
    data["workload"]["dqp_mode"] = "storage-transfer"
    f = tmp_path / "iq.json"
    f.write_text(json.dumps(data))
    code, out, _ = run(capsys, "--db", db, "size", str(f), "--format", "json")
    assert code == 0
    r = json.loads(out)
    assert r["design"]["dqp_mode"] == "storage-transfer"
    why = next(x for x in r["rationale"] if x["decision"] == "DQP mode")
    assert why["text"].startswith("storage-transfer, as specified in the scenario") and why["source"].startswith(
        "scenario")
    assert {"code": "dqp-mode-not-recommended", "field": "workload.dqp_mode", "severity": "info"}.items() <= next(
        w for w in r["warnings"] if w["code"] == "dqp-mode-not-recommended").items()

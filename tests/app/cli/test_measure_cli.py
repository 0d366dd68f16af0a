"""`refarch measure`: import (all or nothing, refusals naming file and line), list, show, delete, and fit-usl on
pgbench and HammerDB output (the old `fit-usl` an alias)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main

FIXTURES = Path(__file__).resolve().parents[2] / "models" / "measurements" / "fixtures"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'c.sqlite'}"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_import_list_show_delete(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(FIXTURES / n) for n in ("gpcheckperf_dsN_D.txt", "pgbench_tpcb_sweep.txt", "hammerdb_sweep.csv")]
    code, out, _ = run(capsys, "--db", db, "measure", "import", *files, "--name", "lab", "--format", "json")
    assert code == 0 and json.loads(out)["kinds"] == {"gpcheckperf_dsN_D.txt": "gpcheckperf",
                                                      "pgbench_tpcb_sweep.txt": "pgbench",
                                                      "hammerdb_sweep.csv": "hammerdb-csv"}
    code, out, _ = run(capsys, "--db", db, "measure", "list", "--format", "json")
    assert [(r["name"], r["files"], r["hosts"]) for r in json.loads(out)] == [("lab", 3, 4)]
    code, out, _ = run(capsys, "--db", db, "measure", "show", "lab", "--format", "json")
    doc = json.loads(out)
    assert doc["per_host"]["disk_read"]["slowest_host"] == "sdw3"
    assert doc["network"]["no_good_links"] == ["sdw3 -> sdw4"]
    pgbench = doc["sweeps"][0]
    assert pgbench["tool"] == "pgbench" and pgbench["usl"]["peak_placed"] and pgbench["note"] is None
    assert len(pgbench["usl"]["residuals"]) == 9
    hammer = doc["sweeps"][1]
    assert hammer["unit"] == "NOPM" and hammer["usl"]["peak_placed"] is False and "extrapolated" in hammer["note"]
    code, out, _ = run(capsys, "--db", db, "measure", "show", "lab")
    assert code == 0 and "the design uses the slowest host" in out and "sdw3 -> sdw4" in out
    assert run(capsys, "--db", db, "measure", "delete", "lab")[0] == 0
    code, _, err = run(capsys, "--db", db, "measure", "show", "lab")
    assert code == 2 and "no measurement profile named 'lab'" in err


def test_one_bad_file_stores_nothing_and_names_every_bad_line(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(FIXTURES / n) for n in ("gpcheckperf_dsN_D.txt", "pgbench_truncated.txt",
                                          "mixed_gpcheckperf_pgbench.txt")]
    code, _, err = run(capsys, "--db", db, "measure", "import", *files, "--name", "lab")
    assert code == 2 and "2 file(s) cannot be imported; nothing was stored" in err
    assert "pgbench_truncated.txt: line 51: this run's summary ends before" in err
    assert "mixed_gpcheckperf_pgbench.txt: line 72: pgbench output in a gpcheckperf file" in err
    assert json.loads(run(capsys, "--db", db, "measure", "list", "--format", "json")[1]) == []


def test_unknown_server_is_exit_2(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--db", db, "measure", "import", str(FIXTURES / "hammerdb_v3.log"), "--name", "x",
                       "--server", "no-such-server")
    assert code == 2 and "no server 'no-such-server'" in err


@pytest.mark.parametrize("command", [["measure", "fit-usl"], ["fit-usl"]])
def test_fit_usl_reads_a_pgbench_sweep_and_flags_a_short_one(command: list[str],
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *command, str(FIXTURES / "pgbench_tpcb_sweep.txt"), "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["points"] == 9 and doc["peak_placed"] and 40 < doc["peak_clients"] < 55
    code, out, _ = run(capsys, *command, str(FIXTURES / "pgbench_short_sweep.txt"))
    assert code == 0 and "peak NOT placed: the sweep stops at 8 clients" in out


def test_fit_usl_on_a_damaged_sweep_names_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "measure", "fit-usl", str(FIXTURES / "pgbench_truncated.txt"))
    assert code == 2 and "line 51: this run's summary ends before its 'tps = ...' line" in err


def test_size_on_a_stored_profile_gains_calibration(db: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    gen5 = "supermicro-asg-1115s-ne316r-1x-epyc-9454p"
    assert run(capsys, "--db", db, "measure", "import", str(FIXTURES / "gpcheckperf_slow_disks_10gbe.txt"),
               "--name", "slow-10gbe", "--server", gen5)[0] == 0
    samples = Path(__file__).resolve().parents[3] / "resources" / "samples"
    doc = json.loads((samples / "retail-dw-gen5.json").read_text(encoding="utf-8"))
    doc["platform"]["measurements"] = ["slow-10gbe"]
    path = tmp_path / "gen5-measured.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, err = run(capsys, "--db", db, "size", str(path), "--format", "json")
    assert code == 0, err
    sized = json.loads(out)
    cal = sized["calibration"]
    measured, modelled = cal["measured_design"], cal["modelled_design"]
    # the slow disks and 10 GbE links cost the design: more hosts or more drives per host, at a higher capex
    assert (measured["segment_hosts"], measured["data_drives_per_host"]) != \
        (modelled["segment_hosts"], modelled["data_drives_per_host"])
    assert measured["capex"] > modelled["capex"]
    # the search on the same rates (at the RAID level and deployment the scenario names) finds that design or one
    # of lower cost of ownership, on the measured server
    code, out, err = run(capsys, "--db", db, "optimize", str(path), "--format", "json", "--top", "1")
    assert code == 0, err
    best = json.loads(out)["best"]
    assert best["platform"]["server_id"] == gen5 and best["platform"]["measurements"] == ["slow-10gbe"]
    assert best["totals"]["tco"] <= sized["totals"]["tco"] + 0.5
    doc["platform"]["measurements"] = ["slow-10gb"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = run(capsys, "--db", db, "size", str(path))
    assert code == 2 and "platform.measurements[0]: no measurement profile 'slow-10gb'" in err


def test_drive_without_a_count_and_a_count_of_none_are_exit_2(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    f = str(FIXTURES / "gpcheckperf_dsN_D.txt")
    code, _, err = run(capsys, "--db", db, "measure", "import", f, "--name", "x", "--drive",
                       "samsung-pm1743-3840gb-e3s")
    assert code == 2 and "--drive needs --drives N" in err
    code, _, err = run(capsys, "--db", db, "measure", "import", f, "--name", "x", "--drives", "0")
    assert code == 2 and "--drives (data drives per measured host) must be at least 1, got 0" in err
    code, _, err = run(capsys, "--db", db, "measure", "import", f, "--name", "x", "--drives", "1001")
    assert code == 2 and "data drives per measured host: must be 1-1000 (the limit), got 1001" in err
    code, out, _ = run(capsys, "--db", db, "measure", "import", f, "--name", "x", "--drives", "8", "--drive",
                       "samsung-pm1743-3840gb-e3s")
    assert code == 0
    code, out, _ = run(capsys, "--db", db, "measure", "show", "x")
    assert "data drives per host: 8 x samsung-pm1743-3840gb-e3s" in out

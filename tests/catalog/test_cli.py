"""`refarch catalog ...` through the real entry point: output, exit codes, messages, no tracebacks."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from app.cli.main import main
from tests.catalog.conftest import small_seed_rows

pytestmark = pytest.mark.usefixtures("small_seed")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_list_json_has_ids_kinds_and_unit_named_fields(catalog_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--db", catalog_url, "catalog", "list", "--format", "json")
    assert code == 0
    parts = {p["id"]: p for p in json.loads(out)}
    assert {p["kind"] for p in parts.values()} == {"cpu", "server", "drive", "nic", "dimm"}
    server = parts["r760-2s"]
    assert server["cpu_id"] == "xeon-gold-6430"
    assert server["cores_total"] == server["sockets"] * parts["xeon-gold-6430"]["cores"] == 64
    assert {"numa_nodes_per_socket", "memory_gib", "price", "currency", "price_as_of", "source"} <= set(server)
    assert {"capacity_tb", "seq_read_mb_s", "seq_write_mb_s"} <= set(parts["nvme-7.68"])
    assert {"speed_gbps", "ports"} <= set(parts["cx6-25g-2p"])
    assert parts["xeon-gold-6430"]["price_as_of"] == "2024-06-01"


def test_list_table_by_kind(catalog_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--db", catalog_url, "catalog", "list", "--kind", "server")
    assert code == 0
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("id "))
    assert header.split() == ["id", "vendor", "model", "part_number", "rack_u", "sockets", "cpu_id", "cores_total",
                              "memory_gib",
                              "data_bays", "data_bay_form_factor", "pcie_slots", "memory_type", "pcie_gen",
                                  "drive_link_gbps", "max_w", "price",
                              "currency"]
    row = next(line for line in lines if line.startswith("r760-2s"))
    assert " 64 " in row and "xeon-gold-6430" in row
    assert not any(line.startswith("epyc-9354") for line in lines)


def test_list_table_shows_every_kind(catalog_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--db", catalog_url, "catalog", "list")
    assert code == 0
    for title in ("CPUs (2)", "Servers (1)", "Drives (1)", "NICs (1)", "DIMMs (1)"):
        assert title in out


def test_import_reports_every_problem_with_row_and_field_and_writes_nothing(
    catalog_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = small_seed_rows()
    for row in rows:
        row["id"] += "-new"
        if row["kind"] == "server":
            row["cpu_id"] = "no-such-cpu"
    rows[0]["cores"] = 0
    rows[3]["interface"] = "PCIe"
    path = tmp_path / "parts.csv"
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=sorted({k for r in rows for k in r}))
        writer.writeheader()
        writer.writerows(rows)
    code, out, err = _run(capsys, "--db", catalog_url, "catalog", "import", str(path))
    assert code == 2
    assert "3 problems; nothing was imported" in err
    assert "row 1 (line 2), cores: must be greater than 0" in err
    assert "row 3 (line 4), cpu_id: unknown cpu 'no-such-cpu'" in err
    assert "row 4 (line 5), interface: must be one of" in err
    code, out, _ = _run(capsys, "--db", catalog_url, "catalog", "list", "--format", "json")
    assert not any(p["id"].endswith("-new") for p in json.loads(out))


def test_import_success_counts_per_kind_and_replace(
    catalog_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "parts.json"
    path.write_text(json.dumps(small_seed_rows()), encoding="utf-8")
    code, _, err = _run(capsys, "--db", catalog_url, "catalog", "import", str(path))
    assert code == 2 and "use --replace" in err  # the seed already has these ids
    code, out, _ = _run(capsys, "--db", catalog_url, "catalog", "import", str(path), "--replace")
    assert code == 0
    assert "imported 6 parts" in out and "cpu 2, server 1, drive 1, nic 1, dimm 1" in out and "6 replaced" in out


def test_export_reimports_cleanly(catalog_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, exported, _ = _run(capsys, "--db", catalog_url, "catalog", "export", "--format", "csv")
    assert code == 0
    assert len(list(csv.DictReader(io.StringIO(exported)))) == 6
    out_file = tmp_path / "nics.json"
    code, _, err = _run(capsys, "--db", catalog_url, "catalog", "export", "--kind", "nic", "-o", str(out_file))
    assert code == 0 and "exported 1 parts" in err
    assert [p["kind"] for p in json.loads(out_file.read_text(encoding="utf-8"))] == ["nic"]
    (tmp_path / "all.csv").write_text(exported, encoding="utf-8")
    fresh = f"sqlite:///{tmp_path / 'fresh.sqlite'}"
    assert _run(capsys, "--db", fresh, "catalog", "seed")[0] == 0
    code, _, _ = _run(capsys, "--db", fresh, "catalog", "import", str(tmp_path / "all.csv"), "--replace")
    assert code == 0
    assert _run(capsys, "--db", fresh, "catalog", "export", "--format", "csv")[1] == exported


def test_seed_command_reports_what_it_did(catalog_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--db", catalog_url, "catalog", "seed")
    assert code == 0 and "0 added, 0 updated, 6 unchanged" in out


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("not-a-url", "not a database URL"),
        ("postgresql://me:hunter2@127.0.0.1:1/nowhere", "me:***@127.0.0.1:1"),
        ("sqlite:////no/such/dir/catalog.sqlite", "does not exist"),
    ],
)
def test_a_bad_database_url_exits_2_with_a_clear_message(
    url: str, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(capsys, "--db", url, "catalog", "list")
    assert code == 2
    assert err.startswith("refarch: cannot open the catalog at ") and expected in err
    assert "hunter2" not in err


def test_a_sqlite_file_that_is_not_a_catalog_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    path = tmp_path / "crm.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT)")
    code, _, err = _run(capsys, "--db", f"sqlite:///{path}", "catalog", "list")
    assert code == 2 and "not a refarch catalog" in err and "contacts" in err


def test_import_of_a_missing_or_malformed_file_exits_2(
    catalog_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(capsys, "--db", catalog_url, "catalog", "import", str(tmp_path / "nope.csv"))
    assert code == 2 and "no such file" in err
    (tmp_path / "broken.json").write_text("[{", encoding="utf-8")
    code, _, err = _run(capsys, "--db", catalog_url, "catalog", "import", str(tmp_path / "broken.json"))
    assert code == 2 and "not valid JSON" in err

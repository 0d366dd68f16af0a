"""Catalog files a spreadsheet or an attacker made: formula cells, duplicate keys, hostile numbers, closed pipes."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from app.cli.main import main
from catalog.engine import describe_db_error, mask_url, parse_url
from tests.catalog.conftest import small_seed_rows

pytestmark = pytest.mark.usefixtures("small_seed")
ROOT = Path(__file__).resolve().parents[2]
FORMULAS = ["=cmd|' /C calc'!A0", "@SUM(1+1)", "+1+1", "-2+3", "\t=1", "\r=1", "'=already quoted"]


def test_catalog_csv_export_neutralises_formulas_and_imports_them_back(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    db = f"sqlite:///{tmp_path / 'c.db'}"
    nic = next(r for r in small_seed_rows() if r["kind"] == "nic")
    rows = [dict(nic, id=f"evil-{i}", model=text, vendor=text) for i, text in enumerate(FORMULAS)]
    (tmp_path / "evil.json").write_text(json.dumps(rows))
    assert main(["--db", db, "catalog", "import", str(tmp_path / "evil.json")]) == 0
    assert main(["--db", db, "catalog", "export", "--kind", "nic", "-o", str(tmp_path / "out.csv")]) == 0
    with (tmp_path / "out.csv").open(newline="", encoding="utf-8") as fh:
        cells = [c for row in csv.reader(fh) for c in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
    db2 = f"sqlite:///{tmp_path / 'c2.db'}"
    assert main(["--db", db2, "catalog", "import", "--replace", str(tmp_path / "out.csv")]) == 0
    listed = []
    for url in (db, db2):
        capsys.readouterr()
        assert main(["--db", url, "catalog", "list", "--kind", "nic", "--format", "json"]) == 0
        listed.append({r["id"]: r["model"] for r in json.loads(capsys.readouterr().out)})
    assert listed[0] == listed[1]  # the export's quote marks are undone on import
    assert listed[1]["evil-0"] == FORMULAS[0] and listed[1]["evil-6"] == FORMULAS[6]


@pytest.mark.parametrize(("text", "field"), [
    ('[{"id": "a", "kind": "nic", "id": "b"}]', "[0].id"),
    ('[{"id": "a", " id": "b", "kind": "nic"}]', "id"),
    ('[{"id": "a", "kind": "nic", "price": ' + "9" * 5000 + "}]", "[0].price"),
    ('[{"id": "a", "kind": "nic", "price": NaN}]', "[0].price"),
    ('[{"id": "a", "kind": "nic", "watts": 1e999}]', "[0].watts"),
])
def test_hostile_json_rows_exit_2_naming_the_field(text: str, field: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rows.json"
    path.write_text(text)
    assert main(["--db", f"sqlite:///{tmp_path / 'c.db'}", "catalog", "import", str(path)]) == 2
    err = capsys.readouterr().err
    assert field in err and "internal error" not in err and "Traceback" not in err


def test_a_fifo_or_device_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "rows.json"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/zero"):
        assert main(["--db", f"sqlite:///{tmp_path / 'c.db'}", "catalog", "import", path]) == 2
        assert "not a regular file" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["catalog", "import"], ["catalog", "restore"], ["fit-usl"]])
def test_a_pipe_without_a_writer_is_refused_at_once_by_every_reader(tmp_path: Path, command: list[str],
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A FIFO named without .json/.csv: the catalog import (which looks at a file's start to tell JSON from CSV),
    the restore (SQLite or JSON dump, by the first bytes) and fit-usl (pgbench, HammerDB or CSV) opened it with a
    plain open() to look, which waits for a writer forever: the command hung (the window's import too). The call
    runs in a thread; a writer is let in only if it has not returned within 20 s, and that fails the test."""
    fifo = tmp_path / "incoming"
    os.mkfifo(fifo)
    codes: list[int] = []
    call = threading.Thread(target=lambda: codes.append(
        main(["--db", f"sqlite:///{tmp_path / 'c.db'}", *command, str(fifo)])), daemon=True)
    call.start()
    call.join(20)
    hung = call.is_alive()
    if hung:  # free the reader: a writer that closes at once ends its read
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        call.join(20)
    assert not hung, f"{command} waited for a writer on {fifo}"
    assert codes == [2] and "is a pipe or socket, not a regular file" in capsys.readouterr().err


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'c.db'}"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    big = [dict(r, id=f"nic-{i}") for i, r in enumerate([next(r for r in small_seed_rows() if r["kind"] == "nic")]
                                                        * 3000)]
    (tmp_path / "many.json").write_text(json.dumps(big))
    assert main(["--db", db, "catalog", "import", str(tmp_path / "many.json")]) == 0
    lister = subprocess.Popen([sys.executable, "-m", "app.cli.main", "--db", db, "catalog", "list"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    assert lister.stdout is not None and lister.stdout.readline()  # like `| head -1`
    lister.stdout.close()
    _, err = lister.communicate(timeout=120)
    assert err == b"" and lister.returncode == 141


@pytest.mark.parametrize("password", ["p@ss-W0rd!", "a:b/c%d@e", "s%40cr/t:x", "@:/%", "%zz@"])
def test_passwords_never_show_in_urls_or_messages(password: str) -> None:
    url = f"postgresql://refarch:{password}@db.example:5432/refarch"
    parsed = parse_url(url)
    assert parsed.host == "db.example" and parsed.database == "refarch" and parsed.username == "refarch"
    shown = mask_url(url)
    assert shown == "postgresql://refarch:***@db.example:5432/refarch"
    message = describe_db_error(RuntimeError(f"password authentication failed ({parsed.password})"), parsed)
    for text in (shown, message):
        assert str(parsed.password) not in text
        assert not any(len(piece) >= 2 and piece in text.replace("refarch", "").replace("db.example", "")
                       for piece in str(parsed.password).replace("@", " ").replace(":", " ").split())


def test_a_percent_encoded_password_is_decoded() -> None:
    assert parse_url("postgresql://u:s%40cret%2Fx@h/db").password == "s@cret/x"


@pytest.mark.postgres
@pytest.mark.parametrize("password", ["p@ss-W0rd!", "a:b/c%d@e"])
def test_a_refused_password_is_never_shown(pg_admin_engine: object, password: str) -> None:
    from catalog.errors import CatalogOpenError
    from catalog.store import CatalogStore

    url = pg_admin_engine.url  # type: ignore[attr-defined]
    raw = f"postgresql://{url.username}:{password}@{url.host}:{url.port or 5432}/{url.database}"
    with pytest.raises(CatalogOpenError) as caught:
        CatalogStore.open(raw)
    message = str(caught.value)
    assert "***" in message and f"@{url.host}" in message
    for piece in {password, *password.replace("@", " ").replace(":", " ").replace("/", " ").split()}:
        if len(piece) >= 2:
            assert piece not in message.replace(str(url.username), "").replace(str(url.host), "")


def test_rates_csv_export_neutralises_formulas_and_imports_them_back(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    db, db2 = f"sqlite:///{tmp_path / 'c.db'}", f"sqlite:///{tmp_path / 'c2.db'}"
    assert main(["--db", db, "catalog", "rates", "set", "EUR", "1.16", "2025-01-01", FORMULAS[0]]) == 0
    assert main(["--db", db, "catalog", "rates", "export", "-o", str(tmp_path / "rates.csv")]) == 0
    with (tmp_path / "rates.csv").open(newline="", encoding="utf-8") as fh:
        cells = [c for row in csv.reader(fh) for c in row]
    assert f"'{FORMULAS[0]}" in cells and not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
    assert main(["--db", db2, "catalog", "rates", "import", str(tmp_path / "rates.csv")]) == 0
    capsys.readouterr()
    assert main(["--db", db2, "catalog", "rates", "list", "--format", "json"]) == 0
    eur = next(r for r in json.loads(capsys.readouterr().out) if r["currency"] == "EUR")
    assert eur["source"] == FORMULAS[0]  # the quote mark is undone on import


@pytest.mark.parametrize(("text", "says"), [
    ("currency,usd_per_unit,as_of,source\nEUR,1.1,2025-01-01," + "x" * 200_000 + "\n", "field larger"),
    ("currency,usd_per_unit,as_of,source\nEUR,1.1,2025-01-01,a,b\n", "line 2 has 5 cells"),
    ("currency,currency,as_of,source\nEUR,1.1,2025-01-01,a\n", "once"),
    ('[{"currency": "EUR", "usd_per_unit": NaN, "as_of": "2025-01-01", "source": "x"}]', "[0].usd_per_unit"),
])
def test_a_hostile_rates_file_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                                        says: str) -> None:
    path = tmp_path / ("rates.json" if text.startswith("[") else "rates.csv")
    path.write_text(text)
    assert main(["--db", f"sqlite:///{tmp_path / 'c.db'}", "catalog", "rates", "import", str(path)]) == 2
    err = capsys.readouterr().err
    assert says in err and "internal error" not in err

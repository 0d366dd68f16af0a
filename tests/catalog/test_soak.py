"""The concurrent soak (scripts/catalog_soak.py) in short: editors, quote imports and reverts in real processes on
SQLite and PostgreSQL for two seconds each; nothing lost and the history adds up. The script runs 5 minutes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.catalog.conftest import PG_URL_ENV

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_a_short_concurrent_soak_loses_nothing(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    args = ["--seconds", "2", "--editors", "2", "--quoters", "1", "--reverters", "1"]
    if backend == "sqlite":
        args += ["--sqlite", str(tmp_path / "soak.sqlite"), "--pg", ""]
    else:
        request.getfixturevalue("pg_admin_engine")  # skips (or fails in CI) without a PostgreSQL to test against
        args += ["--no-sqlite", "--pg", os.environ[PG_URL_ENV]]
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "catalog_soak.py"), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "nothing lost, history adds up" in done.stdout
    assert " 0 edits" not in done.stdout and " 0 quotes" not in done.stdout  # the run did make changes

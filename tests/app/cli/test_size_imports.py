"""What `refarch size` loads, as a user runs it after the first time (fits, draws and catalog snapshot cached):
the modules of the scenario's own kind, none of the other kinds', and none of the libraries only other commands
need. Each name here was kept out on purpose; a later import that pulls one back in fails this test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
# after main: the modules loaded by the end of the command, as JSON on stderr
PROCESS = """
import atexit, json, sys
atexit.register(lambda: print("loaded:", json.dumps(sorted(sys.modules)), file=sys.stderr))
sys.argv = ["refarch", *sys.argv[1:]]
from app.cli.main import main
sys.exit(main())
"""
# libraries for other commands: fitting (scipy), the database (read once, then the snapshot), PDF, charts, window
NOT_FOR_SIZE = ["scipy", "sqlalchemy", "alembic", "reportlab", "matplotlib", "PySide6", "openpyxl"]
# the other commands' modules: `main` builds the parser of the command named (app.cli.main.build_parser)
OTHER_COMMANDS = [f"app.cli.commands.{name}" for name in ("bench", "calibrate", "catalog", "compare", "config",
                                                          "fit_usl", "growth", "gui", "optimize", "report",
                                                          "sensitivity")]
GREENPLUM = ["models.sizing.greenplum.design", "models.sizing.greenplum.metrics", "models.sizing.greenplum.confidence",
             "models.perf.scan_load", "models.perf.scan_load_estimates"]
OLTP = ["models.perf.gp_oltp", "models.perf.usl", "models.perf.usl_calibration"]
POSTGRES = ["models.sizing.postgres.design", "models.perf.memory"]
SAP_IQ = ["models.sizing.sap_iq.design", "models.perf.sap_iq"]
CASES = {
    # analytics: neither the OLTP model nor numpy.random (the Monte Carlo draw comes from the cache)
    "retail-dw-gen5.json": ("models.sizing.greenplum.design", [*OLTP, *POSTGRES, *SAP_IQ, "numpy.random"]),
    "gp-oltp.json": ("models.perf.gp_oltp", [*POSTGRES, *SAP_IQ]),
    # PostgreSQL's TPS model scales over vCPUs on study 001's USL (models.perf.usl), never Greenplum's OLTP model
    "pg-consolidation.json": ("models.sizing.postgres.design", [*GREENPLUM, "models.perf.gp_oltp", *SAP_IQ]),
    "sap-iq.json": ("models.sizing.sap_iq.design", [*GREENPLUM, *OLTP, *POSTGRES]),
}


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("size-imports")


def _size(home: Path, sample: str) -> set[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REFARCH_FIT_CACHE": str(home / "fits"),
           "REFARCH_CATALOG_CACHE": str(home / "catalogs"), "REFARCH_DATA_DIR": str(home / "data")}
    proc = subprocess.run([sys.executable, "-c", PROCESS, "--db", f"sqlite:///{home / 'cat.sqlite'}", "size",
                           str(ROOT / "resources" / "samples" / sample), "--format", "json"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=180, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.rstrip().endswith("}")
    line = next(x for x in proc.stderr.splitlines() if x.startswith("loaded: "))
    return set(json.loads(line.removeprefix("loaded: ")))


@pytest.mark.parametrize("sample", sorted(CASES))
def test_size_loads_its_kind_and_nothing_another_command_or_kind_needs(home: Path, sample: str) -> None:
    _size(home, sample)  # the first run: creates the catalog, fits, draws and caches them
    loaded = _size(home, sample)
    own, others = CASES[sample]
    assert own in loaded  # the check sees the sizer's modules at all
    assert sorted(m for m in [*NOT_FOR_SIZE, *OTHER_COMMANDS, *others] if m in loaded) == []

"""A refarch process spares the interpreter's collections at exit (what is alive then is frozen) and collects young
objects less often; a test calling `main` keeps its objects collectable as Python's defaults do; the output is the
same."""

from __future__ import annotations

import atexit
import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli.main import GC_YOUNG_THRESHOLD, main

ROOT = Path(__file__).resolve().parents[3]
# an atexit handler registered before main runs after main's (last in, first out): it sees the state at exit
PROCESS = """
import atexit, gc, sys
atexit.register(lambda: print("frozen at exit:", gc.get_freeze_count() > 0, "young threshold:", gc.get_threshold()[0],
                              file=sys.stderr))
sys.argv = ["refarch", *sys.argv[1:]]
from app.cli.main import main
sys.exit(main())
"""


def _refarch(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", PROCESS, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120, check=False)


def test_a_refarch_process_freezes_what_is_alive_at_exit_and_prints_all_of_its_output(tmp_path: Path) -> None:
    sample = ROOT / "resources" / "samples" / "retail-dw-gen5.json"
    proc = _refarch("--db", f"sqlite:///{tmp_path / 'cat.sqlite'}", "size", str(sample), "--format", "json")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert f"frozen at exit: True young threshold: {GC_YOUNG_THRESHOLD}" in proc.stderr
    assert proc.stdout.rstrip().endswith("}")  # the whole JSON document, flushed at exit as before
    helped = _refarch("--help")
    assert helped.returncode == 0 and "frozen at exit: True" in helped.stderr and "usage: refarch" in helped.stdout


def test_main_called_with_arguments_registers_nothing_at_exit(capsys: pytest.CaptureFixture[str]) -> None:
    before, threshold = atexit._ncallbacks(), gc.get_threshold()
    with pytest.raises(SystemExit):
        main(["--help"])
    assert atexit._ncallbacks() == before and gc.get_threshold() == threshold
    assert "usage: refarch" in capsys.readouterr().out

"""A refarch process does not scan the installed distributions for pydantic plugins (it uses none); a setting
of the variable by the user stands, and a test calling `main` leaves the environment alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli.main import PYDANTIC_PLUGINS_VAR, main

ROOT = Path(__file__).resolve().parents[3]
# after main: did pydantic's loader scan the entry points (its cache is filled only by a scan)?
PROCESS = """
import atexit, os, sys
def said():
    import pydantic.plugin._loader as loader
    print("scanned:", loader._plugins is not None, "|", os.environ.get("PYDANTIC_DISABLE_PLUGINS"), file=sys.stderr)
atexit.register(said)
sys.argv = ["refarch", *sys.argv[1:]]
from app.cli.main import main
sys.exit(main())
"""


def _size(tmp_path: Path, env_extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != PYDANTIC_PLUGINS_VAR}
    env.update(PYTHONPATH=str(ROOT), **env_extra)
    sample = ROOT / "resources" / "samples" / "retail-dw-gen5.json"
    return subprocess.run([sys.executable, "-c", PROCESS, "--db", f"sqlite:///{tmp_path / 'cat.sqlite'}", "size",
                           str(sample), "--format", "json"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120, check=False)


def test_a_refarch_process_builds_its_models_without_scanning_for_plugins(tmp_path: Path) -> None:
    proc = _size(tmp_path, {})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "scanned: False | __all__" in proc.stderr
    assert proc.stdout.rstrip().endswith("}")


def test_the_users_own_setting_stands(tmp_path: Path) -> None:
    proc = _size(tmp_path, {PYDANTIC_PLUGINS_VAR: "some-plugin"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "scanned: True | some-plugin" in proc.stderr


def test_main_called_with_arguments_leaves_the_environment_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PYDANTIC_PLUGINS_VAR, raising=False)
    with pytest.raises(SystemExit):
        main(["--help"])
    assert PYDANTIC_PLUGINS_VAR not in os.environ

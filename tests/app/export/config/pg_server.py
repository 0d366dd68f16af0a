"""A throwaway PostgreSQL cluster from the installed server binaries, for loading generated configuration.

As root (CI) the server runs as the `postgres` user via runuser; otherwise as the current user. Without
PostgreSQL binaries the tests skip on a laptop and fail in CI, like the catalog's PostgreSQL tests.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

UNITS_KB = {"B": 1 / 1024, "kB": 1, "MB": 1024, "GB": 1024**2, "TB": 1024**3}
UNITS_MS = {"us": 0.001, "ms": 1, "s": 1000, "min": 60_000, "h": 3_600_000, "d": 86_400_000}


def pg_bin() -> Path | None:
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/postgres"), key=lambda p: int(p.parts[-3]))
    if versions:
        return versions[-1].parent
    found = shutil.which("postgres")
    return Path(found).parent if found else None


class PgCluster:
    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="refarch-pgconf-"))
        self.data = self.root / "data"
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.root, "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
        (self.data / "conf.d").mkdir()
        if self.as_root:
            shutil.chown(self.data / "conf.d", "postgres")
        with (self.data / "postgresql.conf").open("a") as f:
            f.write(f"\ninclude_dir = 'conf.d'\nlisten_addresses = ''\nunix_socket_directories = '{self.root}'\n"
                    "port = 5499\n")
        self.running = False

    def _run(self, tool: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        cmd = [str(self.bindir / tool), *args]
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, check=check, timeout=120)

    def include(self, text: str | None) -> None:
        """Put `text` as the only conf.d include (None removes it)."""
        target = self.data / "conf.d" / "refarch.conf"
        if text is None:
            target.unlink(missing_ok=True)
            return
        target.write_text(text, encoding="utf-8")
        if self.as_root:
            shutil.chown(target, "postgres")

    def show_raw(self, name: str) -> str:
        """`postgres -C name`: the value the server reads from its files, in the parameter's base unit."""
        out = self._run("postgres", "-D", str(self.data), "-C", name, check=False)
        if out.returncode != 0:
            raise AssertionError(f"postgres -C {name} failed: {out.stderr.strip()}")
        return out.stdout.strip()

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-w", "-l", str(self.root / "log"), "start")
        self.running = True

    def psql(self, *args: str) -> str:
        out = self._run("psql", "-h", str(self.root), "-p", "5499", "-U", "postgres", "-d", "postgres",
                        "-v", "ON_ERROR_STOP=1", "-qAt", *args, check=False)
        if out.returncode != 0:
            raise AssertionError(f"psql {' '.join(args)} failed: {out.stderr.strip()}")
        return out.stdout

    def unit(self, name: str) -> str:
        return self.psql("-c", f"SELECT coalesce(unit, '') FROM pg_settings WHERE name = '{name}'").strip()

    def stop(self) -> None:
        if self.running:
            self._run("pg_ctl", "-D", str(self.data), "-w", "-m", "fast", "stop", check=False)
            self.running = False
        shutil.rmtree(self.root, ignore_errors=True)


def to_base(value: object, unit: str, base_unit: str) -> float | str:
    """A setting stated in `unit` expressed in the server's base unit (e.g. 3072 MB in 8kB pages = 393216)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if not base_unit:
        return value if isinstance(value, str) else float(value)  # type: ignore[arg-type]
    m = re.fullmatch(r"(\d*)(\D+)", base_unit)
    assert m, base_unit
    factor, name = float(m.group(1) or 1), m.group(2)
    table = UNITS_KB if name in UNITS_KB else UNITS_MS
    given = table[unit] if unit else table[name]
    return float(value) * given / (table[name] * factor)  # type: ignore[arg-type]


def require_pg() -> Path:
    bindir = pg_bin()
    if bindir is None:
        if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
            pytest.fail("CI needs the PostgreSQL server binaries (.ci/run installs postgresql)")
        pytest.skip("no PostgreSQL server binaries to load the generated files with")
    return bindir

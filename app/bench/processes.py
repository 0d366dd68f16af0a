"""Running refarch as the user does: a fresh process per run, timed from spawn to exit.

`run` returns the wall time, the CPU time and the peak resident memory of that one child (its VmHWM), so a
figure includes interpreter start, imports, opening the catalog and printing, like the user's wait. The CPU time
(user + system) is the work the command did: on a shared machine the wall time also holds the other jobs' turns.
Each measurement first runs once untimed (disk cache warm, calibration fits, catalog snapshot, bytecode and
compiled dataclass methods cached, as on every run after the first) and then takes the median of `repeat` runs.
The children keep bytecode, compiled dataclass methods, fits and catalog snapshots in folders of this bench run:
in the user's cache folder another refarch version run meanwhile (another checkout, another install) could
replace them between the rounds.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "resources" / "samples"
PEAK_MARK = "refarch-bench-peak-kib="
# `python -m app.cli.main` plus one thing: at exit the child prints its peak memory (VmHWM) to stderr.
# The parent's wait4 figure cannot be used: a forked child's high-water mark starts at the parent's size.
_ENTRY = """
import atexit, runpy, sys
def _peak():
    try:
        with open('/proc/self/status') as f:
            kib = next(line.split()[1] for line in f if line.startswith('VmHWM:'))
        print('""" + PEAK_MARK + """' + kib, file=sys.stderr)
    except (OSError, StopIteration):
        pass
atexit.register(_peak)
sys.argv[0] = 'refarch'
runpy.run_module('app.cli.main', run_name='__main__', alter_sys=True)
"""
REFARCH = (sys.executable, "-c", _ENTRY)


@dataclass(frozen=True)
class Run:
    seconds: float
    peak_mib: float
    cpu_seconds: float
    returncode: int
    stderr: str


_HOME: tempfile.TemporaryDirectory[str] | None = None


def _home() -> Path:
    """Where the children keep compiled bytecode and caches for this bench run (removed when the bench ends)."""
    global _HOME
    if _HOME is None:
        _HOME = tempfile.TemporaryDirectory(prefix="refarch-bench-home-")
    return Path(_HOME.name)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    # An installed refarch runs from compiled bytecode (pip compiles at install); a shell with
    # PYTHONDONTWRITEBYTECODE would make every child compile every module again, which no user waits for.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(_home() / "pycache")
    env["REFARCH_FIT_CACHE"] = str(_home() / "fits")
    env["REFARCH_CATALOG_CACHE"] = str(_home() / "catalogs")
    env["REFARCH_CODE_CACHE"] = str(_home() / "code")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    return env


def run(args: Sequence[str]) -> Run:
    cpu_before = _children_cpu()
    start = time.perf_counter()
    proc = subprocess.run(list(args), cwd=ROOT, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, check=False)
    seconds = time.perf_counter() - start
    cpu_seconds = _children_cpu() - cpu_before
    lines = proc.stderr.decode(errors="replace").splitlines()
    peaks = [line.removeprefix(PEAK_MARK) for line in lines if line.startswith(PEAK_MARK)]
    peak_mib = int(peaks[-1]) / 1024.0 if peaks else float("nan")  # nan: not a refarch child, or no /proc
    stderr = "\n".join(x for x in lines if not x.startswith(PEAK_MARK))
    return Run(seconds, peak_mib, cpu_seconds, proc.returncode, stderr)


def median_run(args: Sequence[str], repeat: int = 5, warm: bool = True) -> Run:
    """Median wall time (and the largest peak memory) of `repeat` fresh processes."""
    if warm:
        run(args)
    runs = [run(args) for _ in range(repeat)]
    failed = [r for r in runs if r.returncode != 0]
    return Run(statistics.median(r.seconds for r in runs), max(r.peak_mib for r in runs),
               statistics.median(r.cpu_seconds for r in runs),
               failed[0].returncode if failed else 0, failed[0].stderr if failed else "")


def _children_cpu() -> float:
    """User + system seconds of the children waited for so far (nan where the OS does not say)."""
    try:
        import resource
    except ImportError:  # Windows
        return float("nan")
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def refarch(*args: str) -> tuple[str, ...]:
    return (*REFARCH, *args)

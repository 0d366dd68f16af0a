"""Benchmark of the window as the user starts it, in fresh `refarch gui PROJECT` processes (offscreen Qt,
the bench's SQLite catalog, the sample project):

- `gui.start_to_first_results_s`: from spawning the process to the selected scenario's result painted in
  the window, the moment the user can read a design (target <= 1 s);
- `gui.first_results_over_numpy`: the first over `python -c "import numpy"` timed in the same round (paired,
  like the start-up ratios), so the figure can be read on a loaded machine;
- `gui.start_to_all_results_s`: to every scenario sized and the selected one's estimate curve computed (the
  window idle; the window computes a curve for the scenario on screen only).

The child is the real entry point (`app.cli.main`, interactive window) with one addition: it prints a mark
when the first result is painted and when the window is idle, then closes the window. The parent stops the
clocks when it reads the marks. The marks are hooked into the window's class as the start imports it, after Qt
(`app.gui.qt_start.import_qt`), so every module loads in the user's order: a child importing the window's
module first loaded ~300 modules after Qt before its per-import source check was made cheap, a cost (0.1-0.25 s)
no user's start pays. Every process shares one cache/config home: one untimed run first (disk
cache, bytecode, fits and catalog snapshot warm, as on every start after the first), then the median of
`RUNS`.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from app.bench.registry import BenchResult, benchmark

RUNS = 5
CHILD = """
import runpy, sys
import app.gui.qt_start as qt_start

_import_qt = qt_start.import_qt


def import_qt():  # where the window's start imports Qt; the window's module is imported right after it
    _import_qt()
    import app.gui.main_window as mw

    hook(mw.MainWindow)


def hook(window):
    first = []
    on_result, on_busy = window._on_result, window._on_busy

    def result(self, uid):
        on_result(self, uid)
        if not first and uid == self.current_uid and uid in self.coordinator.results:
            first.append(uid)
            self.repaint()  # shown means painted, not only handed to Qt
            print("FIRST", flush=True)

    def busy(self, busy):
        on_busy(self, busy)
        if not busy and first:
            self.repaint()
            print("ALL", len(self.doc.entries), flush=True)
            self.close()

    window._on_result, window._on_busy = result, busy


qt_start.import_qt = import_qt
sys.argv = ["refarch", *sys.argv[1:]]
runpy.run_module("app.cli.main", run_name="__main__", alter_sys=True)
"""


def _start_to_results(db: str, project: Path, home: Path) -> tuple[float, float, str]:
    """Seconds to the first result painted and to the window idle (nan when the mark never came)."""
    from app.bench.processes import ROOT, _env

    env = _env()
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):  # not the user's recent files or caches
        env[var] = str(home / var.lower())
    env["QT_QPA_PLATFORM"] = "offscreen"
    first = every = float("nan")
    last = ""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", CHILD, "--db", db, "gui", str(project)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        now = time.perf_counter() - start
        last = line.strip()
        if last == "FIRST":
            first = now
        elif last.startswith("ALL"):
            every = now
            break
    proc.stdout.close()
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    return first, every, last


@benchmark("gui")
def bench_window_results() -> BenchResult:
    from app.bench.catalogs import scaled_database
    from app.bench.processes import SAMPLES, run

    numpy = (sys.executable, "-c", "import numpy")
    project = SAMPLES / "sample.refarch.json"
    out = BenchResult()
    with tempfile.TemporaryDirectory(prefix="refarch-bench-") as tmp:
        db = scaled_database(Path(tmp), 1)
        home = Path(tmp) / "home"
        _start_to_results(db, project, home)  # untimed: caches warm, as on every start after the first
        run(numpy)
        runs, numpy_s = [], []
        for _ in range(RUNS):  # round by round, so each ratio pairs runs made moments apart
            numpy_s.append(run(numpy).seconds)
            runs.append(_start_to_results(db, project, home))
    bad = [last for first, every, last in runs if first != first or every != every]  # nan: a mark never came
    if bad:
        out.problems.append("gui.start_to_first_results_s: the window did not show its results "
                            f"({bad[0] or 'no output'})")
    out.metrics["gui.start_to_first_results_s"] = statistics.median(first for first, _, _ in runs)
    out.metrics["gui.start_to_all_results_s"] = statistics.median(every for _, every, _ in runs)
    ratios = [first / n for (first, _, _), n in zip(runs, numpy_s, strict=True)]
    out.metrics["gui.first_results_over_numpy"] = statistics.median(ratios)
    scenarios = runs[0][2].split()[-1] if runs and runs[0][2] else "?"
    out.notes.append(f"gui.start_to_first_results_s: fresh `refarch gui {project.name}` process ({scenarios} "
                     f"scenarios), spawn to the selected scenario's result painted, median of {RUNS} after one "
                     "untimed run; target <= 1 s. gui.start_to_all_results_s: to every result and the selected one's "
                     "estimate curve")
    return out

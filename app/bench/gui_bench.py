"""Benchmark of the window: `gui.window_shown_ms`, the median time from creating the main window on
the sample project to the moment every scenario's result is on screen (offscreen Qt, seed catalog
in memory, so the database is not part of it). The target is under 1 s; nothing asserts it.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

from app.bench.registry import BenchResult, benchmark

RUNS = 5


@benchmark("gui")
def bench_window_shown() -> BenchResult:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from app.gui.launch import quiet_offscreen_warnings, wait_until_idle
    from app.gui.main_window import MainWindow
    from catalog.seed import seed_catalog

    quiet_offscreen_warnings()
    app = QApplication.instance() or QApplication([])
    catalog = seed_catalog()
    out = BenchResult()
    times: list[float] = []
    with tempfile.TemporaryDirectory(prefix="refarch-bench-gui-") as tmp:
        settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat)
        for _ in range(RUNS + 1):  # the first run warms imports and fonts: not counted
            start = time.perf_counter()
            window = MainWindow(catalog=catalog, settings=settings, data_dir=Path(tmp), interactive=False)
            window.resize(1400, 900)
            window.show()
            idle = wait_until_idle(window)
            app.processEvents()
            times.append(time.perf_counter() - start)
            if not idle:
                out.problems.append("gui.window_shown_ms: the window did not finish sizing within the timeout")
            window.ask_save_changes = lambda: "discard"
            window.close()
            window.deleteLater()
            app.processEvents()
    out.metrics["gui.window_shown_ms"] = 1e3 * statistics.median(times[1:])
    out.notes.append(f"gui.window_shown_ms: sample project ({len(window.doc.entries)} scenarios), median of {RUNS}; "
                     "target < 1,000 ms")
    return out

"""The GUI bench's child is the real `refarch gui` start with two marks hooked in where the start imports the
window (after Qt): both marks come, so the figures time the window as the user starts it. No speed is asserted."""

from __future__ import annotations

import math
from pathlib import Path

from app.bench import gui_bench
from app.bench.catalogs import scaled_database
from app.bench.processes import SAMPLES


def test_the_child_marks_the_first_result_and_the_idle_window(tmp_path: Path) -> None:
    db = scaled_database(tmp_path, 1)
    first, every, last = gui_bench._start_to_results(db, SAMPLES / "sample.refarch.json", tmp_path / "home")
    assert not math.isnan(first) and not math.isnan(every), last
    assert first <= every
    assert last == "ALL 6"  # every scenario of the sample project was sized

"""Importing Qt when the window starts, without two costs that show nothing on screen.

- PySide6 (6.4 and later) reads the whole source of every module imported after it, through
  `inspect.getsource` (linecache, tokenize), only to see whether the text mentions "PySide6" (its
  `__feature__` switches apply to such modules). 147 modules load between Qt and the first result on
  screen, the window's and the engine's on the sizing thread: 20 ms of CPU in all. The same test on the
  file's bytes gives the same answer in microseconds (`cheapen_pyside_source_check`).
- Starting the window allocates what lives as long as the process (the window's modules, classes, Qt enums,
  widgets). Python's cyclic collector walks it repeatedly meanwhile and finds no garbage: `collector_held`
  keeps the collector off while the window is built, then moves what the start left alive to the permanent
  generation (`gc.freeze`), so the collections during the sizing that follows, and at exit, skip it too.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

_FEATURE_MODULES = ("shibokensupport.feature", "PySide6.support.feature")


def import_qt() -> None:
    """Import QtWidgets, then replace PySide6's source check before the window's modules load."""
    import PySide6.QtWidgets  # noqa: F401

    cheapen_pyside_source_check()


def cheapen_pyside_source_check() -> bool:
    """Replace PySide6's per-import source check by the same test on the file's bytes.

    A module without a readable `.py` file (built in, extension, zipped) still goes through PySide's own check.
    Returns False, changing nothing, when this PySide6 has no such check.
    """
    feature = next((m for name in _FEATURE_MODULES if (m := sys.modules.get(name)) is not None), None)
    original = getattr(feature, "_mod_uses_pyside", None)
    if feature is None or not callable(original):
        return False
    if getattr(original, "pyside_check", None) is not None:  # replaced already
        return True
    # a private hook of PySide's feature module, which its stubs do not declare, replaced on purpose
    feature._mod_uses_pyside = mentions_pyside(original)  # type: ignore[attr-defined]
    return True


def mentions_pyside(pyside_check: Callable[[ModuleType], bool]) -> Callable[[ModuleType], bool]:
    """`pyside_check`'s answer ("PySide6" in the module's source), read from the file's bytes where it has one:
    "PySide6" is ASCII, so it is in the text exactly when it is in the bytes of any ASCII-compatible encoding."""

    def check(module: ModuleType) -> bool:
        origin = getattr(getattr(module, "__spec__", None), "origin", None)
        if isinstance(origin, str) and origin.endswith(".py"):
            try:
                with open(origin, "rb") as fh:
                    return b"PySide6" in fh.read()
            except OSError:
                pass
        return pyside_check(module)

    check.pyside_check = pyside_check  # type: ignore[attr-defined]  # marks the replacement (read above)
    return check


def starting_process() -> bool:
    """No QApplication yet: this process starts its window now (tests and a second window reuse theirs)."""
    widgets: Any = sys.modules.get("PySide6.QtWidgets")
    return widgets is None or widgets.QApplication.instance() is None


@contextmanager
def collector_held(hold: bool = True) -> Iterator[None]:
    """Collector off inside, then what is alive frozen. `hold=False` changes nothing: a test process starting
    a window keeps its objects collectable."""
    if not hold:
        yield
        return
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()

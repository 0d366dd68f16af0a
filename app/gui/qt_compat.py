"""A guard against a reference-counting bug in the installed PySide6 that would crash the window.

PySide6 6.12.0 on CPython 3.11 drops one reference to `True` on every `Signal.emit()`
made from Python and one to `None` for every Python callable a QThreadPool runs. Those
objects start with a few hundred references, so after a few hundred edits the
interpreter aborts ("bool_dealloc: deallocating True or False"). CPython 3.12+ makes
them immortal, so the bug is harmless there.

The guard measures the bug once and, where it is present, adds a large permanent
reference count to the affected singletons. They are never freed in a correct
program anyway, so the extra references cost nothing, and if a fixed PySide6 is
installed the probe finds no leak and nothing is changed.
"""

from __future__ import annotations

import ctypes
import sys

_PIN = 1 << 40  # far more emits than any session makes
_done = False


def _emit_drops_true_refs() -> bool:
    from PySide6.QtCore import QObject, Signal

    class _Probe(QObject):
        ping = Signal(int)

    probe = _Probe()
    before = sys.getrefcount(True)
    for i in range(8):
        probe.ping.emit(i)
    return sys.getrefcount(True) < before


def _pin(obj: object) -> None:
    # CPython only: ob_refcnt is the first field of every object, at id(obj)
    ctypes.c_ssize_t.from_address(id(obj)).value += _PIN


def guard_refcount_bugs() -> bool:
    """Apply the guard if this PySide6 needs it; True when it did."""
    global _done
    if _done or sys.implementation.name != "cpython" or sys.version_info >= (3, 12):
        return False
    _done = True
    if not _emit_drops_true_refs():
        return False
    for singleton in (True, False, None):
        _pin(singleton)
    return True

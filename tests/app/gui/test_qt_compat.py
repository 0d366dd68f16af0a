"""The refcount guard: a long session of signal emits must not bring `True` near zero."""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal

import app.gui  # noqa: F401  (importing the package applies the guard)


class _Sender(QObject):
    ping = Signal(int)


def test_many_emits_leave_true_alive() -> None:
    sender = _Sender()
    got: list[int] = []
    sender.ping.connect(got.append)
    for i in range(5000):  # a long editing session's worth of signals
        sender.ping.emit(i)
    assert len(got) == 5000
    assert sys.getrefcount(True) > 1000

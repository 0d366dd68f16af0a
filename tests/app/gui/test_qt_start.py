"""The window's start imports Qt without PySide6's source reading (the cheaper check answers as PySide's own) and
holds the cyclic collector off while it builds the window."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import app.gui.main_window  # noqa: F401  (the window's modules loaded, as when it starts)
from app.gui import qt_start


def _feature() -> ModuleType:
    return next(m for name in qt_start._FEATURE_MODULES if (m := sys.modules.get(name)) is not None)


def _pyside_check(feature: ModuleType):  # type: ignore[no-untyped-def]
    check = feature._mod_uses_pyside
    return getattr(check, "pyside_check", check)  # PySide's own, even when replaced already


# PySide's own check calls module_repr on every loaded module; under pytest-xdist that includes execnet's
# built-in ones, whose module_repr Python 3.11 deprecates: the warning is PySide's, not ours.
@pytest.mark.filterwarnings("ignore:BuiltinImporter.module_repr:DeprecationWarning")
def test_the_cheap_check_answers_as_pysides_own_for_every_loaded_module() -> None:
    original = _pyside_check(_feature())
    cheap = qt_start.mentions_pyside(original)
    modules = [m for m in list(sys.modules.values()) if isinstance(m, ModuleType) and hasattr(m, "__name__")]
    differing = [m.__name__ for m in modules if cheap(m) != original(m)]
    assert differing == []
    read = [m for m in modules if str(getattr(getattr(m, "__spec__", None), "origin", "")).endswith(".py")]
    assert len(read) > 300 and any(cheap(m) for m in read) and not all(cheap(m) for m in read)


def test_a_module_imported_after_qt_is_marked_as_pyside_marks_it(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    feature = _feature()
    monkeypatch.setattr(feature, "_mod_uses_pyside", _pyside_check(feature))  # put back after the test
    assert qt_start.cheapen_pyside_source_check()
    assert qt_start.cheapen_pyside_source_check()  # a second call keeps the one replacement
    assert feature._mod_uses_pyside.pyside_check is _pyside_check(feature)
    (tmp_path / "h17_uses_qt.py").write_text("from PySide6.QtCore import Qt\nX = Qt.AlignmentFlag.AlignLeft\n")
    (tmp_path / "h17_plain.py").write_text("Y = 1  # no Qt here\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("h17_uses_qt", "h17_plain"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    import h17_plain  # noqa: F401
    import h17_uses_qt  # noqa: F401

    assert feature.pyside_feature_dict["h17_uses_qt"] == 0  # uses PySide: no feature switched on
    assert feature.pyside_feature_dict["h17_plain"] == -1  # ignored by the feature switching


def test_a_test_process_with_its_application_is_not_a_starting_process(qapp) -> None:  # type: ignore[no-untyped-def]
    assert not qt_start.starting_process()


@pytest.fixture
def collector() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    gc.unfreeze()  # this test process keeps its objects collectable
    if not was:
        gc.disable()


def test_held_turns_the_collector_off_inside_and_freezes_what_is_alive_after(collector: None) -> None:
    gc.unfreeze()
    with qt_start.collector_held():
        assert not gc.isenabled()
        kept = [[n] for n in range(1000)]  # allocated by the start, alive after it
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(kept)


def test_the_collector_comes_back_after_an_error_inside(collector: None) -> None:
    with pytest.raises(SystemExit), qt_start.collector_held():  # an error while the window is built
        raise SystemExit(0)
    assert gc.isenabled()


def test_not_holding_changes_nothing(collector: None) -> None:
    gc.unfreeze()
    with qt_start.collector_held(False):
        assert gc.isenabled()
    assert gc.get_freeze_count() == 0

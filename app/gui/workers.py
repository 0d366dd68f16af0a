"""Off-UI-thread work: a cancellable job on the global QThreadPool, and the live-sizing coordinator.

The window never waits for the engine: edits are debounced (`DEBOUNCE_MS`), the
sizing runs in a `QRunnable`, and a result is kept only if it answers the latest
request for its scenario (tokens), so a slow old answer never overwrites a newer one.

A request can be marked background (the scenarios not on screen when a project opens): those
start once no foreground sizing is queued or running, so the one the user looks at does not share
the interpreter with the others and shows first. The estimate curve (a dozen sizings at other
host counts) is computed for the scenario on screen only (`want_curve`): the others' are not shown.
"""

from __future__ import annotations

import contextlib
import gc
import os
import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, cast

from PySide6.QtCore import QObject, QThreadPool, QTimer, Signal, SignalInstance, Slot
from shiboken6 import isValid as shiboken_valid

from app.services import sizing
from app.services.errors import ServiceError
from app.services.sizing import Curve
from models.hardware import HardwareCatalog
from models.problems import ROOT, Problem
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.tasks import Cancelled, Progress

DEBOUNCE_MS = 150
PROGRESS_STEPS = 200  # progress signals per job at most (per total): a bar moves in half-percent steps

Work = Callable[[threading.Event, Progress], Any]  # raises models.tasks.Cancelled when it sees its flag
T = TypeVar("T")


_collector_lock = threading.Lock()
_collector_pauses = 0  # bulk jobs running: the cyclic collector stays off until the last one ends
_collector_was_enabled = True


@contextmanager
def collector_paused() -> Iterator[None]:
    """Keep Python's cyclic garbage collector from running while a bulk job (a 100,000-part import or export)
    allocates, and freeze what the job leaves alive.

    A collection of the oldest generation holds the GIL while it walks every live object: with a big catalog in
    memory each one took 0.3-1.6 s, and a bulk job triggers one each time the heap grows by a quarter, so the UI
    thread stalled as often. Reference counting still frees the job's garbage; what survives (the catalog the
    job read) moves to the permanent generation (`gc.freeze`), which later collections skip.
    """
    global _collector_pauses, _collector_was_enabled
    with _collector_lock:
        if _collector_pauses == 0:
            _collector_was_enabled = gc.isenabled()
            gc.disable()
        _collector_pauses += 1
    try:
        yield
    finally:
        with _collector_lock:
            _collector_pauses -= 1
            if _collector_pauses == 0:
                gc.freeze()
                if _collector_was_enabled:
                    gc.enable()


class _Box:
    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value


def _emit(signal: SignalInstance, *args: object) -> None:
    """Report, unless the signal object is gone: the window closed and the application is ending while this job
    ran (Qt deleted the object under it), so nobody is left to tell; before, the pool thread printed a traceback."""
    with contextlib.suppress(RuntimeError):  # "Signal source has been deleted"
        signal.emit(*args)


class _JobSignals(QObject):
    finished = Signal(int, object)
    failed = Signal(int, list)
    cancelled = Signal(int)
    progress = Signal(int, int, int)


class Job:
    """Run `work(cancel_event, progress)` on a pool thread; report through queued signals.

    A plain object whose `run` the pool calls, not a QRunnable subclass: a Python QRunnable
    is deleted by the pool on its thread, which PySide does not survive at interpreter exit.
    """

    def __init__(self, token: int, work: Work, bulk: bool = False) -> None:
        self.token = token
        self.work = work
        self.bulk = bulk  # allocates a whole catalog: run with the cyclic collector paused
        self.cancel_event = threading.Event()
        self.signals = _JobSignals()  # created on the UI thread, so its slots run there
        self._shown_step: tuple[int, int] | None = None

    def cancel(self) -> None:
        self.cancel_event.set()

    def _progress(self, done: int, total: int) -> None:
        # only when the bar would move: a task reporting every row would queue 100,000 signals on the UI thread
        step = (done * PROGRESS_STEPS // max(total, 1), total)
        if step != self._shown_step:
            self._shown_step = step
            _emit(self.signals.progress, self.token, done, total)

    def run(self) -> None:
        try:
            if self.bulk:
                with collector_paused():
                    value = self.work(self.cancel_event, self._progress)
            else:
                value = self.work(self.cancel_event, self._progress)
        except Cancelled:
            _emit(self.signals.cancelled, self.token)
            return
        except ServiceError as exc:
            _emit(self.signals.failed, self.token, exc.shown())
            return
        except Exception as exc:  # a bug in a model must not take the window down; show it instead
            if os.environ.get("REFARCH_DEBUG"):
                traceback.print_exc()
            _emit(self.signals.failed, self.token, [Problem(ROOT, f"internal error: {type(exc).__name__}: {exc}")])
            return
        # Finished, even if Cancel came after the work's last check: the file is written or the rows imported,
        # and saying "cancelled, nothing was written" would be false. A caller that no longer wants the value
        # (a superseded sizing) drops it itself.
        # Boxed: PySide mis-counts references to None sent through a queued `object` signal, which crashes the
        # interpreter at exit once enough jobs have returned None.
        _emit(self.signals.finished, self.token, _Box(value))


class JobRunner(QObject):
    """Starts jobs and keeps them (and their signal objects) alive until they report."""

    _next_token = 0

    def __init__(self, parent: QObject | None = None, pool: QThreadPool | None = None) -> None:
        super().__init__(parent)
        self.pool = pool or QThreadPool.globalInstance()
        self.live: dict[int, Job] = {}

    def start(
        self,
        work: Callable[[threading.Event, Progress], T],
        on_done: Callable[[T], None],
        on_failed: Callable[[list[Problem]], None] | None = None,
        on_progress: Callable[[int, int], None] | None = None,
        on_cancelled: Callable[[], None] | None = None,
        priority: int = 0,
        bulk: bool = False,
    ) -> Job:
        """`bulk`: the work reads or writes a whole catalog; see `collector_paused`."""
        JobRunner._next_token += 1
        job = Job(JobRunner._next_token, work, bulk)
        self.live[job.token] = job

        # A job can report after its owner (a window, the coordinator) was deleted: the runner is
        # the owner's child and dies with it, so a dead runner means nobody is left to tell, and
        # calling on would emit on deleted objects ("Signal source has been deleted").
        def finished(token: int, box: _Box) -> None:
            if shiboken_valid(self) and self.live.pop(token, None) is not None:
                on_done(cast(T, box.value))  # what `work` returned, boxed by Job.run

        def failed(token: int, problems: list[Problem]) -> None:
            if shiboken_valid(self) and self.live.pop(token, None) is not None and on_failed is not None:
                on_failed(problems)

        def cancelled(token: int) -> None:
            if shiboken_valid(self) and self.live.pop(token, None) is not None and on_cancelled is not None:
                on_cancelled()

        job.signals.finished.connect(finished)
        job.signals.failed.connect(failed)
        job.signals.cancelled.connect(cancelled)
        if on_progress is not None:
            job.signals.progress.connect(lambda _t, d, n: on_progress(d, n))
        self.pool.start(job.run, priority)
        return job

    def busy(self) -> bool:
        return bool(self.live)

    def cancel_all(self) -> None:
        for job in self.live.values():
            job.cancel()


class SizingCoordinator(QObject):
    """Keeps one up-to-date SizingResult (and estimate curve) per scenario uid."""

    resultReady = Signal(str)
    sizingFailed = Signal(str, list)
    curveReady = Signal(str)
    busyChanged = Signal(bool)

    def __init__(self, catalog: Callable[[], HardwareCatalog | None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._catalog = catalog
        self.runner = JobRunner(self)
        self.results: dict[str, SizingResult] = {}
        self.result_inputs: dict[str, Scenario] = {}  # the scenario each result was computed from
        self.problems: dict[str, list[Problem]] = {}
        self.curves: dict[str, Curve] = {}
        self.want_curves = True
        self.curve_uid: str | None = None  # the scenario whose curve is wanted: the one on screen
        self._pending: dict[str, Scenario] = {}
        self._background: dict[str, Scenario] = {}  # waiting for the foreground to finish
        self._latest: dict[str, int] = {}
        self._jobs: dict[str, Job] = {}
        self._curve_jobs: dict[str, Job] = {}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._flush)
        self._was_busy = False

    def request(self, uid: str, scenario: Scenario, immediate: bool = False, background: bool = False) -> None:
        if background:
            self._pending.pop(uid, None)
            old = self._jobs.get(uid)
            if old is not None:
                old.cancel()  # superseded; its answer is dropped when it reports
            self._background[uid] = scenario
            self._release_background_soon()
            self._notify_busy()
            return
        self._background.pop(uid, None)
        self._pending[uid] = scenario
        if immediate:
            self._timer.stop()
            self._flush()
        else:
            self._timer.start()  # restarting it is the debounce
        self._notify_busy()

    def forget(self, uid: str) -> None:
        self._pending.pop(uid, None)
        self._background.pop(uid, None)
        for table in (self._jobs, self._curve_jobs):
            job = table.pop(uid, None)
            if job is not None:
                job.cancel()
        self._latest.pop(uid, None)
        for store in (self.results, self.result_inputs, self.problems, self.curves):
            store.pop(uid, None)

    def busy(self) -> bool:
        return bool(self._pending) or bool(self._jobs) or bool(self._curve_jobs) or bool(self._background)

    def sizing(self, uid: str) -> bool:
        """A new result for this scenario is on its way (the curve aside)."""
        return uid in self._pending or uid in self._jobs or uid in self._background

    def cancel_all(self) -> None:
        self._timer.stop()
        self._pending.clear()
        self._background.clear()
        self.runner.cancel_all()

    def _release_background_soon(self) -> None:
        # after the events already queued: the result that just arrived is painted before the others start
        QTimer.singleShot(0, self, self._release_background)

    @Slot()
    def _release_background(self) -> None:
        if not self._background or self._pending or self._jobs:
            return
        waiting, self._background = self._background, {}
        self._pending.update(waiting)
        self._flush()

    def _notify_busy(self) -> None:
        now = self.busy()
        if now != self._was_busy:
            self._was_busy = now
            self.busyChanged.emit(now)

    @Slot()
    def _flush(self) -> None:
        catalog = self._catalog()
        pending, self._pending = self._pending, {}
        for uid, scenario in pending.items():
            if catalog is None:
                self.problems[uid] = [Problem("catalog", "no hardware catalog is open")]
                self.sizingFailed.emit(uid, self.problems[uid])
                continue
            old = self._jobs.pop(uid, None)
            if old is not None:
                old.cancel()
            self._start_size(uid, scenario, catalog)
        self._notify_busy()

    def _start_size(self, uid: str, scenario: Scenario, catalog: HardwareCatalog) -> None:
        def work(cancel: threading.Event, _progress: Progress) -> SizingResult:
            return sizing.size(scenario, catalog, cancelled=cancel.is_set)

        holder: dict[str, Job] = {}

        def done(result: object) -> None:
            if holder["job"].cancel_event.is_set():  # finished after it was called off (cancel_all): not wanted
                cancelled()
                return
            if self._jobs.get(uid) is holder["job"]:
                del self._jobs[uid]
                assert isinstance(result, SizingResult)
                self.results[uid] = result
                self.result_inputs[uid] = scenario
                self.problems.pop(uid, None)
                wanted = self.want_curves and uid == self.curve_uid
                if not wanted:
                    self.curves.pop(uid, None)  # drawn for the inputs before: computed again when wanted
                self.resultReady.emit(uid)
                if wanted:
                    self._start_curve(uid, scenario, catalog, result)
            self._after_sizing()

        def failed(problems: list[Problem]) -> None:
            if self._jobs.get(uid) is holder["job"]:
                del self._jobs[uid]
                self.problems[uid] = problems
                self.sizingFailed.emit(uid, problems)
            self._after_sizing()

        def cancelled() -> None:
            if self._jobs.get(uid) is holder["job"]:
                del self._jobs[uid]
            self._after_sizing()

        holder["job"] = self._jobs[uid] = self.runner.start(work, done, failed, on_cancelled=cancelled, priority=1)

    def _after_sizing(self) -> None:
        if self._background and not self._jobs and not self._pending:
            self._release_background_soon()
        self._notify_busy()

    def want_curve(self, uid: str | None) -> None:
        """Keep the estimate curve of `uid` (the scenario on screen) current, and only that one."""
        if uid == self.curve_uid:
            return
        if self.curve_uid is not None and (old := self._curve_jobs.pop(self.curve_uid, None)) is not None:
            old.cancel()
        self.curve_uid = uid
        catalog = self._catalog()
        if (uid is not None and self.want_curves and catalog is not None and uid in self.results
                and uid not in self.curves and not self.sizing(uid)):
            self._start_curve(uid, self.result_inputs[uid], catalog, self.results[uid])
        self._notify_busy()

    def _start_curve(self, uid: str, scenario: Scenario, catalog: HardwareCatalog, result: SizingResult) -> None:
        old = self._curve_jobs.pop(uid, None)
        if old is not None:
            old.cancel()

        def work(cancel: threading.Event, progress: Progress) -> Curve | None:
            return sizing.estimate_curve(scenario, catalog, result, progress, cancel.is_set)

        holder: dict[str, Job] = {}

        def done(curve: object) -> None:
            if not shiboken_valid(self):
                return  # the window closed while the curve was computed: nobody to tell
            if holder["job"].cancel_event.is_set():  # finished after it was called off: as if cancelled
                failed([])
                return
            if self._curve_jobs.get(uid) is holder["job"]:
                del self._curve_jobs[uid]
                if isinstance(curve, Curve):
                    self.curves[uid] = curve
                else:
                    self.curves.pop(uid, None)
                self.curveReady.emit(uid)
            self._notify_busy()

        def failed(_problems: list[Problem]) -> None:  # the curve is a nicety: the design result still stands
            if not shiboken_valid(self):
                return
            if self._curve_jobs.get(uid) is holder["job"]:
                del self._curve_jobs[uid]
                self.curves.pop(uid, None)
                self.curveReady.emit(uid)
            self._notify_busy()

        holder["job"] = self._curve_jobs[uid] = self.runner.start(
            work, done, failed, on_cancelled=lambda: failed([]), priority=0
        )

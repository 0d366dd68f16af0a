"""Off-thread work: jobs finish or cancel cleanly, stale sizing answers are dropped."""

from __future__ import annotations

import gc
import threading
import time

import pytest
from PySide6.QtCore import QThreadPool

from app.gui.workers import PROGRESS_STEPS, JobRunner, SizingCoordinator
from app.services import sizing
from app.services.errors import ServiceError
from app.services.sizing import Curve
from models.problems import Problem
from models.scenario import GreenplumAnalytics, Scenario
from models.tasks import Cancelled
from tests.app.gui.fakes import fake_result


def test_a_job_reports_its_value_on_the_ui_thread(qtbot) -> None:  # type: ignore[no-untyped-def]
    runner = JobRunner()
    got: list[object] = []
    ui_thread = threading.get_ident()
    seen_thread: list[int] = []

    def done(value: object) -> None:
        seen_thread.append(threading.get_ident())
        got.append(value)

    runner.start(lambda _cancel, _progress: 6 * 7, done)
    qtbot.waitUntil(lambda: got == [42], timeout=5000)
    assert seen_thread == [ui_thread]
    assert not runner.busy()


def test_a_cancelled_job_stops_and_leaves_no_thread(qtbot) -> None:  # type: ignore[no-untyped-def]
    runner = JobRunner()
    events: list[str] = []
    progress: list[int] = []

    def work(cancel: threading.Event, report) -> None:  # type: ignore[no-untyped-def]
        for i in range(10_000):
            if cancel.is_set():
                raise Cancelled()
            report(i, 10_000)
            time.sleep(0.001)

    job = runner.start(work, lambda _v: events.append("done"), lambda _p: events.append("failed"),
                       on_progress=lambda d, _n: progress.append(d), on_cancelled=lambda: events.append("cancelled"))
    qtbot.waitUntil(lambda: len(progress) > 3, timeout=5000)
    job.cancel()
    qtbot.waitUntil(lambda: events == ["cancelled"], timeout=5000)
    assert QThreadPool.globalInstance().waitForDone(5000)
    assert not runner.busy()


def test_an_exception_in_a_job_becomes_a_problem_not_a_crash(qtbot) -> None:  # type: ignore[no-untyped-def]
    runner = JobRunner()
    problems: list[list[Problem]] = []

    def work(_c: object, _p: object) -> None:
        raise ZeroDivisionError("boom")

    runner.start(work, lambda _v: None, problems.append)  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: bool(problems), timeout=5000)
    assert "ZeroDivisionError" in problems[0][0].message


def test_only_the_latest_request_for_a_scenario_is_kept(qtbot, monkeypatch: pytest.MonkeyPatch, seed) -> None:  # type: ignore[no-untyped-def]
    def slow_size(scenario: Scenario, _catalog: object, **_task: object):  # type: ignore[no-untyped-def]
        # the first (older) request is the slow one: its answer must not win
        time.sleep(0.3 if scenario.workload.data_tb == 1 else 0.01)
        return fake_result(hosts=int(scenario.workload.data_tb))

    monkeypatch.setattr(sizing, "size", slow_size)
    coordinator = SizingCoordinator(lambda: seed)
    coordinator.want_curves = False
    s1 = Scenario(name="a", workload=GreenplumAnalytics(data_tb=1, concurrent_queries=1))
    s2 = s1.model_copy(update={"workload": GreenplumAnalytics(data_tb=2, concurrent_queries=1)})
    coordinator.request("u", s1, immediate=True)
    coordinator.request("u", s2, immediate=True)
    qtbot.waitUntil(lambda: not coordinator.busy(), timeout=5000)
    QThreadPool.globalInstance().waitForDone(5000)
    qtbot.wait(50)  # the stale job's queued signal, if any, has been delivered by now
    assert coordinator.results["u"].design.segment_hosts == 2
    assert coordinator.result_inputs["u"] == s2


def test_edits_within_the_debounce_window_size_once(qtbot, monkeypatch: pytest.MonkeyPatch, seed) -> None:  # type: ignore[no-untyped-def]
    calls: list[float] = []

    def counting_size(scenario: Scenario, _catalog: object, **_task: object):  # type: ignore[no-untyped-def]
        calls.append(scenario.workload.data_tb)
        return fake_result()

    monkeypatch.setattr(sizing, "size", counting_size)
    coordinator = SizingCoordinator(lambda: seed)
    coordinator.want_curves = False
    for tb in (1, 12, 123):  # keystrokes
        coordinator.request("u", Scenario(name="a", workload=GreenplumAnalytics(data_tb=tb, concurrent_queries=1)))
    qtbot.waitUntil(lambda: "u" in coordinator.results, timeout=5000)
    assert calls == [123]


def test_an_engine_refusal_is_reported_with_its_problems(qtbot, monkeypatch: pytest.MonkeyPatch, seed) -> None:  # type: ignore[no-untyped-def]
    def refuse(_s: object, _c: object, **_task: object) -> None:
        raise ServiceError("invalid scenario a", [Problem("platform.server_id", "unknown server id 'x'")])

    monkeypatch.setattr(sizing, "size", refuse)
    coordinator = SizingCoordinator(lambda: seed)
    with qtbot.waitSignal(coordinator.sizingFailed, timeout=5000) as blocker:
        coordinator.request("u", Scenario(name="a", workload=GreenplumAnalytics(data_tb=1, concurrent_queries=1)),
                            immediate=True)
    assert blocker.args == ["u", [Problem("platform.server_id", "unknown server id 'x'")]]


def test_a_job_reporting_every_row_sends_a_bounded_number_of_progress_signals(qtbot) -> None:  # type: ignore[no-untyped-def]
    """A task that reports each of 100,000 rows must not queue 100,000 signals for the UI thread."""
    runner = JobRunner()
    seen: list[tuple[int, int]] = []
    done: list[object] = []

    def work(_cancel: threading.Event, report) -> int:  # type: ignore[no-untyped-def]
        for i in range(1, 100_001):
            report(i, 100_000)
        return 1

    runner.start(work, done.append, on_progress=lambda d, n: seen.append((d, n)))
    qtbot.waitUntil(lambda: done == [1], timeout=30_000)
    assert len(seen) <= PROGRESS_STEPS + 1
    assert seen[-1] == (100_000, 100_000)  # the bar still reaches the end
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_bulk_job_runs_without_the_cyclic_collector_and_freezes_what_it_leaves(qtbot) -> None:  # type: ignore[no-untyped-def]
    """A full collection holds the GIL while it walks every object: a bulk job must not trigger them, and the
    catalog it returns must not be walked by later ones."""
    runner = JobRunner()
    during: list[bool] = []
    done: list[object] = []
    frozen_before = gc.get_freeze_count()

    def work(_cancel: threading.Event, _report) -> list[dict[str, int]]:  # type: ignore[no-untyped-def]
        during.append(gc.isenabled())
        return [{"row": i} for i in range(1_000)]

    runner.start(work, done.append, bulk=True)
    qtbot.waitUntil(lambda: len(done) == 1, timeout=30_000)
    assert during == [False]
    assert gc.isenabled()
    assert gc.get_freeze_count() >= frozen_before + 1_000  # the returned rows moved to the permanent generation

    runner.start(lambda _c, _r: during.append(gc.isenabled()), done.append)  # other jobs leave it alone
    qtbot.waitUntil(lambda: len(done) == 2, timeout=30_000)
    assert during == [False, True]


def test_the_collector_comes_back_when_a_bulk_job_fails(qtbot) -> None:  # type: ignore[no-untyped-def]
    runner = JobRunner()
    failed: list[object] = []

    def work(_cancel: threading.Event, _report) -> None:  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")

    runner.start(work, lambda _v: None, on_failed=failed.append, bulk=True)
    qtbot.waitUntil(lambda: len(failed) == 1, timeout=30_000)
    assert gc.isenabled()


def test_background_requests_start_after_the_foreground_result(qtbot, monkeypatch: pytest.MonkeyPatch, seed) -> None:  # type: ignore[no-untyped-def]
    events: list[str] = []

    def logged_size(scenario: Scenario, _catalog: object, **_task: object):  # type: ignore[no-untyped-def]
        events.append(f"start {scenario.name}")
        time.sleep(0.05)
        return fake_result(hosts=int(scenario.workload.data_tb))

    monkeypatch.setattr(sizing, "size", logged_size)
    coordinator = SizingCoordinator(lambda: seed)
    coordinator.want_curves = False
    coordinator.resultReady.connect(lambda uid: events.append(f"result {uid}"))
    scenarios = {n: Scenario(name=n, workload=GreenplumAnalytics(data_tb=i + 1, concurrent_queries=1))
                 for i, n in enumerate("abc")}
    coordinator.request("a", scenarios["a"], immediate=True)
    coordinator.request("b", scenarios["b"], immediate=True, background=True)
    coordinator.request("c", scenarios["c"], immediate=True, background=True)
    assert coordinator.sizing("b") and coordinator.busy()
    qtbot.waitUntil(lambda: not coordinator.busy(), timeout=5000)
    assert events[:2] == ["start a", "result a"]  # the pool had a free thread, yet b and c waited for a
    assert sorted(events[2:]) == ["result b", "result c", "start b", "start c"]
    assert {u: r.design.segment_hosts for u, r in coordinator.results.items()} == {"a": 1, "b": 2, "c": 3}


def test_a_foreground_request_overtakes_its_own_background_one(qtbot, monkeypatch: pytest.MonkeyPatch, seed) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(sizing, "size", lambda s, _c, **_t: fake_result(hosts=int(s.workload.data_tb)))
    coordinator = SizingCoordinator(lambda: seed)
    coordinator.want_curves = False
    coordinator.request("u", Scenario(name="u", workload=GreenplumAnalytics(data_tb=1, concurrent_queries=1)),
                        background=True)
    coordinator.request("u", Scenario(name="u", workload=GreenplumAnalytics(data_tb=5, concurrent_queries=1)),
                        immediate=True)
    qtbot.waitUntil(lambda: not coordinator.busy(), timeout=5000)
    qtbot.wait(50)
    assert coordinator.results["u"].design.segment_hosts == 5


def test_the_estimate_curve_is_computed_for_the_scenario_on_screen_only(qtbot, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
                                                                         seed) -> None:
    curves_for: list[str] = []

    def fake_curve(scenario: Scenario, _c: object, result: object, *_a: object) -> Curve:
        curves_for.append(scenario.name)
        return Curve("m", "s", (1, 2), (1.0, 1.0), (2.0, 2.0), (3.0, 3.0), 1)

    monkeypatch.setattr(sizing, "size", lambda s, _c, **_t: fake_result(hosts=int(s.workload.data_tb)))
    monkeypatch.setattr(sizing, "estimate_curve", fake_curve)
    coordinator = SizingCoordinator(lambda: seed)
    scenarios = {n: Scenario(name=n, workload=GreenplumAnalytics(data_tb=i + 1, concurrent_queries=1))
                 for i, n in enumerate("abc")}
    coordinator.want_curve("a")
    for uid, s in scenarios.items():
        coordinator.request(uid, s, immediate=True, background=uid != "a")
    qtbot.waitUntil(lambda: not coordinator.busy(), timeout=5000)
    assert set(coordinator.results) == {"a", "b", "c"}
    assert curves_for == ["a"] and set(coordinator.curves) == {"a"}

    coordinator.want_curve("b")  # the user selects b: its curve now, from the result on hand
    qtbot.waitUntil(lambda: not coordinator.busy(), timeout=5000)
    assert curves_for == ["a", "b"] and set(coordinator.curves) == {"a", "b"}

    coordinator.want_curve("a")  # back to a, unchanged: the curve on hand serves
    coordinator.request("b", scenarios["b"].model_copy(update={"name": "b2"}), immediate=True)
    qtbot.waitUntil(lambda: not coordinator.busy(), timeout=5000)
    assert curves_for == ["a", "b"]
    assert set(coordinator.curves) == {"a"}  # b's curve was of its old inputs: dropped with its new result


def test_work_that_completes_after_cancel_is_reported_done_not_cancelled(qtbot) -> None:  # type: ignore[no-untyped-def]
    """Cancel pressed after an export's last check: the file is written, so 'cancelled, nothing was written' would
    be false; the job reports its value."""
    runner = JobRunner()
    events: list[object] = []
    started = threading.Event()

    def work(cancel: threading.Event, _report) -> str:  # type: ignore[no-untyped-def]
        started.set()
        cancel.wait(30)  # past its last check: it finishes anyway
        return "written"

    job = runner.start(work, events.append, on_cancelled=lambda: events.append("cancelled"))
    assert started.wait(30)
    job.cancel()
    qtbot.waitUntil(lambda: bool(events), timeout=30_000)
    assert events == ["written"]


@pytest.mark.parametrize("outcome", ["value", "cancelled", "bug"])
def test_a_job_whose_signal_object_was_deleted_ends_quietly(qtbot, outcome: str) -> None:  # type: ignore[no-untyped-def]
    """The window closed (the application ending) while the job ran: nobody is left to tell, and the pool thread
    must not raise 'Signal source has been deleted'."""
    import shiboken6

    from app.gui.workers import Job

    def work(_cancel: threading.Event, progress: object) -> int:
        progress(1, 2)  # type: ignore[operator]
        if outcome == "cancelled":
            raise Cancelled
        if outcome == "bug":
            raise ValueError("a model bug")
        return 42

    job = Job(1, work, bulk=False)
    shiboken6.delete(job.signals)
    job.run()  # raised RuntimeError before
    assert not shiboken6.isValid(job.signals)

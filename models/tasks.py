"""The one task protocol: how a long computation reports progress and learns it should stop.

Every long task (`size`, `optimize`, the Monte Carlo estimate curve, the sensitivity sweep, the
report, a catalog import) takes the same two optional callables and raises the same exception,
so the GUI's worker, the CLI and the tests handle stopping in one place:

- `progress(done, total)`: `done` of `total` units are finished; `done` never goes down during a task.
- `cancelled()`: True once the caller wants the task to stop; the task then raises `Cancelled`
  at its next check and leaves nothing behind (no file written, no rows imported).
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[int, int], None]
IsCancelled = Callable[[], bool]

PART_UNITS = 1_000  # progress units per part in `part_progress`: fine enough for a progress bar


class Cancelled(Exception):
    """The caller's `cancelled()` returned True; the task stopped and left nothing behind."""

    def __init__(self, message: str = "cancelled") -> None:
        super().__init__(message)


def check_cancelled(cancelled: IsCancelled | None) -> None:
    """Raise `Cancelled` if the caller asked to stop.

    >>> check_cancelled(None)
    >>> check_cancelled(lambda: False)
    >>> check_cancelled(lambda: True)
    Traceback (most recent call last):
    ...
    models.tasks.Cancelled: cancelled
    """
    if cancelled is not None and cancelled():
        raise Cancelled()


def part_progress(progress: Progress | None, index: int, parts: int) -> Progress | None:
    """The progress of part `index` (from 0) of a task made of `parts` parts, reported on the whole task.

    Part i's (done, total) maps onto [i, i + 1) x `PART_UNITS` of `parts` x `PART_UNITS`, so the
    whole task's progress stays monotonic when each part's is and the parts run in order.

    >>> seen = []
    >>> p = part_progress(lambda d, t: seen.append((d, t)), 1, 2)
    >>> p(1, 4); p(4, 4)
    >>> seen
    [(1250, 2000), (2000, 2000)]
    """
    if progress is None:
        return None
    if not 0 <= index < parts:
        raise ValueError(f"part {index} is not one of 0..{parts - 1}")
    start, whole = index * PART_UNITS, parts * PART_UNITS

    def report(done: int, total: int) -> None:
        frac = min(max(done / total, 0.0), 1.0) if total > 0 else 1.0
        progress(start + int(frac * PART_UNITS), whole)

    return report

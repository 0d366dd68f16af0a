"""The one failure a use case reports: a message and every problem as a `(path, message)` pair.

The CLI prints it (exit code 2), the window shows it and marks the fields at the problems' paths.
"""

from __future__ import annotations

from collections.abc import Iterable

from models.problems import ROOT, Problem


class ServiceError(Exception):
    """The input cannot be used, or the output cannot be written: said for the user, never a traceback."""

    def __init__(self, message: str, problems: Iterable[Problem] = ()) -> None:
        self.message = message
        self.problems = list(problems)
        super().__init__("; ".join([message, *(str(p) for p in self.problems)]))

    def shown(self) -> list[Problem]:
        """What the window lists: the problems, or the message alone when no field is to blame."""
        return self.problems or [Problem(ROOT, self.message)]

"""Errors the CLI turns into a clear message and an exit code (2: bad input)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager


class CliError(Exception):
    """Bad input or an unusable resource: every problem listed, no traceback."""

    def __init__(self, message: str, problems: Iterable[str] = (), exit_code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.problems = list(problems)
        self.exit_code = exit_code

    def lines(self) -> list[str]:
        return [f"refarch: {self.message}", *(f"  - {p}" for p in self.problems)]


@contextmanager
def service_errors() -> Iterator[None]:
    """A use case's `ServiceError` (`app.services`) as a CliError: its message, one line per problem, exit 2."""
    from app.services.errors import ServiceError

    try:
        yield
    except ServiceError as exc:
        raise CliError(exc.message, [str(p) for p in exc.problems]) from None

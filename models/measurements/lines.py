"""Line-by-line reading shared by the measurement parsers: numbered lines, strict numbers, one refusal type.

A measurement file is refused whole at its first bad line (`refuse`): a `FileInputError` whose one problem
names the line ("line 12: ..."), so the CLI exits 2 and the window shows the same sentence. Nothing is taken
from a file that fails anywhere: half a gpcheckperf result or a sweep with a damaged run would size a design
on numbers nobody measured.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from models.file_input import FileInputError
from models.problems import Problem

MAX_LINE_CHARS = 10_000  # the longest line any of the tools writes is a few hundred characters
MAX_LINES = 2_000_000  # a day of pgbench -P 1 progress lines over a 100-client sweep stays far below
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_DIGITS = re.compile(r"[0-9]{1,15}")


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the file: its 1-based number and its text without the line break."""

    number: int
    text: str


def refuse(name: str, line: Line | int | None, message: str) -> FileInputError:
    """The error that refuses the file `name` at `line` (a Line, a number, or None for the file as a whole)."""
    number = line.number if isinstance(line, Line) else line
    where = f"line {number}" if number is not None else "file"
    return FileInputError(name, [Problem(where, message)])


def shown(text: str, limit: int = 80) -> str:
    """`text` quoted for a message, cut to `limit` characters.

    >>> shown("tps = 12.5 (without initial connection time)", 12)
    "'tps = 12.5 (…'"
    """
    return repr(text if len(text) <= limit else text[:limit] + "…")


def numbered_lines(text: str, name: str) -> list[Line]:
    """The file's lines, numbered from 1; refused when a line or the file is beyond any tool's output."""
    raw = text.splitlines()
    if len(raw) > MAX_LINES:
        raise refuse(name, None, f"{len(raw):,} lines; a measurement file has at most {MAX_LINES:,}")
    lines = []
    for i, t in enumerate(raw, start=1):
        if len(t) > MAX_LINE_CHARS:
            raise refuse(name, i, f"a {len(t):,}-character line; the tools write lines of at most "
                                  f"{MAX_LINE_CHARS:,} characters")
        lines.append(Line(i, t))
    return lines


def number(text: str, name: str, line: Line, what: str, *, positive: bool = False) -> float:
    """`text` as a finite, non-negative float (> 0 with `positive`), or the file refused naming `what`.

    >>> number("2048.50", "f", Line(3, ""), "disk read total")
    2048.5
    >>> number("nan", "f", Line(3, ""), "disk read total")
    Traceback (most recent call last):
    ...
    models.file_input.FileInputError: f: line 3: disk read total 'nan' is not a number
    """
    t = text.strip()
    if not _NUMBER.fullmatch(t):
        raise refuse(name, line, f"{what} {shown(t, 30)} is not a number")
    value = float(t)
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        limit = "> 0" if positive else ">= 0"
        raise refuse(name, line, f"{what} must be a finite number {limit}, got {shown(t, 30)}")
    return value


def integer(text: str, name: str, line: Line, what: str, *, positive: bool = False) -> int:
    """`text` as a whole number (>= 0, or > 0 with `positive`) below 10^15, or the file refused."""
    t = text.strip()
    if not _DIGITS.fullmatch(t):
        raise refuse(name, line, f"{what} {shown(t, 30)} is not a whole number below 10^15")
    value = int(t)
    if positive and value == 0:
        raise refuse(name, line, f"{what} must be at least 1, got 0")
    return value

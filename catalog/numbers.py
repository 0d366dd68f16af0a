"""Numbers as written in a table file: the decimal separator read explicitly, never guessed cell by cell.

A vendor in Europe writes a price as `1.234,56` or `12,50`; one in the US as `1,234.56` or `12.50`. Removing
every comma (what a naive reader does) turns `12,50` into 1250 and `1.234,56` into 1.23456, silently. Here a
file's numeric cells are read together: each cell that shows its decimal separator (`1.234,56`, `12,50`,
`0.125`, `1,234,567`) is evidence for the file, and the file takes the one separator all the evidence agrees
on. A cell that could be read either way (`1,234`, `1.234`) is read by the file's separator; when nothing in
the file tells, or the evidence disagrees, the file is refused naming each such cell by row and column
(`--decimal ,` or `--decimal .` then says how to read it).

>>> parse_number("1.234,56", ","), parse_number("12,50", ","), parse_number("1,234.56", ".")
(Decimal('1234.56'), Decimal('12.50'), Decimal('1234.56'))
>>> detect([NumberCell(2, "unit_price", "1.234,56"), NumberCell(3, "unit_price", "1,234")]).separator
','
>>> print(detect([NumberCell(2, "unit_price", "1,234")]).problems[0])  # doctest: +NORMALIZE_WHITESPACE
row 2, column unit_price: '1,234' reads as 1234 or as 1.234; nothing else in the file shows
its decimal separator
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Literal

Separator = Literal[",", "."]
SEPARATORS: tuple[Separator, ...] = (".", ",")
# Thousands may also be grouped by spaces (French, ISO 31-0), no-break spaces or apostrophes (Swiss).
_SPACES = (" ", "\u00a0", "\u202f", "'", "\u2019")
_EXPONENT = r"(?:[eE][+-]?\d+)?"


def _pattern(decimal: Separator) -> re.Pattern[str]:
    group = re.escape("," if decimal == "." else ".")
    point = re.escape(decimal)
    grouped = rf"\d{{1,3}}(?:{group}\d{{3}})+"
    return re.compile(rf"[+-]?(?:{grouped}|\d+)(?:{point}\d*)?{_EXPONENT}|[+-]?{point}\d+{_EXPONENT}")


_PATTERNS = {sep: _pattern(sep) for sep in SEPARATORS}
_SPACED = re.compile(r"\d{1,3}(?:[ \u00a0\u202f'\u2019]\d{3})+")


class NumberFormatError(ValueError):
    """A cell that is not a number written with the given decimal separator."""


def _unspaced(text: str) -> str:
    """The text without thousands grouped by spaces or apostrophes (only in whole groups of three)."""
    stripped = text.strip()
    if not any(s in stripped for s in _SPACES):
        return stripped
    sign = stripped[:1] if stripped[:1] in "+-" else ""
    body = stripped[len(sign):]
    head = re.match(r"[\d \u00a0\u202f'\u2019]+", body)
    if head is None or not _SPACED.fullmatch(head.group(0).strip()) or any(s in body[head.end():] for s in _SPACES):
        raise NumberFormatError(f"{text!r} is not a number (digits grouped in threes are fine: 1 234 567)")
    digits = head.group(0).strip()
    for s in _SPACES:
        digits = digits.replace(s, "")
    return sign + digits + body[head.end():]


def parse_number(text: str, decimal: Separator) -> Decimal:
    """The number `text` writes with `decimal` as its decimal separator (the other one may group thousands).

    >>> parse_number("1 234,5", ","), parse_number("-0.5", "."), parse_number("1e3", ".")
    (Decimal('1234.5'), Decimal('-0.5'), Decimal('1E+3'))
    >>> parse_number("12,50", ".")
    Traceback (most recent call last):
    ...
    catalog.numbers.NumberFormatError: '12,50' is not a number with '.' as the decimal separator
    """
    body = _unspaced(text)
    if not _PATTERNS[decimal].fullmatch(body):
        raise NumberFormatError(f"{text.strip()!r} is not a number with {decimal!r} as the decimal separator")
    group = "," if decimal == "." else "."
    plain = body.replace(group, "").replace(decimal, ".")
    try:
        return Decimal(plain)
    except InvalidOperation:
        raise NumberFormatError(f"{text.strip()!r} is not a number") from None


Reading = Separator | Literal["either", "neither"]


def reading(text: str) -> Reading:
    """Which decimal separator a cell shows: ',' or '.', 'either' (`1,234`), 'neither' (`1234`, or no number).

    >>> [reading(t) for t in ("1.234,56", "12,50", "0.125", "1,234,567", "1,234", "1234", "0,125", "x")]
    [',', ',', '.', '.', 'either', 'neither', ',', 'neither']
    """
    try:
        body = _unspaced(text).lstrip("+-")
    except NumberFormatError:
        return "neither"
    mantissa = re.split(r"[eE]", body, maxsplit=1)[0]
    commas, points = mantissa.count(","), mantissa.count(".")
    if commas and points:
        last: Separator = "," if mantissa.rfind(",") > mantissa.rfind(".") else "."
        return last if _PATTERNS[last].fullmatch(body) else "neither"
    if not commas and not points:
        return "neither"
    mark: Separator = "," if commas else "."
    other: Separator = "." if mark == "," else ","
    if commas + points > 1:  # only thousands groups use a mark twice
        return other if _PATTERNS[other].fullmatch(body) else "neither"
    before, after = mantissa.split(mark)
    if len(after) == 3 and 1 <= len(before) <= 3 and not before.startswith("0"):
        return "either"
    return mark if _PATTERNS[mark].fullmatch(body) else "neither"


@dataclass(frozen=True, slots=True)
class NumberCell:
    """A numeric cell as written: its row (as the user counts it), its column and its text."""

    row: int
    column: str
    text: str
    label: str = "row"  # "line" where the file's rows are counted as lines (CSV catalogs, quotes)

    @property
    def where(self) -> str:
        return f"{self.label} {self.row}, column {self.column}"


@dataclass(frozen=True, slots=True)
class Detected:
    """The file's decimal separator (None: undecided, when `problems` say why), and the cells in doubt."""

    separator: Separator | None
    problems: list[str] = field(default_factory=list)

    def summary(self, most: int = 10) -> str:
        """The problems in one message: the first `most`, and how many more."""
        more = len(self.problems) - most
        return "; ".join(self.problems[:most]) + (f"; and {more} more" if more > 0 else "")


def detect(cells: Iterable[NumberCell], given: Separator | None = None) -> Detected:
    """The decimal separator of one file's numeric cells: `given` (from --decimal) if any, else the one the
    cells show. Undecided (with a problem per cell) when they disagree, or when some cell reads either way and
    none shows which."""
    if given is not None:
        return Detected(given)
    evidence: dict[Separator, NumberCell] = {}
    either: list[NumberCell] = []
    for cell in cells:
        seen = reading(cell.text)
        if seen in SEPARATORS:
            evidence.setdefault(seen, cell)
        elif seen == "either":
            either.append(cell)
    if len(evidence) == 2:
        comma, point = evidence[","], evidence["."]
        return Detected(None, [f"the file writes numbers two ways: {comma.where} '{comma.text.strip()}' has ',' "
                               f"as its decimal separator, {point.where} '{point.text.strip()}' has '.' (correct "
                               "the cells that do not follow the separator you give)"])
    if evidence:
        return Detected(next(iter(evidence)))
    if either:
        return Detected(None, [
            f"{c.where}: '{c.text.strip()}' reads as {parse_number(c.text, '.')} or as {parse_number(c.text, ',')}; "
            "nothing else in the file shows its decimal separator"
            for c in either])
    return Detected(".")


def written(value: float) -> str:
    """A float as refarch writes it into a CSV: the shortest round-tripping text, with a trailing 0 where that
    text alone would read two ways (`1.234` -> `1.2340`), so an export always shows its decimal separator.

    >>> written(1.234), written(12.5), written(1234.0), written(1e-07)
    ('1.2340', '12.5', '1234.0', '1e-07')
    """
    text = repr(value)
    return text + "0" if reading(text) == "either" else text

"""Which tool wrote a measurement file, from its content alone, and the file read by that tool's parser.

Kinds: `gpcheckperf` (its RESULT block or test banners), `pgbench` (a run summary or -P progress lines),
`pgbench-log` (an --aggregate-interval log), `hammerdb` (TEST RESULT / Active Virtual Users lines) and
`hammerdb-csv` (a header naming virtual users and NOPM/TPM). A file carrying the marks of two tools (a pgbench
sweep pasted under a gpcheckperf log) is refused at the first line of the second tool: each import is one tool's
output, so a profile never mixes numbers it cannot attribute. A file with no tool's mark is refused naming its
first line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from models import file_input
from models.measurements.gpcheckperf import GpcheckperfResult, parse_gpcheckperf
from models.measurements.hammerdb import (
    MARKERS as HAMMERDB_MARKERS,
)
from models.measurements.hammerdb import (
    HammerdbSweep,
    looks_like_hammerdb_csv,
    parse_hammerdb_csv,
    parse_hammerdb_log,
)
from models.measurements.lines import Line, numbered_lines, refuse, shown
from models.measurements.pgbench import (
    PROGRESS,
    PgbenchAggregateLog,
    PgbenchSweep,
    looks_like_aggregate_log,
    parse_aggregate_log,
    parse_pgbench,
)

MAX_BYTES = file_input.TABLE_MAX_BYTES
KINDS = ("gpcheckperf", "pgbench", "pgbench-log", "hammerdb", "hammerdb-csv")
Parsed = GpcheckperfResult | PgbenchSweep | PgbenchAggregateLog | HammerdbSweep

_MARKS: dict[str, re.Pattern[str]] = {
    "gpcheckperf": re.compile(r"\s*(==\s+RESULT\s|--\s+(DISK WRITE|DISK READ|STREAM|NETPERF) TEST\b|"
                              r"(disk write|disk read|stream) tot bandwidth|Netperf bisection bandwidth test|"
                              r"Full matrix netperf bandwidth test)"),
    "pgbench": re.compile(r"\s*(transaction type: |tps = \S+ \(|" + PROGRESS.pattern.split(" (")[0] + ")"),
    "hammerdb": re.compile(r".*(" + "|".join(re.escape(m) for m in HAMMERDB_MARKERS) + ")"),
}


_PARSERS: dict[str, Callable[[str, str], Parsed]] = {
    "gpcheckperf": parse_gpcheckperf, "pgbench": parse_pgbench, "pgbench-log": parse_aggregate_log,
    "hammerdb": parse_hammerdb_log, "hammerdb-csv": parse_hammerdb_csv,
}


@dataclass(frozen=True, slots=True)
class Measurement:
    """One imported file: its kind, its name and what its tool measured."""

    kind: str
    source: str
    data: Parsed


def detect_kind(lines: list[Line], name: str) -> str:
    """The kind of the file whose `lines` these are; refused when no tool or two tools wrote it."""
    if looks_like_aggregate_log(lines):
        return "pgbench-log"
    first = next((ln for ln in lines if ln.text.strip()), None)
    if first is None:
        raise refuse(name, None, "empty file; expected gpcheckperf, pgbench or HammerDB output")
    if looks_like_hammerdb_csv(first.text):
        return "hammerdb-csv"
    found: dict[str, Line] = {}
    for line in lines:
        for kind, mark in _MARKS.items():
            if kind not in found and mark.match(line.text):
                found[kind] = line
    if not found:
        raise refuse(name, first, f"not gpcheckperf, pgbench or HammerDB output (no line any of them writes; "
                                  f"the first line is {shown(first.text.strip())})")
    if len(found) > 1:
        (k1, _), (k2, l2) = sorted(found.items(), key=lambda kv: kv[1].number)[:2]
        raise refuse(name, l2, f"{k2} output in a {k1} file: import each tool's output as its own file")
    return next(iter(found))


def parse_measurement(text: str, name: str, kind: str | None = None) -> Measurement:
    """`text` read by the parser of its kind (detected when not given); FileInputError naming the line."""
    lines = numbered_lines(text, name)
    kind = kind or detect_kind(lines, name)
    if kind not in KINDS:
        raise refuse(name, None, f"unknown measurement kind {kind!r}; one of {', '.join(KINDS)}")
    data: Parsed = _PARSERS[kind](text, name)
    return Measurement(kind, name, data)


def read_measurement(path: Path | str) -> Measurement:
    """A measurement file read through the hardened reader (regular file, size limit, UTF-8, no NUL)."""
    text = file_input.read_text(path, max_bytes=MAX_BYTES, what="measurement text file",
                                hint="import the tool's text output as it wrote it")
    return parse_measurement(text, Path(path).name)

"""HammerDB TPROC-C results: virtual users with NOPM and TPM, from hammerdb.log lines or a CSV.

The log lines are those HammerDB's driver scripts print (TPC-Council/HammerDB, `src/postgresql/pgoltp.tcl` and
the other databases' oltp scripts, and the `testresult` procedure of `src/generic`): before each result
`Vuser 1:<N> Active Virtual Users configured` (N = the virtual users running transactions, the monitor excluded),
then `Vuser 1:TEST RESULT : System achieved <nopm> NOPM from <tpm> <database> TPM`, or, with the result format
set to TPM (and in HammerDB 3.x), `TEST RESULT : System achieved <tpm> <database> TPM at <nopm> NOPM`. An
autopilot run (a virtual-user sweep) writes one pair per step. Every other log line (timings, ramp-up, the
`Hammerdb Log @` headers, `Timestamp` lines) is kept out.

The CSV form is a table with a header naming a virtual-user column (`virtual_users`, `vu`, `vus` or `users`)
and `nopm` and/or `tpm`, one row per step, as a spreadsheet of a sweep is usually kept.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass

from models.measurements.lines import Line, integer, number, numbered_lines, refuse, shown

_PREFIX = r"(?:Vuser \d+:)?"
ACTIVE = re.compile(_PREFIX + r"(\S+) Active Virtual Users configured")
RESULT_NOPM = re.compile(_PREFIX + r"TEST RESULT : System achieved (\S+) NOPM from (\S+) (.+?) TPM")
RESULT_TPM = re.compile(_PREFIX + r"TEST RESULT : System achieved (\S+) (.+?) TPM at (\S+) NOPM")
MARKERS = ("TEST RESULT : System achieved", "Active Virtual Users configured")
VU_COLUMNS = ("virtual_users", "virtual users", "vu", "vus", "users")


@dataclass(frozen=True, slots=True)
class HammerdbStep:
    line: int
    virtual_users: int
    nopm: float | None
    tpm: float | None
    database: str = ""


@dataclass(frozen=True, slots=True)
class HammerdbSweep:
    steps: tuple[HammerdbStep, ...]


def parse_hammerdb_log(text: str, name: str) -> HammerdbSweep:
    """Every TEST RESULT line with the virtual-user count printed before it; refused naming the bad line."""
    steps: list[HammerdbStep] = []
    users: tuple[Line, int] | None = None
    for line in numbered_lines(text, name):
        t = line.text.strip()
        if "TEST RESULT" in t:
            m_nopm, m_tpm = RESULT_NOPM.fullmatch(t), RESULT_TPM.fullmatch(t)
            if m_nopm is None and m_tpm is None:
                raise refuse(name, line, f"a TEST RESULT line HammerDB does not write: {shown(t)}")
            if users is None:
                raise refuse(name, line, "a TEST RESULT with no 'N Active Virtual Users configured' line before "
                                         "it: the virtual-user count of this result is unknown")
            if m_nopm is not None:
                nopm, tpm, db = m_nopm[1], m_nopm[2], m_nopm[3]
            else:
                assert m_tpm is not None
                tpm, db, nopm = m_tpm[1], m_tpm[2], m_tpm[3]
            steps.append(HammerdbStep(line.number, users[1], number(nopm, name, line, "NOPM"),
                                      number(tpm, name, line, "TPM"), db))
            users = None
        elif "Active Virtual Users configured" in t:
            m = ACTIVE.fullmatch(t)
            if m is None:
                raise refuse(name, line, f"an 'Active Virtual Users configured' line HammerDB does not write: "
                                         f"{shown(t)}")
            users = (line, integer(m[1], name, line, "active virtual users", positive=True))
    if not steps:
        raise refuse(name, None, "no HammerDB 'TEST RESULT : System achieved ...' line")
    return HammerdbSweep(tuple(steps))


def looks_like_hammerdb_csv(first_line: str) -> bool:
    cells = [c.strip().lower() for c in first_line.split(",")]
    return len(cells) >= 2 and any(c in VU_COLUMNS for c in cells) and ("nopm" in cells or "tpm" in cells)


def parse_hammerdb_csv(text: str, name: str) -> HammerdbSweep:
    """Rows of (virtual users, NOPM and/or TPM) under a header naming the columns."""
    lines = numbered_lines(text, name)
    try:
        rows = list(csv.reader(ln.text for ln in lines))
    except csv.Error as exc:
        raise refuse(name, None, f"not a valid CSV file: {exc}") from None
    header = [c.strip().lower() for c in rows[0]] if rows else []
    vu = next((header.index(c) for c in VU_COLUMNS if c in header), None)
    cols = {k: header.index(k) for k in ("nopm", "tpm") if k in header}
    if vu is None or not cols:
        raise refuse(name, 1, "the header must name a virtual-user column (virtual_users, vu, vus or users) and "
                              "nopm and/or tpm")
    steps = []
    for line, row in zip(lines[1:], rows[1:], strict=False):
        if not any(c.strip() for c in row):
            continue
        width = max(vu, *cols.values()) + 1
        if len(row) < width:
            raise refuse(name, line, f"{len(row)} cell(s) where the header has {len(header)}")
        values = {k: number(row[i], name, line, k.upper()) for k, i in cols.items()}
        steps.append(HammerdbStep(line.number, integer(row[vu], name, line, "virtual users", positive=True),
                                  values.get("nopm"), values.get("tpm")))
    if not steps:
        raise refuse(name, None, "no data rows under the header")
    return HammerdbSweep(tuple(steps))

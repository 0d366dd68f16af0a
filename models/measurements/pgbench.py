"""pgbench output: one run or a client sweep of runs concatenated, with `-P` progress lines; `--aggregate-interval`
logs.

The formats are those of PostgreSQL's `src/bin/pgbench/pgbench.c` (printResults, printProgressReport, doLog) and
the pgbench reference page (PostgreSQL documentation, "pgbench", sections "Description" and "Per-Transaction
Logging" / "Aggregated Logging"):

- a run's summary (stdout): `transaction type: <builtin: TPC-B (sort of)>`, `scaling factor: %d`, `query mode:
  %s`, `number of clients: %d`, `number of threads: %d`, [`maximum number of tries: %u`], `duration: %d s` or
  `number of transactions per client: %d`, `number of transactions actually processed: %lld[/%d]`, [`number of
  failed transactions: %lld (%.3f%%)`], `latency average = %.3f ms`, [`latency stddev = %.3f ms`], `initial
  connection time = %.3f ms`, `tps = %f (without initial connection time)` (PostgreSQL 14+; `-C` prints
  `average connection time` and `tps = %f (including reconnection times)`; 13 and older print two lines,
  `(including connections establishing)` and `(excluding connections establishing)`, of which the second is
  taken), then with -r or several scripts the per-script and per-statement lines;
- `-P` progress (stderr): `progress: %.1f s, %.1f tps, lat %.3f ms stddev %.3f[, %lld failed][, lag %.3f ms]
  [, %lld skipped][, %lld retried, %lld retries]`;
- `--aggregate-interval` log lines: `interval_start num_transactions sum_latency sum_latency_2 min_latency
  max_latency` then (before 15) optionally `sum_lag sum_lag_2 min_lag max_lag [skipped]`, or (15+) always the
  lag four, `skipped retried retries`, and the failure counts (`failures` or serialization/deadlock[/other]):
  6, 10, 11, 15 or 16 whole numbers, latencies in microseconds.

A run's TPS is the one without connection time; progress lines before a summary belong to that run. A sweep is
several summaries one after the other; the client counts come from their `number of clients` lines.
"""

from __future__ import annotations

import itertools
import re
import statistics
from dataclasses import dataclass

from models.measurements.lines import Line, integer, number, numbered_lines, refuse, shown

PROGRESS = re.compile(
    r"progress: (\S+) s, (\S+) tps, lat (\S+) ms stddev (\S+?)(?:, (\d+) failed)?(?:, lag (\S+) ms)?"
    r"(?:, (\d+) skipped)?(?:, (\d+) retried, (\d+) retries)?")
_TPS = re.compile(r"tps = (\S+) \((without initial connection time|including reconnection times|"
                  r"excluding connections establishing|including connections establishing)\)")
_KEYS = {
    "transaction type": "mix", "scaling factor": "scale", "query mode": "mode", "number of clients": "clients",
    "number of threads": "threads", "maximum number of tries": "tries", "duration": "duration",
    "number of transactions per client": "per_client", "number of transactions actually processed": "processed",
    "number of failed transactions": "failed", "latency average": "latency", "latency stddev": "stddev",
    "initial connection time": "connect", "average connection time": "connect",
}
# lines pgbench writes besides the summary and progress: its banner, the vacuum notice, per-script/statement
# statistics of -r or several scripts, retry/skip counts, and its log lines (errors of single transactions)
_OTHER = re.compile(r"pgbench \(.*\)|starting vacuum\.\.\..*|pgbench: (error|warning|hint|detail|debug): .*|"
                    r"SQL script \d+: .*|statement latencies in milliseconds.*|rate limit schedule lag: .*|"
                    r"number of (transactions (retried|skipped|above the .*)|serialization failures|"
                    r"deadlock failures|other failures): .*|total number of retries: .*")
_STATEMENT = re.compile(r"\s+-?[0-9]+\.[0-9]{3}(\s+[0-9]+){0,2}(\s.*)?|\s+- .*")
AGGREGATE_FIELDS = (6, 10, 11, 15, 16)
_AGG = re.compile(r"[0-9]+(?: [0-9]+){5,15}")


@dataclass(frozen=True, slots=True)
class Progress:
    """One `-P` line: seconds since the start, TPS and mean latency over the interval."""

    at_s: float
    tps: float
    latency_ms: float


@dataclass(frozen=True, slots=True)
class PgbenchRun:
    """One pgbench run's summary (and the progress lines printed before it)."""

    line: int
    mix: str
    clients: int
    threads: int
    tps: float
    latency_ms: float | None
    latency_stddev_ms: float | None = None
    scale: int | None = None
    duration_s: int | None = None
    transactions: int | None = None
    failed: int = 0
    progress: tuple[Progress, ...] = ()

    @property
    def tps_rel_sd(self) -> float | None:
        """The relative spread of the progress TPS (stdev / mean), without the first interval (ramp-up);
        None with fewer than three intervals."""
        tps = [p.tps for p in self.progress[1:]]
        if len(tps) < 2 or statistics.fmean(tps) <= 0:
            return None
        return statistics.stdev(tps) / statistics.fmean(tps)


@dataclass(frozen=True, slots=True)
class PgbenchSweep:
    runs: tuple[PgbenchRun, ...]

    @property
    def mixes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r.mix for r in self.runs))


@dataclass(frozen=True, slots=True)
class AggregateInterval:
    start_epoch_s: int
    transactions: int
    latency_sum_us: float
    latency_min_us: float
    latency_max_us: float


@dataclass(frozen=True, slots=True)
class PgbenchAggregateLog:
    """An `--aggregate-interval` log: one run's intervals. It records no client count, and with `-j N` each
    thread writes its own file holding its own clients' transactions only."""

    interval_s: int
    intervals: tuple[AggregateInterval, ...]

    @property
    def tps(self) -> float:
        return sum(i.transactions for i in self.intervals) / (self.interval_s * len(self.intervals))

    @property
    def latency_ms(self) -> float | None:
        n = sum(i.transactions for i in self.intervals)
        return sum(i.latency_sum_us for i in self.intervals) / n / 1000.0 if n else None

    def steady_tps(self) -> list[float]:
        """TPS of each interval after the first (ramp-up), the last left out (pgbench writes it when the run ends,
        possibly part of an interval).

        >>> log = PgbenchAggregateLog(10, tuple(AggregateInterval(t, n, 0, 0, 0) for t, n in
        ...     ((0, 50), (10, 100), (20, 120), (30, 10))))
        >>> log.steady_tps()
        [10.0, 12.0]
        """
        return [i.transactions / self.interval_s for i in self.intervals[1:-1]]

    @property
    def tps_rel_sd(self) -> float | None:
        """Standard deviation over mean of `steady_tps` (None with fewer than three such intervals)."""
        tps = self.steady_tps()
        if len(tps) < 3 or statistics.fmean(tps) <= 0:
            return None
        return statistics.stdev(tps) / statistics.fmean(tps)


def looks_like_aggregate_log(lines: list[Line]) -> bool:
    first = next((ln.text.strip() for ln in lines if ln.text.strip()), "")
    return bool(_AGG.fullmatch(first)) and len(first.split()) in AGGREGATE_FIELDS


def parse_pgbench(text: str, name: str) -> PgbenchSweep:
    """Every run summary in `text` (one run or a sweep), each with its progress lines; refused naming the line."""
    lines = numbered_lines(text, name)
    runs: list[PgbenchRun] = []
    progress: list[tuple[Line, Progress]] = []
    fields: dict[str, tuple[Line, str]] = {}
    for line in lines:
        t = line.text.strip()
        if not t or _OTHER.fullmatch(t) or (fields == {} and runs and _STATEMENT.fullmatch(line.text)):
            continue
        if m := PROGRESS.fullmatch(t):
            if fields:
                raise refuse(name, line, "a progress line inside a run's summary: the summary is cut short")
            progress.append((line, _progress(m, name, line)))
        elif m := _TPS.fullmatch(t):
            if m[2] == "including connections establishing":
                continue  # 13 and older: the next line has the rate without connection time
            runs.append(_run(name, line, fields, number(m[1], name, line, "tps"), [p for _, p in progress]))
            fields, progress = {}, []
        elif ":" in t or " = " in t:
            _summary_field(name, line, t, fields)
        elif t.startswith("Run was aborted"):
            raise refuse(name, line, "pgbench aborted this run; its results are incomplete")
        else:
            raise refuse(name, line, f"not a line of pgbench output: {shown(t)}")
    if fields:
        first = min(ln.number for ln, _ in fields.values())
        raise refuse(name, first, "this run's summary ends before its 'tps = ...' line: the file is cut short")
    if progress:
        raise refuse(name, progress[0][0], "progress lines with no run summary after them: the file is cut short "
                                           "(pgbench prints the summary when the run ends)")
    if not runs:
        raise refuse(name, None, "no pgbench run summary (no 'tps = ...' line)")
    return PgbenchSweep(tuple(runs))


def _summary_field(name: str, line: Line, t: str, fields: dict[str, tuple[Line, str]]) -> None:
    key, _, value = t.partition(" = ") if " = " in t.split(":", 1)[0] else t.partition(": ")
    slot = _KEYS.get(key.strip())
    if slot is None or not value:
        raise refuse(name, line, f"not a line of pgbench output: {shown(t)}")
    if slot in fields:
        raise refuse(name, line, f"a second '{key.strip()}' line before the run's 'tps = ...' line: two runs' "
                                 "summaries are mixed (or one is cut short)")
    fields[slot] = (line, value.strip())


def _progress(m: re.Match[str], name: str, line: Line) -> Progress:
    return Progress(number(m[1], name, line, "progress time"), number(m[2], name, line, "progress tps"),
                    number(m[3], name, line, "progress latency"))


def _run(name: str, tps_line: Line, fields: dict[str, tuple[Line, str]], tps: float,
         progress: list[Progress]) -> PgbenchRun:
    for slot, label in (("mix", "transaction type"), ("clients", "number of clients"),
                        ("threads", "number of threads")):
        if slot not in fields:
            raise refuse(name, tps_line, f"this run's summary has no '{label}' line: it is cut short or edited")

    def whole(slot: str, what: str) -> int | None:
        if slot not in fields:
            return None
        line, value = fields[slot]
        return integer(value.split("/")[0].split()[0], name, line, what)

    def ms(slot: str, what: str) -> float | None:
        if slot not in fields:
            return None
        line, value = fields[slot]
        return number(value.removesuffix(" (including failures)").removesuffix(" ms"), name, line, what)

    clients = whole("clients", "number of clients")
    threads = whole("threads", "number of threads")
    assert clients is not None and threads is not None
    if clients == 0:
        raise refuse(name, fields["clients"][0], "number of clients must be at least 1")
    duration = fields.get("duration")
    return PgbenchRun(
        line=tps_line.number, mix=fields["mix"][1], clients=clients, threads=threads, tps=tps,
        latency_ms=ms("latency", "latency average"), latency_stddev_ms=ms("stddev", "latency stddev"),
        scale=whole("scale", "scaling factor"),
        duration_s=integer(duration[1].removesuffix(" s"), name, duration[0], "duration") if duration else None,
        transactions=whole("processed", "transactions processed"), failed=whole("failed", "failed transactions") or 0,
        progress=tuple(progress))


def parse_aggregate_log(text: str, name: str) -> PgbenchAggregateLog:
    """An `--aggregate-interval` log; the interval is the step between the intervals' start times."""
    rows: list[tuple[Line, AggregateInterval]] = []
    width = None
    for line in numbered_lines(text, name):
        t = line.text.strip()
        if not t:
            continue
        parts = t.split()
        if not _AGG.fullmatch(t) or len(parts) not in AGGREGATE_FIELDS:
            raise refuse(name, line, f"not a pgbench aggregate log line ({'/'.join(map(str, AGGREGATE_FIELDS))} "
                                     f"whole numbers): {shown(t)}")
        if width is not None and len(parts) != width:
            raise refuse(name, line, f"{len(parts)} fields where the lines above have {width}: two logs mixed")
        width = len(parts)
        v = [integer(p, name, line, "aggregate field") for p in parts]
        if v[1] and not v[4] - 1 <= v[2] / v[1] <= v[5] + 1:  # each printed %.0f
            raise refuse(name, line, "the mean latency (sum / transactions) lies outside min..max")
        rows.append((line, AggregateInterval(v[0], v[1], float(v[2]), float(v[4]), float(v[5]))))
    if len(rows) < 2:
        raise refuse(name, None, "an aggregate log needs at least two intervals (the interval length is the step "
                                 "between their start times)")
    steps = {b.start_epoch_s - a.start_epoch_s for (_, a), (_, b) in itertools.pairwise(rows)}
    step = min(steps)
    for (_, a), (line, b) in itertools.pairwise(rows):
        gap = b.start_epoch_s - a.start_epoch_s
        if step <= 0 or gap % step:
            raise refuse(name, line, f"interval start {b.start_epoch_s} does not follow {a.start_epoch_s} by a "
                                     f"whole number of intervals ({step} s): the log is out of order or mixed")
    return PgbenchAggregateLog(step, tuple(r for _, r in rows))

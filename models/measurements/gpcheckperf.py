"""gpcheckperf's RESULT block: per-host disk write/read and memory (stream) bandwidth, and the network test.

The format is the one `gpMgmt/bin/gpcheckperf` prints (printResult, printNetResult, printMatrixResult; read in
greenplum-db/gpdb and cloudberrydb/cloudberrydb, whose RESULT printing is the same line for line):
after the test banners it prints

    ====================
    ==  RESULT <datetime.now().isoformat()>
    ====================

then, per test run (printResult), ` disk write avg time (sec): %3.2f`, ` disk write tot bytes: %d`,
` disk write tot bandwidth (MB/s): %3.2f`, ` disk write min bandwidth (MB/s): %3.2f [host]`, the same for max,
and with `-D` ` -- per host bandwidth --` followed by `    disk write bandwidth (MB/s): %3.2f [host]` per host;
likewise `disk read` and `stream` (stream has no time or bytes lines). The network test is either
`Netperf bisection bandwidth test` (printNetResult: `a -> b = %f` per link) or `Full matrix netperf bandwidth
test` (printMatrixResult: `Per host transfer rates` / `host Tx rate: %.2f`, `Per host receive rates` /
`host Rx rate: %.2f`, the links only with -v), then `Summary:` with `sum|min|max|avg|median = %.2f MB/sec`, and
for the bisection test `[Warning] connection between a and b is no good` for each link below 0.9 x the fastest.

Units: gpcheckperf divides bytes by 1024 twice and netperf runs with `-f M`, so its "MB/s" is 2^20 bytes a
second; the fields here are named `_mib_s` for that reason (`MIB_S_TO_MB_S` converts).

Lines before the RESULT block (banners, `[Info]` lines of -v, gpssh output) are not read. Inside it every line
must be one of the above (or blank, `[Info]`, the -v teardown banner); any other line, a second RESULT block, a
test without its min and max lines, a summary that contradicts its own lines, or a file that ends inside a
block refuses the file whole, naming the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from models.measurements.lines import Line, integer, number, numbered_lines, refuse, shown

MIB_S_TO_MB_S = 1.048576  # 2^20 / 10^6
TESTS = ("disk write", "disk read", "stream")
_T = r"(disk write|disk read|stream)"
_NUM = r"(\S+)"
_HOST = r"\[([^\]\s]+)\]"
RESULT_HEADER = re.compile(r"==\s+RESULT\s+(\S+)")
_RUN_START = re.compile(r"==\s+RESULT\s|--\s+(DISK WRITE|DISK READ|STREAM|NETPERF) TEST|\S*gpcheckperf\s")
_PATTERNS: dict[str, re.Pattern[str]] = {
    "time": re.compile(rf"{_T} avg time \(sec\): {_NUM}"),
    "bytes": re.compile(rf"{_T} tot bytes: {_NUM}"),
    "tot": re.compile(rf"{_T} tot bandwidth \(MB/s\): {_NUM}"),
    "minmax": re.compile(rf"{_T} (min|max) bandwidth \(MB/s\): {_NUM} {_HOST}"),
    "host": re.compile(rf"{_T} bandwidth \(MB/s\): {_NUM} {_HOST}"),
    "link": re.compile(r"(\S+) -> (\S+) = (\S+)"),
    "rate": re.compile(r"(\S+) (Tx|Rx) rate: (\S+)"),
    "summary": re.compile(r"(sum|min|max|avg|median) = (\S+) MB/sec"),
    "no_good": re.compile(r"\[Warning\] connection between (\S+) and (\S+) is no good"),
}
_IGNORED = ("[Info]", "====================", "--------------------", "TEARDOWN", "-- per host bandwidth --")
_ROUNDING = 0.006  # %.2f / %3.2f printing: a printed figure is within 0.005 of the one gpcheckperf summed


@dataclass(frozen=True, slots=True)
class HostRate:
    host: str
    mib_s: float


@dataclass(frozen=True, slots=True)
class BandwidthTest:
    """One of disk write, disk read, stream: the cluster total, the slowest and fastest host, per host with -D."""

    test: str
    total_mib_s: float
    min: HostRate
    max: HostRate
    per_host: tuple[HostRate, ...] = ()
    avg_time_s: float | None = None
    total_bytes: int | None = None

    @property
    def hosts(self) -> int | None:
        """Hosts measured: known from the -D lines only (None without them)."""
        return len(self.per_host) or None


@dataclass(frozen=True, slots=True)
class Link:
    source: str
    target: str
    mib_s: float


@dataclass(frozen=True, slots=True)
class NetworkTest:
    """The bisection (pairs, both ways) or full-matrix test: its links, per-host Tx/Rx and the Summary."""

    mode: str  # "bisection" | "matrix"
    summary: dict[str, float]  # sum, min, max, avg, median (MiB/s per link)
    links: tuple[Link, ...] = ()
    tx: tuple[HostRate, ...] = ()
    rx: tuple[HostRate, ...] = ()
    no_good: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class GpcheckperfResult:
    timestamp: datetime
    tests: dict[str, BandwidthTest]
    network: NetworkTest | None
    command: str = ""

    @property
    def hosts(self) -> tuple[str, ...]:
        """Every host the result names, sorted."""
        names: set[str] = set()
        for t in self.tests.values():
            names |= {t.min.host, t.max.host, *(h.host for h in t.per_host)}
        if self.network is not None:
            for link in self.network.links:
                names |= {link.source, link.target}
            names |= {h.host for h in (*self.network.tx, *self.network.rx)}
        return tuple(sorted(names))


@dataclass
class _Test:
    first: Line
    values: dict[str, float] = field(default_factory=dict)
    hosts: dict[str, str] = field(default_factory=dict)
    per_host: list[HostRate] = field(default_factory=list)
    per_host_header: Line | None = None


@dataclass
class _Net:
    first: Line
    mode: str
    links: list[Link] = field(default_factory=list)
    tx: list[HostRate] = field(default_factory=list)
    rx: list[HostRate] = field(default_factory=list)
    summary: dict[str, float] = field(default_factory=dict)
    summary_line: Line | None = None
    no_good: list[tuple[Line, str, str]] = field(default_factory=list)


class _Reader:
    """The RESULT block's lines, one at a time, into per-test and network state."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.tests: dict[str, _Test] = {}
        self.net: _Net | None = None
        self.last_test: _Test | None = None

    def test(self, key: str, line: Line) -> _Test:
        return self.tests.setdefault(key, _Test(line))

    def read(self, line: Line) -> None:
        text = line.text.strip()
        if not text or text.startswith(_IGNORED):
            if text == "-- per host bandwidth --":
                if self.last_test is None:
                    raise refuse(self.name, line, "a per-host bandwidth list outside a disk or stream test")
                self.last_test.per_host_header = line
            return
        if text.startswith("[Abort]"):
            raise refuse(self.name, line, "gpcheckperf was interrupted; its results are incomplete")
        if _RUN_START.match(text):
            raise refuse(self.name, line, "a second gpcheckperf run after the RESULT block: import each run as "
                                          "its own file")
        if not (self._test_line(line, text) or self._net_line(line, text)):
            raise refuse(self.name, line, f"not a line of gpcheckperf's RESULT block: {shown(text)}")

    def _test_line(self, line: Line, text: str) -> bool:
        m = _PATTERNS["minmax"].fullmatch(text)
        if m:
            t = self.test(m[1], line)
            t.values[m[2]] = number(m[3], self.name, line, f"{m[1]} {m[2]} bandwidth")
            t.hosts[m[2]] = m[4]
        elif m := _PATTERNS["host"].fullmatch(text):
            t = self.test(m[1], line)
            if t.per_host_header is None:
                raise refuse(self.name, line, f"a per-host {m[1]} line before ' -- per host bandwidth --'")
            if any(h.host == m[3] for h in t.per_host):
                raise refuse(self.name, line, f"host {m[3]} is listed twice for {m[1]}")
            t.per_host.append(HostRate(m[3], number(m[2], self.name, line, f"{m[1]} bandwidth of {m[3]}")))
        else:
            for key in ("time", "bytes", "tot"):
                m = _PATTERNS[key].fullmatch(text)
                if m:
                    t = self.test(m[1], line)
                    t.values[key] = (float(integer(m[2], self.name, line, f"{m[1]} tot bytes")) if key == "bytes"
                                     else number(m[2], self.name, line, f"{m[1]} {key}"))
                    break
            else:
                return False
        self.last_test = self.tests[m[1]]
        return True

    def _net_line(self, line: Line, text: str) -> bool:
        if text in ("Netperf bisection bandwidth test", "Full matrix netperf bandwidth test"):
            if self.net is not None:
                raise refuse(self.name, line, "a second network test in one RESULT block")
            self.net = _Net(line, "bisection" if text.startswith("Netperf") else "matrix")
            return True
        if text in ("Per host transfer rates", "Per host receive rates", "Summary:"):
            net = self._in_net(line)
            if text == "Summary:":
                net.summary_line = line
            return True
        if m := _PATTERNS["link"].fullmatch(text):
            self._in_net(line).links.append(Link(m[1], m[2], number(m[3], self.name, line, "link bandwidth")))
        elif m := _PATTERNS["rate"].fullmatch(text):
            rates = self._in_net(line).tx if m[2] == "Tx" else self._in_net(line).rx
            rates.append(HostRate(m[1], number(m[3], self.name, line, f"{m[2]} rate of {m[1]}")))
        elif m := _PATTERNS["summary"].fullmatch(text):
            net = self._in_net(line)
            if net.summary_line is None:
                raise refuse(self.name, line, "a network summary value before 'Summary:'")
            net.summary[m[1]] = number(m[2], self.name, line, f"network {m[1]}")
        elif m := _PATTERNS["no_good"].fullmatch(text):
            self._in_net(line).no_good.append((line, m[1], m[2]))
        else:
            return False
        return True

    def _in_net(self, line: Line) -> _Net:
        if self.net is None:
            raise refuse(self.name, line, "a network result line before the network test's title line")
        return self.net


def parse_gpcheckperf(text: str, name: str) -> GpcheckperfResult:
    """The RESULT block of gpcheckperf output (or its log) in `text`; FileInputError naming the bad line."""
    lines = numbered_lines(text, name)
    start = next((ln for ln in lines if RESULT_HEADER.fullmatch(ln.text.strip())), None)
    if start is None:
        raise refuse(name, None, "no gpcheckperf RESULT block (the line '==  RESULT <date>' is missing; "
                                 "was the run interrupted before it printed its results?)")
    stamp = RESULT_HEADER.fullmatch(start.text.strip())
    try:
        when = datetime.fromisoformat(stamp[1]) if stamp else None
    except ValueError:
        when = None
    if when is None:
        raise refuse(name, start, f"the RESULT date {shown(start.text.strip())} is not an ISO date and time")
    reader = _Reader(name)
    for line in lines[start.number:]:
        reader.read(line)
    if not reader.tests and reader.net is None:
        raise refuse(name, lines[-1], "the RESULT block holds no test results (the file ends after its title)")
    tests = {k: _finished_test(name, k, t, lines[-1]) for k, t in reader.tests.items()}
    network = _finished_net(name, reader.net, lines[-1]) if reader.net is not None else None
    command = next((ln.text.strip() for ln in lines[: start.number] if "gpcheckperf" in ln.text), "")
    return GpcheckperfResult(when, {k: tests[k] for k in TESTS if k in tests}, network, command)


def _finished_test(name: str, key: str, t: _Test, last: Line) -> BandwidthTest:
    missing = [v for v in ("tot", "min", "max") if v not in t.values]
    if missing:
        raise refuse(name, last, f"the {key} results end without their {' and '.join(missing)} bandwidth "
                                 "line(s): the file is cut short or edited")
    if t.per_host_header is not None and not t.per_host:
        raise refuse(name, t.per_host_header, f"the {key} per-host list is empty: the file is cut short")
    tot, lo, hi = t.values["tot"], t.values["min"], t.values["max"]
    if lo > hi + _ROUNDING or hi > tot + _ROUNDING:
        raise refuse(name, t.first, f"{key}: min {lo:g} <= max {hi:g} <= total {tot:g} does not hold")
    if t.per_host:
        rates = [h.mib_s for h in t.per_host]
        if abs(sum(rates) - tot) > _ROUNDING * len(rates) or abs(min(rates) - lo) > _ROUNDING \
                or abs(max(rates) - hi) > _ROUNDING:
            raise refuse(name, t.per_host_header or t.first,
                         f"{key}: the per-host lines (sum {sum(rates):.2f}, min {min(rates):.2f}, max "
                         f"{max(rates):.2f}) contradict the total {tot:.2f}, min {lo:.2f} and max {hi:.2f}")
    return BandwidthTest(
        key, tot, HostRate(t.hosts["min"], lo), HostRate(t.hosts["max"], hi), tuple(t.per_host),
        t.values.get("time"), int(t.values["bytes"]) if "bytes" in t.values else None)


def _finished_net(name: str, net: _Net, last: Line) -> NetworkTest:
    missing = [k for k in ("sum", "min", "max", "avg", "median") if k not in net.summary]
    if missing:
        raise refuse(name, last, f"the network test's Summary lacks {', '.join(missing)}: the file is cut short")
    if net.mode == "bisection" and not net.links:
        raise refuse(name, net.first, "the bisection test lists no links")
    if net.mode == "matrix" and not (net.tx and net.rx):
        raise refuse(name, net.first, "the full-matrix test lacks its per-host Tx or Rx rates")
    s = net.summary
    if not s["min"] - _ROUNDING <= s["avg"] <= s["max"] + _ROUNDING:
        raise refuse(name, net.summary_line, f"network summary: min {s['min']:g} <= avg {s['avg']:g} <= max "
                                             f"{s['max']:g} does not hold")
    if net.links:
        rates = [link.mib_s for link in net.links]
        if abs(min(rates) - s["min"]) > _ROUNDING or abs(max(rates) - s["max"]) > _ROUNDING:
            raise refuse(name, net.summary_line, f"network summary min {s['min']:.2f} / max {s['max']:.2f} "
                                                 f"contradict the links ({min(rates):.2f} / {max(rates):.2f})")
    pairs = {(link.source, link.target) for link in net.links}
    for line, a, b in net.no_good:
        if net.links and (a, b) not in pairs:
            raise refuse(name, line, f"the warning names a link {a} -> {b} the test does not list")
    return NetworkTest(net.mode, dict(s), tuple(net.links), tuple(net.tx), tuple(net.rx),
                       tuple((a, b) for _, a, b in net.no_good))

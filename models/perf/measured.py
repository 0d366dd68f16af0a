"""Measured rates in place of modelled ones, for the sizing of one scenario: the hooks the models read.

A scenario that names measurement profiles (`platform.measurements`) is sized inside `measured(...)`:

- `ScanFactors` multiply the scan/load parameters every Greenplum estimate reads (`default_params`,
  `sampled_params`): `drive_read` and `drive_write` the drives' efficiency (the share of their datasheet rate a
  host delivers); `link_mb_s`, the measured rate of one link, is what each port of a design's NIC carries, up to
  that NIC's own line rate (`port_mb_s`): relative to the design's NIC, whichever it is, not to the NIC the
  measurement was compared with;
- `MeasuredCurve`s replace the study's USL curve of a Greenplum OLTP mix (`gp_oltp`), scaled from the measured
  cluster to a design by the same capacity ratio the study curve is scaled by.

Outside `measured(...)` nothing changes, bit for bit: the factors are absent, not 1.0. The values are context
variables, so a sizing in one thread does not leak into another.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from models.perf.scan_load import ScanParams
    from models.perf.usl import UslFit


@dataclass(frozen=True, slots=True)
class ScanFactors:
    """Measured / modelled per resource (1.0: as modelled)."""

    drive_read: float = 1.0
    drive_write: float = 1.0
    link_mb_s: float | None = None  # MB/s one measured link carries (None: the links were not measured)


@dataclass(frozen=True, slots=True)
class MeasuredCurve:
    """A fitted sweep standing in for the study's curve; `capacity_ratio` is the measured cluster's capacity
    relative to the study's reference cluster (`gp_oltp._capacity_ratios`), so a design's curve is the measured
    one scaled by its own ratio over this one."""

    fit: UslFit
    capacity_ratio: float
    source: str


@dataclass(frozen=True, slots=True)
class PgRates:
    """PostgreSQL's per-client and per-vCPU transaction rates from a measured sweep, in place of study 001's."""

    tps_per_client: float
    tps_per_vcpu: float | None  # None: the sweep's host is not known, so its per-vCPU rate is not either
    source: str


@dataclass(frozen=True, slots=True)
class Measured:
    """What a sizing on measurements ran with, kept on its result so estimates derived from the result later (the
    estimate-vs-hosts curve, growth, sensitivity) are computed on the same measured rates."""

    scan: ScanFactors | None
    oltp: Mapping[str, MeasuredCurve]
    pg: PgRates | None = None


_SCAN: ContextVar[ScanFactors | None] = ContextVar("measured_scan_factors", default=None)
_OLTP: ContextVar[Mapping[str, MeasuredCurve] | None] = ContextVar("measured_oltp_curves", default=None)
_PG: ContextVar[PgRates | None] = ContextVar("measured_pg_rates", default=None)
_ACTIVE: ContextVar[bool] = ContextVar("measured_active", default=False)


@contextmanager
def measured(scan: ScanFactors | None = None, oltp: Mapping[str, MeasuredCurve] | None = None,
             pg: PgRates | None = None) -> Iterator[None]:
    """Estimates inside the block use the measured factors, curves and rates."""
    t1, t2, t3, t4 = _SCAN.set(scan), _OLTP.set(dict(oltp) if oltp else None), _ACTIVE.set(True), _PG.set(pg)
    try:
        yield
    finally:
        _SCAN.reset(t1)
        _OLTP.reset(t2)
        _ACTIVE.reset(t3)
        _PG.reset(t4)


@contextmanager
def using(m: Measured | None) -> Iterator[None]:
    """`measured(...)` with what a result kept (`SizingResult.measured`); nothing when it kept nothing."""
    if m is None:
        yield
        return
    with measured(m.scan, m.oltp, m.pg):
        yield


def active() -> bool:
    """Whether a sizing on measurements is under way in this context (its sizes need no profiles again)."""
    return _ACTIVE.get()


def pg_rates() -> PgRates | None:
    return _PG.get()


def scan_factors() -> ScanFactors | None:
    return _SCAN.get()


def oltp_curve(mix: str) -> MeasuredCurve | None:
    curves = _OLTP.get()
    return None if curves is None else curves.get(mix)


def applied(params: ScanParams) -> ScanParams:
    """`params` with the active factors applied; `params` itself (the same object) when none are active."""
    f = _SCAN.get()
    if f is None:
        return params
    return replace(
        params,
        drive_read_efficiency=params.drive_read_efficiency * f.drive_read,
        drive_write_efficiency=params.drive_write_efficiency * f.drive_write,
    )


def port_mb_s(line_rate_mb_s: float) -> float:
    """What one port of line rate `line_rate_mb_s` carries: the measured link rate, up to the port's line rate,
    inside a sizing on measured links; the line rate otherwise.

    >>> port_mb_s(12_500.0)
    12500.0
    >>> with measured(ScanFactors(link_mb_s=1_139.0)):
    ...     port_mb_s(12_500.0), port_mb_s(1_250.0), port_mb_s(125.0)
    (1139.0, 1139.0, 125.0)
    """
    f = _SCAN.get()
    if f is None or f.link_mb_s is None:
        return line_rate_mb_s
    return min(line_rate_mb_s, f.link_mb_s)

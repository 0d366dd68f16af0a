"""Which measured sweep stands for which Greenplum OLTP mix, in what unit, and how steady its runs were.

Study 004 ran pgbench's builtin scripts, so a pgbench sweep of the same builtin is the same mix (TPC-B sort of ->
tpcb, select only -> select, simple update -> update), TPS for TPS. A HammerDB TPROC-C sweep is compared so:

- HammerDB's TPM on PostgreSQL (and on Greenplum, whose coordinator answers the same query) is the change of
  `select sum(xact_commit + xact_rollback) from pg_stat_database` over the timed test, divided by its minutes;
  its NOPM is the change of `select sum(d_next_o_id) from district`, the new orders alone (TPC-Council/HammerDB,
  src/postgresql/pgoltp.tcl, the monitor virtual user's start and end transaction counts). TPM / 60 therefore
  counts database transactions a second, the unit of pgbench's TPS (each pgbench transaction is one database
  transaction); NOPM counts one of TPROC-C's five transaction types and is not compared.
- TPROC-C is a read-write mix (new order, payment, order status, delivery, stock level), so it stands for study
  004's read-write mix, TPC-B (tpcb), and only where the profile has no pgbench sweep of TPC-B; a TPROC-C
  transaction writes several order lines where a TPC-B one updates three rows and inserts one, so the stand-in is
  conservative. Select-only, simple-update and insert have no HammerDB stand-in.

A pgbench `--aggregate-interval` log gives the run's rate interval by interval (transactions / interval). Its
relative spread (standard deviation over mean of the interval rates, the first interval (ramp-up) and the last
(pgbench writes it when the run ends, possibly part of an interval) left out) is how steady the runs were: the
larger of it and the fit's own residual error is taken as each point's relative uncertainty, so the fitted
curve's P10-P90 is no narrower than the runs' own unsteadiness. A log records no client count or mix (and with
`-j N` each thread writes its own), so a profile's logs describe its runs as a whole: the largest spread counts.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from models.measurements.hammerdb import HammerdbSweep
from models.measurements.pgbench import PgbenchAggregateLog
from models.measurements.profile import MeasurementProfile, sweeps

PGBENCH_MIXES = {"<builtin: TPC-B (sort of)>": "tpcb", "<builtin: select only>": "select",
                 "<builtin: simple update>": "update"}
HAMMERDB_STANDS_FOR = "tpcb"  # study 004's read-write mix
SECONDS_PER_MINUTE = 60.0


@dataclass(frozen=True, slots=True)
class MixSweep:
    """A sweep in TPS that stands for one Greenplum OLTP mix, and how it was mapped."""

    tool: str  # pgbench | HammerDB
    what: str  # the sweep in words: "pgbench <builtin: TPC-B (sort of)>", "HammerDB TPROC-C TPM / 60"
    clients: tuple[float, ...]
    tps: tuple[float, ...]
    mapping: str  # the comparison, for the calibration section
    sources: tuple[str, ...]


def oltp_sweeps(profile: MeasurementProfile, mix: str) -> list[MixSweep]:
    """The profile's sweeps that stand for `mix`: pgbench of the same builtin first, then (tpcb only) HammerDB
    TPROC-C as TPM / 60."""
    out = [MixSweep("pgbench", f"pgbench {s.mix}", s.clients, s.throughput,
                    f"TPS against study 004's {mix} TPS: the same builtin script", s.sources)
           for s in sweeps(profile) if s.tool == "pgbench" and PGBENCH_MIXES.get(s.mix) == mix]
    if mix != HAMMERDB_STANDS_FOR:
        return out
    for pf in profile.files:
        data = pf.measurement.data
        if not isinstance(data, HammerdbSweep):
            continue
        steps = [s for s in data.steps if s.tpm is not None]
        out.append(MixSweep(
            "HammerDB", "HammerDB TPROC-C TPM / 60", tuple(float(s.virtual_users) for s in steps),
            tuple(float(s.tpm or 0.0) / SECONDS_PER_MINUTE for s in steps),
            "TPM / 60 is the database's commits and rollbacks a second, pgbench's unit, set against study 004's "
            f"{mix} TPS (NOPM, new orders alone, is not compared); TPROC-C is the read-write mix, heavier per "
            "transaction than TPC-B, so conservative", (pf.file_name,)))
    return out


@dataclass(frozen=True, slots=True)
class Steadiness:
    """The largest relative spread of the interval rates over a profile's aggregate logs, and its range."""

    rel_sd: float
    tps_p10: float
    tps_p90: float
    intervals: int
    source: str


def steadiness(profile: MeasurementProfile) -> Steadiness | None:
    """The unsteadiest aggregate log of the profile (None: no log with three whole intervals)."""
    best: Steadiness | None = None
    for pf in profile.files:
        data = pf.measurement.data
        if not isinstance(data, PgbenchAggregateLog):
            continue
        rates, rel = data.steady_tps(), data.tps_rel_sd
        if rel is None:
            continue
        deciles = statistics.quantiles(rates, n=10, method="inclusive")
        if best is None or rel > best.rel_sd:
            best = Steadiness(rel, deciles[0], deciles[-1], len(rates), pf.file_name)
    return best

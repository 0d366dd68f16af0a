"""Which measured sweep stands for a Greenplum OLTP mix (HammerDB TPROC-C as TPM / 60 for tpcb; pgbench of the
same builtin first), and the runs' interval spread from --aggregate-interval logs as the fit's uncertainty."""

from __future__ import annotations

import json
import statistics
from datetime import UTC, datetime
from pathlib import Path

import pytest

from catalog.seed import seed_catalog
from models.hardware import HardwareCatalog
from models.measurements import calibration
from models.measurements.detect import parse_measurement
from models.measurements.hammerdb import HammerdbSweep
from models.measurements.mixes import oltp_sweeps, steadiness
from models.measurements.pgbench import PgbenchAggregateLog, parse_aggregate_log
from models.measurements.plan import check
from models.measurements.profile import MeasurementProfile, ProfileFile
from models.scenario import Scenario, parse_scenario
from models.sizing.engine import size
from models.sizing.result import SizingResult

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "resources" / "samples"

FIXTURES = Path(__file__).parent / "fixtures"
NOW = datetime(2026, 11, 29, tzinfo=UTC)


def _file(name: str, text: str | None = None) -> ProfileFile:
    text = (FIXTURES / name).read_text(encoding="utf-8") if text is None else text
    return ProfileFile(name, NOW, parse_measurement(text, name))


def _profile(*files: ProfileFile) -> MeasurementProfile:
    return MeasurementProfile("lab", None, NOW, files)


def _oltp(mix: str) -> Scenario:
    doc = json.loads((SAMPLES / "gp-oltp.json").read_text(encoding="utf-8"))
    doc["workload"]["mix"] = mix
    doc["platform"]["measurements"] = ["lab"]
    return parse_scenario(doc)


def _aggregate_log(counts: list[int], interval_s: int = 10) -> str:
    """An --aggregate-interval log in pgbench 15+'s 15 fields, latencies consistent with the counts."""
    rows, mean_us = [], 700
    for k, n in enumerate(counts):
        rows.append(f"{1763630100 + k * interval_s} {n} {n * mean_us} {n * mean_us**2} 500 900" + " 0" * 9)
    return "\n".join(rows) + "\n"


@pytest.fixture(scope="module")
def catalog() -> HardwareCatalog:
    return seed_catalog()


@pytest.fixture(scope="module")
def first(catalog: HardwareCatalog) -> dict[str, SizingResult]:
    """The modelled tpcb design the measured sweeps are compared with, sized once (a select scenario finds no
    sweep, so its first design is not read)."""
    s = _oltp("tpcb")
    plain = size(s.model_copy(update={"platform": s.platform.model_copy(update={"measurements": []})}), catalog)
    return {"tpcb": plain, "select": plain}


def test_a_hammerdb_tproc_c_sweep_stands_for_tpcb_as_tpm_per_60(catalog: HardwareCatalog,
                                                                  first: dict[str, SizingResult]) -> None:
    hdb = _file("hammerdb_sweep.csv")
    p = calibration.plan(_oltp("tpcb"), [_profile(hdb)], first["tpcb"], catalog)
    curve = p.oltp["tpcb"]
    data = hdb.measurement.data
    assert isinstance(data, HammerdbSweep)
    # the fit ran on TPM / 60 (database transactions a second), not on NOPM
    assert list(curve.fit.observed) == pytest.approx([s.tpm / 60 for s in data.steps if s.tpm])
    assert curve.fit.observed.max() < max(s.nopm or 0 for s in data.steps)  # NOPM would be ~27x larger
    row = next(r for r in p.resources if r.name == "oltp_tps")
    assert "TPM / 60" in row.changes and "NOPM" in row.changes and "not compared" in row.changes
    assert row.measured != pytest.approx(row.modelled or 0.0, rel=0.05)  # the measured curve changes the TPS


def test_pgbench_of_the_same_builtin_comes_before_hammerdb(catalog: HardwareCatalog,
                                                          first: dict[str, SizingResult]) -> None:
    prof = _profile(_file("hammerdb_sweep.csv"), _file("pgbench_tpcb_sweep.txt"))
    assert [s.tool for s in oltp_sweeps(prof, "tpcb")] == ["pgbench", "HammerDB"]
    p = calibration.plan(_oltp("tpcb"), [prof], first["tpcb"], catalog)
    assert "pgbench <builtin: TPC-B (sort of)>" in p.oltp["tpcb"].source


def test_tproc_c_stands_for_no_read_only_mix(catalog: HardwareCatalog, first: dict[str, SizingResult]) -> None:
    prof = _profile(_file("hammerdb_sweep.csv"))
    assert oltp_sweeps(prof, "select") == [] and oltp_sweeps(prof, "update") == []
    p = calibration.plan(_oltp("select"), [prof], first["select"], catalog)
    assert p.oltp == {} and "HammerDB TPROC-C stands for tpcb only" in p.notes[0]


def test_the_validation_plan_checks_tpcb_on_a_hammerdb_sweep() -> None:
    hdb = _file("hammerdb_sweep.csv")
    data = hdb.measurement.data
    assert isinstance(data, HammerdbSweep)
    at_16 = next(s.tpm for s in data.steps if s.virtual_users == 16)
    assert at_16 is not None
    plan = {"tolerance": 0.9, "oltp": {"mix": "tpcb", "clients": 16, "tps_p10": at_16 / 60 * 1.01,
                                       "tps_p50": at_16 / 60 * 1.1, "tps_p90": at_16 / 60 * 1.2}}
    (c,) = check(plan, _profile(hdb))
    assert c.measured == pytest.approx(at_16 / 60) and c.passed is False  # 1 % short of the P10
    assert "HammerDB TPROC-C TPM / 60 measured at the design's clients" in c.detail


def test_the_interval_spread_leaves_out_the_ramp_up_and_the_last_interval() -> None:
    log = parse_aggregate_log(_aggregate_log([10, 1000, 1100, 900, 1000, 3]), "x.log")
    assert isinstance(log, PgbenchAggregateLog)
    assert log.steady_tps() == [100.0, 110.0, 90.0, 100.0]
    assert log.tps_rel_sd == pytest.approx(statistics.stdev([100, 110, 90, 100]) / 100)
    assert parse_aggregate_log(_aggregate_log([10, 1000, 1100, 3]), "x.log").tps_rel_sd is None  # 2 whole


def test_an_unsteady_run_widens_the_measured_curves_band(catalog: HardwareCatalog,
                                                         first: dict[str, SizingResult]) -> None:
    sweep = _file("pgbench_tpcb_sweep.txt")
    steady = _file("steady.log", _aggregate_log([900, 1000, 1010, 990, 1000, 1005, 995, 400]))
    shaky = _file("shaky.log", _aggregate_log([900, 1000, 1300, 700, 1200, 800, 1000, 400]))
    clients = _oltp("tpcb").workload.clients  # type: ignore[union-attr]

    def band(*files: ProfileFile) -> tuple[float, str]:
        p = calibration.plan(_oltp("tpcb"), [_profile(*files)], first["tpcb"], catalog)
        e = p.oltp["tpcb"].fit.estimate(clients, samples=2_000)
        return (e.p90 - e.p10) / e.p50, next(r.changes for r in p.resources if r.name == "oltp_tps")

    alone, said_alone = band(sweep)
    calm, said_calm = band(sweep, steady)
    wild, said_wild = band(sweep, shaky)
    assert wild > 3 * calm and wild > alone
    assert "no pgbench --aggregate-interval log" in said_alone
    prof = _profile(sweep, shaky)
    s = steadiness(prof)
    assert s is not None and s.rel_sd == pytest.approx(statistics.stdev([100, 130, 70, 120, 80, 100]) / 100)
    assert f"{s.rel_sd:.1%}" in said_wild and "shaky.log" in said_wild
    # the unsteadiest log of a profile counts
    both = steadiness(_profile(sweep, steady, shaky))
    assert both is not None and both.source == "shaky.log"
    assert "steady.log" in said_calm

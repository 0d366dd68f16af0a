"""The measurement parsers on files in the tools' own formats (fixtures written from gpcheckperf's printResult /
printNetResult / printMatrixResult, pgbench's printResults / printProgressReport / doLog, and HammerDB's result
lines), including truncated, edited and mixed files, which are refused whole naming the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.file_input import FileInputError
from models.measurements.detect import parse_measurement, read_measurement
from models.measurements.gpcheckperf import GpcheckperfResult, parse_gpcheckperf
from models.measurements.hammerdb import HammerdbSweep
from models.measurements.pgbench import PgbenchAggregateLog, PgbenchSweep, parse_pgbench

FIXTURES = Path(__file__).parent / "fixtures"


def text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def refusal(name: str, body: str | None = None) -> str:
    with pytest.raises(FileInputError) as exc:
        parse_measurement(text(name) if body is None else body, name)
    return str(exc.value)


def line_of(body: str, needle: str) -> int:
    return next(i for i, t in enumerate(body.splitlines(), start=1) if needle in t)


def test_gpcheckperf_disk_stream_and_bisection_with_per_host_lines() -> None:
    m = read_measurement(FIXTURES / "gpcheckperf_dsN_D.txt")
    assert m.kind == "gpcheckperf"
    r = m.data
    assert isinstance(r, GpcheckperfResult)
    assert r.timestamp.isoformat() == "2026-11-20T10:15:02.481516"
    assert list(r.tests) == ["disk write", "disk read", "stream"]
    read = r.tests["disk read"]
    assert (read.total_mib_s, read.min.host, read.min.mib_s, read.max.host) == (10091.57, "sdw3", 2434.59, "sdw1")
    assert [h.host for h in read.per_host] == ["sdw1", "sdw2", "sdw3", "sdw4"] and read.hosts == 4
    assert read.total_bytes == 4398046511104 and read.avg_time_s == 415.82
    assert r.tests["stream"].avg_time_s is None and r.tests["stream"].total_bytes is None
    net = r.network
    assert net is not None and net.mode == "bisection" and len(net.links) == 4
    assert net.summary["min"] == 614.90 and net.no_good == (("sdw3", "sdw4"),)
    assert r.hosts == ("sdw1", "sdw2", "sdw3", "sdw4")
    assert "gpcheckperf -f" in r.command


def test_gpcheckperf_full_matrix_reads_tx_and_rx_per_host() -> None:
    r = parse_measurement(text("gpcheckperf_matrix.txt"), "m").data
    assert isinstance(r, GpcheckperfResult) and not r.tests
    assert r.network is not None and r.network.mode == "matrix"
    hosts = ["sdw1", "sdw2", "sdw3", "sdw4"]
    assert sorted(h.host for h in r.network.tx) == sorted(h.host for h in r.network.rx) == hosts
    assert r.network.links == () and r.network.summary["median"] > 0


def test_gpcheckperf_cut_short_in_a_test_is_refused_whole() -> None:
    body = text("gpcheckperf_truncated.txt")
    msg = refusal("gpcheckperf_truncated.txt")
    assert f"line {len(body.splitlines())}" in msg and "disk read" in msg and "min and max" in msg


def test_gpcheckperf_without_result_block_is_refused() -> None:
    assert "no gpcheckperf RESULT block" in refusal("gpcheckperf_no_result.txt")


def test_gpcheckperf_edited_per_host_line_contradicts_its_total() -> None:
    body = text("gpcheckperf_dsN_D.txt").replace("disk read bandwidth (MB/s): 2522.62 [sdw2]",
                                                 "disk read bandwidth (MB/s): 3522.62 [sdw2]")
    msg = refusal("edited.txt", body)
    assert "disk read: the per-host lines" in msg and "contradict the total 10091.57" in msg


def test_gpcheckperf_foreign_line_inside_result_names_it() -> None:
    body = text("gpcheckperf_dsN_D.txt").replace("Summary:", "Summary:\nsome note a colleague typed")
    n = line_of(body, "some note")
    assert f"line {n}: not a line of gpcheckperf's RESULT block: 'some note a colleague typed'" in \
        refusal("x.txt", body)


def test_gpcheckperf_negative_or_non_numeric_rates_are_refused() -> None:
    body = text("gpcheckperf_dsN_D.txt").replace("stream tot bandwidth (MB/s): 46156.71",
                                                 "stream tot bandwidth (MB/s): inf")
    assert "stream tot 'inf' is not a number" in refusal("x.txt", body)


def test_a_second_run_in_one_file_is_refused() -> None:
    body = text("gpcheckperf_dsN_D.txt")
    twice = body + body
    n = len(body.splitlines()) + 1
    assert f"line {n}: a second gpcheckperf run after the RESULT block" in refusal("x.txt", twice)


def test_mixed_file_is_refused_at_the_first_line_of_the_second_tool() -> None:
    body = text("mixed_gpcheckperf_pgbench.txt")
    n = line_of(body, "transaction type:")
    msg = refusal("mixed_gpcheckperf_pgbench.txt")
    assert f"line {n}: pgbench output in a gpcheckperf file" in msg


def test_pgbench_sweep_reads_each_run_with_its_progress_lines() -> None:
    sweep = parse_measurement(text("pgbench_tpcb_sweep.txt"), "s").data
    assert isinstance(sweep, PgbenchSweep)
    assert [r.clients for r in sweep.runs] == [1, 4, 8, 16, 32, 48, 64, 96, 128]
    first = sweep.runs[0]
    assert first.tps == 1433.8763 and first.latency_ms == 0.697 and first.duration_s == 60
    assert first.mix == "<builtin: TPC-B (sort of)>" and first.scale == 100 and first.threads == 1
    assert len(first.progress) == 6 and first.progress[0].tps == 1404.9
    assert first.tps_rel_sd is not None and 0 < first.tps_rel_sd < 0.05
    assert sweep.mixes == ("<builtin: TPC-B (sort of)>",)


def test_pgbench_13_takes_the_rate_excluding_connections() -> None:
    run = parse_pgbench(text("pgbench_single_pg13.txt"), "p").runs
    body = text("pgbench_single_pg13.txt")
    excluding = float(next(t for t in body.splitlines() if "excluding" in t).split()[2])
    assert len(run) == 1 and run[0].tps == excluding and run[0].clients == 16


def test_pgbench_per_statement_latencies_after_the_summary_are_accepted() -> None:
    sweep = parse_pgbench(text("pgbench_report_latencies.txt"), "p")
    assert [r.clients for r in sweep.runs] == [8]


def test_pgbench_sweep_cut_inside_a_summary_is_refused_naming_where_it_starts() -> None:
    body = text("pgbench_truncated.txt")
    starts = [i for i, t in enumerate(body.splitlines(), start=1) if t.startswith("transaction type")]
    msg = refusal("pgbench_truncated.txt")
    assert f"line {starts[-1]}" in msg and "cut short" in msg


def test_pgbench_two_summaries_interleaved_are_refused() -> None:
    body = text("pgbench_single_pg13.txt")
    lines = body.splitlines()
    mixed = "\n".join([*lines[:5], *lines[:5]])
    assert "a second 'transaction type' line" in refusal("x.txt", mixed)


def test_pgbench_aborted_run_is_refused() -> None:
    body = text("pgbench_single_pg13.txt").replace("tps = ", "Run was aborted; the above results are incomplete.\n"
                                                   "tps = ", 1)
    assert "pgbench aborted this run" in refusal("x.txt", body)


def test_pgbench_aggregate_log_gives_tps_per_interval() -> None:
    log = read_measurement(FIXTURES / "pgbench_log.48211").data
    assert isinstance(log, PgbenchAggregateLog)
    assert log.interval_s == 10 and len(log.intervals) == 12
    total = sum(int(t.split()[1]) for t in text("pgbench_log.48211").splitlines())
    assert log.tps == pytest.approx(total / 120)
    assert log.latency_ms == pytest.approx(5.6, rel=1e-3)


def test_pgbench_aggregate_log_out_of_order_or_mixed_widths_is_refused() -> None:
    lines = text("pgbench_log.48211").splitlines()
    assert "out of order or mixed" in refusal("l", "\n".join([lines[0], lines[2], lines[1]]))
    short = " ".join(lines[1].split()[:6])
    assert "line 2: 6 fields where the lines above have 15" in refusal("l", "\n".join([lines[0], short]))


def test_hammerdb_autopilot_log_pairs_each_result_with_its_virtual_users() -> None:
    sweep = read_measurement(FIXTURES / "hammerdb_autopilot.log").data
    assert isinstance(sweep, HammerdbSweep)
    assert [s.virtual_users for s in sweep.steps] == [4, 8, 16, 32, 64]
    assert all(s.nopm is not None and s.tpm is not None and s.nopm < s.tpm for s in sweep.steps)
    assert sweep.steps[0].database == "PostgreSQL"


def test_hammerdb_3_tpm_first_result_line() -> None:
    sweep = parse_measurement(text("hammerdb_v3.log"), "h").data
    assert isinstance(sweep, HammerdbSweep)
    assert (sweep.steps[0].virtual_users, sweep.steps[0].tpm, sweep.steps[0].nopm) == (10, 60501, 13207)


def test_hammerdb_result_without_user_count_is_refused() -> None:
    body = "Vuser 1:TEST RESULT : System achieved 100 NOPM from 230 PostgreSQL TPM\n"
    assert "line 1: a TEST RESULT with no 'N Active Virtual Users configured' line" in refusal("h", body)


def test_hammerdb_csv() -> None:
    m = read_measurement(FIXTURES / "hammerdb_sweep.csv")
    assert m.kind == "hammerdb-csv" and isinstance(m.data, HammerdbSweep)
    assert [(s.virtual_users, s.nopm) for s in m.data.steps][-1] == (32, 118000)
    assert "line 3: NOPM 'x' is not a number" in refusal("c", "vu,nopm\n4,10\n8,x\n")


def test_foreign_files_are_refused_naming_their_first_line() -> None:
    assert "line 1: not gpcheckperf, pgbench or HammerDB output" in refusal("s.json", '{"name": "retail"}\n')
    assert "file: empty file" in refusal("e", "\n\n")


def test_a_line_beyond_any_tool_is_refused() -> None:
    with pytest.raises(FileInputError, match="line 2: a 20,001-character line"):
        parse_gpcheckperf("x\n" + "y" * 20_001, "g")

"""The worst single-host failure a PostgreSQL design simulates (`Design.host_failure`) is in the design rows every
renderer prints (CLI text, window, PDF, DOCX): which host, each survivor's overcommit and throughput kept, the VMs
that cannot restart and why; a design that simulates none has no such rows."""

from __future__ import annotations

from dataclasses import replace

from app.formatting import percent
from app.views.design import FactRow, design_rows, rows_of
from models.hardware import HardwareCatalog
from models.sizing.engine import size
from models.sizing.result import HostFailure, SizingResult, Survivor
from tests.models.sizing.conftest import sample


def _skewed(n: int) -> list[dict[str, object]]:
    """n databases of skewed sizes and clients, each busy at its own hour."""
    return [{"name": f"s{i}", "size_gb": round(0.5 * 1.9 ** (i % 9), 1), "peak_clients": 4 + 11 * (i % 5),
             "working_set_gb": round(0.1 + 0.4 * 1.7 ** (i % 7), 1), "busy_hours": [(5 * i) % 24]} for i in range(n)]


def _failure(r: SizingResult) -> dict[str, FactRow]:
    return {f.key: f for f in rows_of(design_rows(r), "failure")}


def test_local_datastores_name_the_vms_that_cannot_restart(seed: HardwareCatalog) -> None:
    r = size(sample("pg-consolidation", workload={"databases": _skewed(14), "shared_storage": "local"}), seed)
    hf = r.design.host_failure
    assert hf is not None and hf.not_restarted
    rows = _failure(r)
    assert rows["failure.worst_host"].value == f"host {hf.failed_host}"
    stranded = rows["failure.not_restarted"]
    assert stranded.value == len(hf.not_restarted) and hf.not_restarted[0] in stranded.text
    assert "local datastore" in stranded.text
    assert rows["failure.performance_preserved"].value == hf.performance_preserved


def test_each_survivor_shows_its_overcommit_throughput_and_restarts(seed: HardwareCatalog) -> None:
    r = size(sample("pg-consolidation", workload={"databases": _skewed(11)}), seed)
    hf = r.design.host_failure
    assert hf is not None and not hf.not_restarted
    rows = _failure(r)
    assert rows["failure.not_restarted"].value == "none"
    shown = [s for s in hf.survivors if f"failure.host_{s.host}" in rows]
    assert shown and any(s.restarted for s in shown)
    for s in shown:
        row = rows[f"failure.host_{s.host}"]
        assert row.value == s.overcommit_rate and row.unit == "%"
        assert percent(s.performance_preserved) in row.text and percent(s.safe_overcommit_rate) in row.text
        assert all(name in row.text for name in s.restarted[:4])


def test_many_survivors_fold_into_one_row(seed: HardwareCatalog) -> None:
    """Nine overcommitted survivors, two that took VMs: those two and the four most overcommitted are listed, the
    three others are one row with their highest overcommit and lowest throughput."""
    r = size(sample("pg-consolidation"), seed)
    survivors = tuple(Survivor(h, 0.05 * h, 0.6, 1.0 - 0.01 * h, ("vm-a", "vm-b", "vm-c", "vm-d", "vm-e")
                               if h in (2, 7) else ()) for h in range(2, 11))
    hf = HostFailure(1, 2, survivors, ("vm-x",) * 7, "no surviving host has room for their working sets")
    rows = _failure(replace(r, design=replace(r.design, host_failure=hf)))
    assert [k for k in rows if k.startswith("failure.host_")] == [f"failure.host_{h}" for h in (2, 6, 7, 8, 9, 10)]
    assert "and 1 more" in rows["failure.host_7"].text
    other = rows["failure.other_hosts"]
    assert other.label == "Hosts 3-5 after it" and other.value == 0.25
    assert f"{percent(0.95)} throughput kept" in other.text  # the lowest of hosts 3-5
    assert rows["failure.not_restarted"].value == 7 and "and 2 more" in rows["failure.not_restarted"].text
    assert "2 host failures" in rows["failure.worst_host"].text


def test_designs_without_a_simulated_failure_have_no_failure_rows(seed: HardwareCatalog) -> None:
    r = size(sample("retail-dw-gen5"), seed)
    assert r.design.host_failure is None and not rows_of(design_rows(r), "failure")


def test_an_estates_quiet_survivors_are_one_short_label_of_ranges(seed: HardwareCatalog) -> None:
    """61 hosts, host 1 failed: hosts 2, 3, 43, 44, 48 and 49 took VMs and have their own rows; the 54 others read as
    ranges (was every number, a 226-character label that set the width of the whole CLI design table)."""
    r = size(sample("pg-consolidation"), seed)
    took = (2, 3, 43, 44, 48, 49)
    survivors = tuple(Survivor(h, 0.3, 0.32, 1.0, ("vm-a",) if h in took else ()) for h in range(2, 62))
    rows = _failure(replace(r, design=replace(r.design, host_failure=HostFailure(1, 1, survivors))))
    assert rows["failure.other_hosts"].label == "Hosts 4-42, 45-47 and 50-61 after it"
    assert [k for k in rows if k.startswith("failure.host_")] == [f"failure.host_{h}" for h in took]

"""A Greenplum 6 design names the coordinator the master wherever the customer reads a role or a title: the host
count, the BOM's role column and groups (text, CSV, XLSX), the settings' target, the decision and warning titles
(text, PDF, window); Greenplum 7 and its forks keep "coordinator". The keys the code looks up stay as they are
(issue 27, item 6)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from app.cli.commands.size import render_text
from app.export import bom_table, render_report
from app.export.bom import bom_csv_text, write_bom_xlsx
from app.views.design import design_rows
from app.views.edition import warning_rows
from models.calibration_data import figure
from models.field_words import field_label
from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.sizing.engine import size
from models.sizing.result import SizingResult
from tests.app.export.conftest import flat, pdf_text, sample_json

Sized = Callable[[str, dict[str, Any]], tuple[Scenario, SizingResult]]
# two cases no other test sizes: 700 clients on coordinator hosts of their own, 180 with the coordinator on the
# first segment host (its warning's title names the role)
OWN_HOSTS = {"clients": 700}
ON_SEGMENT_HOST = {"clients": 180, "coordinator_on_segment_host": True, "target_tps": None}
CASES = [OWN_HOSTS, ON_SEGMENT_HOST]
# where a scenario field's name is quoted (workload.coordinator_on_segment_host), not a role
FIELD_NAME = re.compile(r"coordinator_on_segment_host")


@pytest.fixture(scope="module")
def sized(catalog: HardwareCatalog) -> Sized:
    cache: dict[str, tuple[Scenario, SizingResult]] = {}

    def get(version: str, workload: dict[str, Any]) -> tuple[Scenario, SizingResult]:
        key = f"{version}{sorted(workload.items())}"
        if key not in cache:
            data = sample_json("gp-oltp.json")
            data["workload"].update(workload, greenplum_version=version)
            s = Scenario.model_validate(data)
            cache[key] = (s, size(s, catalog))
        return cache[key]

    return get


def _labels(r: SizingResult) -> list[str]:
    """What the customer reads as a role or title in `refarch size`: the Hosts row and the other roles' drive and
    port rows, the BOM's role column, each settings group's target, the decision and warning titles."""
    text = render_text(r).splitlines()
    facts = [f"{f.label}: {f.text}" for f in design_rows(r) if f.key == "hosts" or "." in f.key]
    bom = [ln[13:32] for ln in text[text.index("Bill of materials") + 2:] if ln.strip()][:len(r.bom)]
    targets = [ln.split("]")[0] for ln in text if re.match(r"  \S+ \[", ln)]
    decisions = [ln.split(":")[0] for ln in text if ln.startswith("  - ")]
    titles = [ln.split("[")[0] for ln in text if ln.startswith("  ! ")]
    return [*facts, *bom, *targets, *decisions, *titles]


@pytest.mark.parametrize("workload", CASES)
def test_greenplum_6_reads_master_in_every_label_of_the_size_text(sized: Sized, workload: dict[str, Any]) -> None:
    _, r = sized("6", workload)
    labels = _labels(r)
    assert not [x for x in labels if "coordinator" in x.lower()], labels
    # nor anywhere else in the text but a citation's title ([...] after a reason) or a warning's code
    prose = [re.sub(r" \[[^]]*\]$| \[coordinator-on-segment-host\]", "", ln) for ln in render_text(r).splitlines()]
    assert not [ln for ln in prose if "coordinator" in ln.lower()]
    assert any("master" in x.lower() for x in labels)
    if workload is ON_SEGMENT_HOST:
        assert "  ! Master on a segment host " in labels
        assert any(w.code == "coordinator-on-segment-host" for w in r.warnings)  # the key is unchanged
    else:
        assert {"  - Masters", "  - Master server"} <= set(labels)
        assert any(x.startswith("Hosts: ") and x.endswith(" + 2 master hosts") for x in labels)
        assert any(x.startswith("master host") for x in labels)  # the BOM's role column
        assert "  greenplum [master" in labels
        # the sizing's keys stay: code and tests look them up
        assert {h.role for h in r.design.hosts} == {"segment host", "coordinator host"}
        assert {"Coordinators", "Coordinator server"} <= {x.decision for x in r.rationale}


@pytest.mark.parametrize("version", ["7", "warehousepg-7", "cloudberry-2"])
def test_the_greenplum_7_line_keeps_coordinator(sized: Sized, version: str) -> None:
    _, r = sized(version, OWN_HOSTS)
    labels = _labels(r)
    assert not [x for x in labels if "master" in x.lower()], labels
    assert {"  - Coordinators", "  - Coordinator server"} <= set(labels)
    assert "  greenplum [coordinator" in labels
    _, on_host = sized(version, ON_SEGMENT_HOST)
    assert "Coordinator on a segment host" in [w.title for w in warning_rows(on_host.warnings, version)]


def test_greenplum_6_bom_csv_and_xlsx_price_master_hosts(sized: Sized, tmp_path: Path) -> None:
    table = bom_table(sized("6", OWN_HOSTS)[1])
    assert {row.role for row in table.rows if row.kind == "line"} >= {"master host", "segment host"}
    assert "Subtotal" not in bom_csv_text([table]) or "coordinator" not in bom_csv_text([table]).lower()
    write_bom_xlsx([table], tmp_path / "bom.xlsx")
    cells = [str(c) for ws in load_workbook(tmp_path / "bom.xlsx").worksheets
             for row in ws.iter_rows(values_only=True) for c in row if c is not None]
    assert "master host" in cells
    assert not [c for c in cells if "coordinator" in c.lower()]
    seven = bom_table(sized("7", OWN_HOSTS)[1])
    assert "coordinator host" in {row.role for row in seven.rows} and "master" not in bom_csv_text([seven]).lower()


def test_greenplum_6_report_titles_read_master(sized: Sized, tmp_path: Path) -> None:
    s, r = sized("6", ON_SEGMENT_HOST)
    out = tmp_path / "r.pdf"
    render_report([r], [s], out)
    words = flat(pdf_text(out))
    # the scenario field's label is quoted where the report names the field: the warning's parentheses and the
    # inputs table
    field = field_label("workload.coordinator_on_segment_host")
    assert f"Master on a segment host ({field})" in words and f"{field} yes" in words
    assert "CPU of the segment host running the master" in words
    assert "Coordinator on a segment host" not in words.replace(f"({field})", "").replace(f"{field} yes", "")
    s7, r7 = sized("cloudberry-2", OWN_HOSTS)
    render_report([r7], [s7], out)
    words7 = flat(pdf_text(out))
    assert "Coordinators" in words7 and "coordinator host" in words7 and "Masters" not in words7
    s6, r6 = sized("6", OWN_HOSTS)
    render_report([r6], [s6], out)
    words6 = flat(pdf_text(out))
    assert "Masters" in words6 and "Master server" in words6 and "2 master hosts" in words6
    assert not re.search(r"\bCoordinators\b|Coordinator server|coordinator host|\[coordinator\]|coordinator CPU",
                         FIELD_NAME.sub("", words6))


@pytest.mark.parametrize("version", ["6", "7", "warehousepg-7", "cloudberry-2"])
def test_the_segments_connection_multiple_cites_the_releases_reference_guide(sized: Sized, version: str) -> None:
    """Greenplum 6's guide asks 5-10 times the master's max_connections on segments, the Greenplum 7 line's 3-10
    times the coordinator's: each design cites its own and states the range it sits in."""
    _, r = sized(version, OWN_HOSTS)
    why = next(x for x in r.rationale if x.decision == "Connections")
    factor = figure("vendor_docs", "gp_max_connections_segment_factor")
    low, high = (figure("vendor_docs", f"gp7_max_connections_segment_factor_{e}") for e in ("min", "max"))
    assert r.design.settings and f"on segments ({factor:g} x" in why.text
    if version == "6":
        assert why.source_text.startswith("Greenplum Database 6 Reference Guide") and "Greenplum Database 7" not in (
            why.source_text)
        assert f"{low:g} to {high:g}" not in why.text
    else:
        assert low <= factor <= high  # refarch's multiple sits in the range the release's guide gives
        assert f"within the {low:g} to {high:g} times the coordinator's" in why.text
        assert why.source_text.startswith("Greenplum Database 7 Reference Guide") and "Database 6" not in (
            why.source_text)

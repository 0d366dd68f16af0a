"""The configuration of a Greenplum 6 design calls the instance clients connect to the master, as Greenplum 6's
documentation does, and Greenplum 7 and its forks the coordinator: the reasons take the word from the release the
design is configured for (issue 27, item 6). And the core-file directory kernel.core_pattern names is created."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from typing import Any

import pytest

from app.export.config import ConfigBundle, build_config
from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.sizing.engine import size
from models.sizing.result import SizingResult
from tests.app.export.conftest import sample_json

Sized = Callable[[str, str, dict[str, Any]], tuple[SizingResult, ConfigBundle]]
# OLTP with more clients than max_connections (PgBouncer) and the coordinator on the first segment host: the
# memory, connection and pooler reasons all name the instance; a case no other test sizes
OLTP = {"clients": 2600, "coordinator_on_segment_host": True, "target_tps": None}


@pytest.fixture(scope="module")
def sized(catalog: HardwareCatalog) -> Sized:
    cache: dict[str, tuple[SizingResult, ConfigBundle]] = {}

    def get(sample: str, version: str, workload: dict[str, Any]) -> tuple[SizingResult, ConfigBundle]:
        key = f"{sample}{version}{sorted(workload.items())}"
        if key not in cache:
            data = sample_json(sample)
            data["workload"].update(workload, greenplum_version=version)
            result = size(Scenario.model_validate(data), catalog)
            cache[key] = (result, build_config(result))
        return cache[key]

    return get


@pytest.mark.parametrize(("sample", "workload"), [("gp-oltp.json", OLTP), ("retail-dw-gen5.json", {})])
def test_greenplum_6_configuration_says_master_throughout(sized: Sized, sample: str, workload: dict[str, Any]) -> None:
    result, bundle = sized(sample, "6", workload)
    for f in bundle.files:
        # README.txt repeats the design's warnings ("  ! title [code]: ..."): the code is the sizing's key
        found = [ln for ln in f.text.splitlines() if "coordinator" in ln.replace("[coordinator-on-segment-host]", "")
                 .lower()]
        assert not found, f"{f.path}: {found[:3]}"
    assert "max_connections" in bundle.get("greenplum/gpconfig.sh").text
    # the model's own reasons carry the word: the connections rationale and, pooled, the pooler warning
    connections = next(r for r in result.rationale if r.decision == "Connections")
    assert " on the master " in connections.text and "coordinator" not in connections.text
    pooler = [w for w in result.warnings if w.code == "connection-pooler"]
    assert len(pooler) == (sample == "gp-oltp.json")  # 2,600 clients: PgBouncer in front
    for w in pooler:
        assert "PgBouncer on the master" in w.text and "coordinator" not in w.text


def test_greenplum_7_fork_says_coordinator_where_6_says_master(sized: Sized) -> None:
    # the comments as read, not as wrapped at 116 characters
    six, seven = (" ".join(ln.removeprefix("# ") for ln in sized("gp-oltp.json", v, OLTP)[1]
                           .get("greenplum/gpconfig.sh").text.splitlines()) for v in ("6", "warehousepg-7"))
    assert "on the master (Greenplum's default" in six and "on the coordinator (Greenplum's default" in seven
    assert "PgBouncer on the master" in six and "PgBouncer on the coordinator" in seven


@pytest.mark.parametrize("version", ["6", "cloudberry-2"])
def test_the_core_file_directory_sysctl_names_is_created_for_gpadmin(sized: Sized, version: str) -> None:
    _, bundle = sized("retail-dw-gen5.json", version, {})
    pattern = re.search(r"^kernel\.core_pattern = (\S+)$", bundle.get("os/sysctl.conf").text, re.M)
    assert pattern is not None
    directory = posixpath.dirname(pattern.group(1))
    steps = bundle.get("os/host-settings.txt").text
    assert f"mkdir -p {directory} && chown gpadmin:gpadmin {directory}" in steps
    assert "refarch assumption" in steps  # the guide gives no owner or mode: said so
    assert "(create /var/core)" not in bundle.get("os/sysctl.conf").text

"""The configuration of a Greenplum design follows the release it is written for (Greenplum 6, 7, Apache Cloudberry 2,
WarehousePG 7) and the installation guide's sysctl.conf and limits.conf fitted to the design: shared memory from
the host's memory, semaphores and processes from its instances and max_connections, the local port range clear of
every port, dirty limits and min_free_kbytes by memory."""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable
from typing import Any

import pytest

from app.export.config import ConfigBundle, build_config
from app.export.config.os_fit import Role, port_plan, roles, semaphore_sets, sysctl_lines
from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.sizing.engine import size
from models.sizing.result import SizingResult
from tests.app.export.conftest import sample_json

Sized = Callable[[str, dict[str, Any]], tuple[SizingResult, ConfigBundle]]


@pytest.fixture(scope="module")
def sized_variant(catalog: HardwareCatalog) -> Sized:
    cache: dict[str, tuple[SizingResult, ConfigBundle]] = {}

    def get(sample: str, workload: dict[str, Any]) -> tuple[SizingResult, ConfigBundle]:
        key = f"{sample}{sorted(workload.items())}"
        if key not in cache:
            data = sample_json(sample)
            data["workload"].update(workload)
            result = size(Scenario.model_validate(data), catalog)
            cache[key] = (result, build_config(result))
        return cache[key]

    return get


def _sysctl(text: str) -> dict[str, str]:
    out = {}
    for ln in text.splitlines():
        if ln and not ln.startswith("#"):
            key, _, value = ln.partition(" = ")
            assert key not in out, f"{key} twice"
            out[key] = value
    return out


def _init(text: str) -> dict[str, str]:
    return dict(ln.split("=", 1) for ln in text.splitlines() if re.match(r"^[A-Z_]+=", ln))


def test_greenplum_6_semaphores_fit_the_instances(sized_variant: Sized) -> None:
    """The dual-socket SAS design's instances at their max_connections fit the guide's SEMMNI; a host running 128
    instances at max_connections 1,250 needs more sets (128 x 80) and gets them, SEMMNS with them."""
    result, bundle = sized_variant("retail-dw-dual-socket-sas.json", {"concurrent_queries": 2000})
    seg = next(r for r in roles(result) if r.name == "segment host")
    assert seg.instances == (result.design.primary_segments_per_host or 0) + (
        result.design.mirror_segments_per_host or 0)
    semmni = int(_sysctl(bundle.get("os/sysctl.conf").text)["kernel.sem"].split()[3])
    assert semmni >= semaphore_sets(seg) == seg.instances * math.ceil((seg.max_connections + 3 + 8 + 5) / 16)
    dense = Role("segment host", 1024.0, 128, 1250)
    sem = next(ln.text for ln in sysctl_lines(result, dense) if ln.text.startswith("kernel.sem"))
    semmsl, semmns, semopm, semmni = (int(x) for x in sem.split(" = ")[1].split())
    assert semmni == 128 * 80 > 8192 and semmns == semmsl * semmni and (semmsl, semopm) == (250, 200)


def test_greenplum_6_files_name_the_master(sized_variant: Sized) -> None:
    _, bundle = sized_variant("retail-dw-dual-socket-sas.json", {"greenplum_version": "6"})
    init = _init(bundle.get("greenplum/gpinitsystem_config").text)
    assert "MASTER_HOSTNAME" in init and "COORDINATOR_HOSTNAME" not in init
    gpconfig = bundle.get("greenplum/gpconfig.sh").text
    assert "gp_resource_manager -v group\n" in gpconfig and "--coordinatoronly" not in gpconfig
    sql = bundle.get("greenplum/resource_groups.sql").text
    assert "MEMORY_SPILL_RATIO 0" in sql and "CPU_MAX_PERCENT" not in sql
    paths = [f.path for f in bundle.files]
    assert "os/cgconfig-gpdb.conf" in paths and not any("cgroup-v2" in p for p in paths)
    # the 6 guide's IP Fragmentation Settings (its later 6.x editions, as the 7 guide)
    assert _sysctl(bundle.get("os/sysctl.conf").text)["net.ipv4.ipfrag_high_thresh"] == "41943040"
    assert "Release: Greenplum 6" in bundle.get("README.txt").text


@pytest.mark.parametrize(("version", "memory"), [("cloudberry-2", "MEMORY_QUOTA"), ("warehousepg-7", "MEMORY_LIMIT")])
def test_greenplum_7_family_dialect(sized_variant: Sized, version: str, memory: str) -> None:
    """The OLTP sample on a Greenplum 7 fork: group-v2, CPU_MAX_PERCENT lifting default_group's 20 % cap, memory per
    group in MB = statement_mem x CONCURRENCY, no Greenplum 6 attribute or parameter, COORDINATOR_* naming."""
    result, bundle = sized_variant("gp-oltp.json", {"greenplum_version": version})
    assert result.design.greenplum_version == version
    sql = bundle.get("greenplum/resource_groups.sql").text
    values = dict(re.findall(r"SET (\w+) (\S+);", sql))
    stmt = next(s for g in result.design.settings if g.target == "cluster" and g.product == "greenplum"
                for s in g.settings if s.name == "statement_mem")
    assert int(values[memory]) == int(stmt.value) * int(values["CONCURRENCY"])
    # the release's own rule: no Greenplum 6 share (rg_perseg_mem) in the derivation, memory named per segment
    assert "rg_perseg_mem" not in stmt.reason and f"{memory} is memory in MB on each segment" in stmt.reason
    assert values["CPU_MAX_PERCENT"] == "100" and "MEMORY_SPILL_RATIO" not in values
    assert ("MEMORY_LIMIT" in values) == (memory == "MEMORY_LIMIT")
    gpconfig = "\n".join(ln for ln in bundle.get("greenplum/gpconfig.sh").text.splitlines() if ln.startswith("gp"))
    assert "gp_resource_manager -v group-v2" in gpconfig and "gp_resource_group_memory_limit" not in gpconfig
    init = _init(bundle.get("greenplum/gpinitsystem_config").text)
    assert "COORDINATOR_HOSTNAME" in init and "MASTER_HOSTNAME" not in init
    paths = [f.path for f in bundle.files]
    assert "os/greenplum-cgroup-v2-config.service" in paths and "os/cgconfig-gpdb.conf" not in paths
    sysctl = _sysctl(bundle.get("os/sysctl.conf").text)
    assert sysctl["kernel.sem"] == "250 2048000 200 8192"  # PostgreSQL 12 uses POSIX semaphores on Linux
    assert sysctl["net.ipv4.ipfrag_time"] == "60"


def test_shared_memory_dirty_and_min_free_follow_the_host_memory(sized_variant: Sized) -> None:
    result, bundle = sized_variant("gp-oltp.json", {})
    for role in roles(result):
        path = "os/sysctl.conf" if role.name.startswith("segment") else "os/sysctl-master.conf"  # Greenplum 6
        s = _sysctl(bundle.get(path).text)
        pages = int(role.memory_gib * 1024 ** 3) // 4096
        assert int(s["kernel.shmall"]) == pages // 2 and int(s["kernel.shmmax"]) == pages // 2 * 4096
        assert int(s["vm.min_free_kbytes"]) == int(role.memory_gib * 1024 * 1024 * 0.03)
    small = {ln.text.split(" = ")[0]: ln.text.split(" = ")[1]
             for ln in sysctl_lines(result, Role("segment VM", 48.0, 6, 750))}
    assert (small["vm.dirty_background_ratio"], small["vm.dirty_ratio"]) == ("3", "10")
    assert "vm.dirty_bytes" not in small and int(small["vm.min_free_kbytes"]) == int(48 * 1024 * 1024 * 0.03)
    big = {ln.text.split(" = ")[0]: ln.text.split(" = ")[1]
           for ln in sysctl_lines(result, Role("segment host", 65.0, 6, 750))}
    assert big["vm.dirty_bytes"] == "4294967296" and big["vm.dirty_ratio"] == "0"


def test_ports_stay_below_the_ephemeral_range(sized_variant: Sized) -> None:
    """The guide's 6000/7000/10000 where they fit; with 1,200 primaries and 3,000 mirrors per host the mirrors move
    above the primaries and the ephemeral range above the mirrors."""
    result, bundle = sized_variant("retail-dw-gen5.json", {"greenplum_version": "7"})
    p = port_plan(result)
    assert (p.port_base, p.mirror_port_base, p.range_low) == (6000, 7000, 10000)
    sysctl = _sysctl(bundle.get("os/sysctl.conf").text)
    assert sysctl["net.ipv4.ip_local_port_range"] == "10000 65535"
    seg = next(h for h in result.design.hosts if h.role == "segment host")
    crowded = dataclasses.replace(seg, vms=(dataclasses.replace(seg.vms[0], primary_segments=1200,
                                                                mirror_segments=3000),))
    many = dataclasses.replace(result, design=dataclasses.replace(
        result.design, hosts=tuple(crowded if h is seg else h for h in result.design.hosts)))
    q = port_plan(many)
    assert q.mirror_port_base == 6000 + 1200 and q.highest == q.mirror_port_base + 2999
    assert q.range_low == q.highest + 1 > 10000
    init = _init(build_config(many).get("greenplum/gpinitsystem_config").text)
    assert int(init["MIRROR_PORT_BASE"]) == q.mirror_port_base


@pytest.mark.parametrize(("mix", "version"), [("update", "6"), ("tpcb", "warehousepg-7"), ("insert", "6")])
def test_oltp_settings_of_study_004(sized_variant: Sized, mix: str, version: str) -> None:
    """Mixes that update rows turn the global deadlock detector on (off by default in every release); statement
    logging off; checkpoint_segments 2 with --skipvalidation on Greenplum 6 only (PostgreSQL 9.4 base)."""
    _, bundle = sized_variant("gp-oltp.json", {"mix": mix, "greenplum_version": version})
    cmds = [ln for ln in bundle.get("greenplum/gpconfig.sh").text.splitlines() if ln.startswith("gpconfig")]
    assert ("gpconfig -c gp_enable_global_deadlock_detector -v on" in cmds) == (mix != "insert")
    assert "gpconfig -c log_statement -v none" in cmds
    assert ("gpconfig -c checkpoint_segments -v 2 --skipvalidation" in cmds) == (version == "6")


@pytest.mark.parametrize(("mix", "version", "flag"), [("select", "cloudberry-2", "--coordinatoronly"),
                                                     ("insert", "6", "--masteronly")])
def test_oltp_plans_with_the_postgres_planner_as_study_004_did(sized_variant: Sized, mix: str, version: str,
                                                                flag: str) -> None:
    """Study 004's Greenplum 6 was built --disable-orca: an OLTP design turns GPORCA off on the coordinator only
    (gpconfig's coordinator flag of the release), citing the study's build and the release's GPORCA limitations."""
    result, bundle = sized_variant("gp-oltp.json", {"mix": mix, "greenplum_version": version, "clients": 64})
    cmds = [ln for ln in bundle.get("greenplum/gpconfig.sh").text.splitlines() if ln.startswith("gpconfig")]
    assert [c for c in cmds if " optimizer " in c] == [f"gpconfig -c optimizer -v off {flag}"]
    coordinator = [g for g in result.design.settings if g.product == "greenplum" and g.target == "coordinator"]
    optimizer = coordinator[0].get("optimizer")
    assert optimizer is not None and optimizer.value is False
    assert "1.2 Greenplum Information" in optimizer.source and "Performance Regressions" in optimizer.source
    assert ("Cloudberry" in optimizer.source) == (version == "cloudberry-2")


def test_analytics_get_no_oltp_settings(sized_variant: Sized) -> None:
    _, bundle = sized_variant("retail-dw-gen5.json", {"greenplum_version": "7"})
    text = bundle.get("greenplum/gpconfig.sh").text
    assert "gp_enable_global_deadlock_detector" not in text and "checkpoint_segments" not in text
    assert "-c optimizer" not in text  # GPORCA stays on for the analytics it is built for


def test_pgbouncer_ini_for_sessions_beyond_max_connections(sized_variant: Sized) -> None:
    """20,000 reports on the gen5 design: gpconfig keeps max_connections bounded, pgbouncer.ini takes the sessions,
    the coordinator's nofile covers PgBouncer's descriptors; 20 reports need no pooler."""
    result, bundle = sized_variant("retail-dw-gen5.json", {"concurrent_queries": 20000})
    cmds = [ln for ln in bundle.get("greenplum/gpconfig.sh").text.splitlines() if ln.startswith("gpconfig")]
    coord = int(next(c for c in cmds if " max_connections " in c).split("-m ")[1])
    assert coord < 1000
    ini = bundle.get("greenplum/pgbouncer.ini").text
    values = dict(ln.split(" = ", 1) for ln in ini.splitlines() if " = " in ln and not ln.startswith(";"))
    assert values["max_client_conn"] == "20000" and int(values["default_pool_size"]) == coord - 3
    assert values["pool_mode"] == "transaction" and values["listen_port"] == "6432"
    assert "connection-pooler" in {w.code for w in result.warnings}
    limits = bundle.get("os/limits-master.conf").text
    assert "* hard nofile 524288" in limits  # 20,000 clients fit the guide's descriptors
    _, small = sized_variant("retail-dw-gen5.json", {"concurrent_queries": 20})
    assert "greenplum/pgbouncer.ini" not in [f.path for f in small.files]


def test_data_volumes_mount_with_the_guides_xfs_options(sized_variant: Sized) -> None:
    _, bundle = sized_variant("retail-dw-dual-socket-sas.json", {"greenplum_version": "7"})
    fstab = next(ln for ln in bundle.get("os/data-disks.sh").text.splitlines() if "/etc/fstab" in ln)
    options = fstab.split(" xfs ")[1].split()[0].split(",")
    assert {"rw", "nodev", "noatime", "inode64"} <= set(options)  # the installation guide's XFS Mount Options


def test_host_settings_checklist_names_the_guides_other_host_settings(sized_variant: Sized) -> None:
    _, bundle = sized_variant("gp-oltp.json", {"greenplum_version": "cloudberry-2"})
    text = bundle.get("os/host-settings.txt").text
    assert "Apache Cloudberry 2 host settings" in text
    for needle in ("transparent_hugepage=never", "RemoveIPC=no", "MaxStartups 200", "MTU 9000"):
        assert needle in text
    assert "os/host-settings.txt" in bundle.get("README.txt").text

"""The generated files read by the real programs: PostgreSQL loads each VM's include and ALTER SYSTEM file,
bash sources gpinitsystem_config, the vSphere JSON validates against its schema, the kernel knows every sysctl.
Each value read back is compared with the value the design carries (what `refarch size` shows)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import jsonschema
import pytest

from app.export.config.design_values import setting_groups
from models.sizing.result import SizingResult
from tests.app.export.config.conftest import ConfigOf
from tests.app.export.config.pg_server import PgCluster, to_base
from tests.app.export.conftest import SCENARIO_FILES

SAMPLES = [p.name for p in SCENARIO_FILES]
GREENPLUM = [n for n in SAMPLES if n.startswith(("retail", "study-000", "gp-"))]
VSPHERE = ["study-000-vsphere.json", "pg-consolidation.json", "sap-iq.json"]


def _bash(script: str) -> str:
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=True, timeout=60).stdout


def _write(tmp_path: Path, text: str, name: str = "f") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def _read(cluster: PgCluster, name: str) -> float | str:
    raw = cluster.show_raw(name)
    try:
        return float(raw)
    except ValueError:
        return raw  # enums (huge_pages = try) come back as written


def test_postgresql_loads_each_vm_include_with_the_design_values(config_of: ConfigOf, pg_cluster: PgCluster) -> None:
    result, bundle = config_of("pg-consolidation.json")
    groups = setting_groups(result, "postgresql")
    assert groups
    pg_cluster.start()
    try:
        units = {s.name: pg_cluster.unit(s.name) for g in groups for s in g.settings}
        for g in groups:
            conf = bundle.get(f"postgresql/{g.target}.conf").text
            pg_cluster.include(conf)
            for s in g.settings:
                assert _read(pg_cluster, s.name) == to_base(s.value, s.unit, units[s.name]), (g.target, s)
            pg_cluster.include(None)
            # the ALTER SYSTEM file, run by the live server, writes the same values
            sql = bundle.get(f"postgresql/{g.target}.alter_system.sql").text
            path = _write(pg_cluster.root, sql, "alter.sql")
            if pg_cluster.as_root:
                import shutil

                shutil.chown(path, "postgres")
            pg_cluster.psql("-f", str(path))
            for s in g.settings:
                assert _read(pg_cluster, s.name) == to_base(s.value, s.unit, units[s.name]), (g.target, s)
            pg_cluster.psql("-c", "ALTER SYSTEM RESET ALL")
    finally:
        pg_cluster.include(None)


@pytest.mark.parametrize("name", GREENPLUM)
def test_bash_sources_gpinitsystem_config_with_the_design_arrays(
    name: str, config_of: ConfigOf, tmp_path: Path
) -> None:
    result, bundle = config_of(name)
    d = result.design
    cfg = _write(tmp_path, bundle.get("greenplum/gpinitsystem_config").text)
    out = _bash(f'set -eu; source "{cfg}"; echo "${{#DATA_DIRECTORY[@]}}";'
                ' if declare -p MIRROR_DATA_DIRECTORY >/dev/null 2>&1;'
                f' then echo "${{#MIRROR_DATA_DIRECTORY[@]}}"; else echo 0; fi;'
                ' echo "$PORT_BASE $MACHINE_LIST_FILE $SEG_PREFIX"; printf "%s\\n" "${DATA_DIRECTORY[@]}"')
    lines = out.splitlines()
    units_per_host = d.vms_per_host if d.deployment == "vsphere" else 1
    assert int(lines[0]) == d.primary_segments_per_host // units_per_host
    assert int(lines[1]) == (d.mirror_segments_per_host or 0) // units_per_host
    dirs = lines[3:]
    drives_per_unit = d.data_drives_per_host // units_per_host
    volumes = drives_per_unit if d.raid == "none" else 1
    mounts = {p.rsplit("/", 1)[0] for p in dirs}
    assert len(mounts) == min(volumes, len(dirs))  # spread over every data volume
    counts = [sum(p.startswith(m + "/") for p in dirs) for m in mounts]
    assert max(counts) - min(counts) <= 1  # evenly


@pytest.mark.parametrize("name", GREENPLUM)
def test_host_files_list_every_segment_host(name: str, config_of: ConfigOf) -> None:
    result, bundle = config_of(name)
    d = result.design
    hosts = [ln for ln in bundle.get("greenplum/hostfile_gpinitsystem").text.splitlines()
             if ln.strip() and not ln.startswith("#")]
    seg = next(h for h in d.hosts if h.role == "segment host")
    units = d.segment_hosts * (d.vms_per_host if d.deployment == "vsphere" else 1)
    assert len(hosts) == len(set(hosts)) == units * (seg.nic_ports if seg.nic_ports > 1 else 1)
    everyone = [ln for ln in bundle.get("greenplum/hostfile_all").text.splitlines() if ln and not ln.startswith("#")]
    assert len(everyone) == units + d.coordinator_hosts


@pytest.mark.parametrize("name", GREENPLUM)
def test_scripts_are_valid_bash(name: str, config_of: ConfigOf, tmp_path: Path) -> None:
    _, bundle = config_of(name)
    for f in bundle.files:
        if f.path.endswith(".sh"):
            assert f.executable
            subprocess.run(["bash", "-n", str(_write(tmp_path, f.text))], check=True, timeout=30)


@pytest.mark.parametrize("name", GREENPLUM)
def test_gpconfig_sets_every_greenplum_value_of_the_design(name: str, config_of: ConfigOf) -> None:
    result, bundle = config_of(name)
    script = bundle.get("greenplum/gpconfig.sh").text
    got, got_coordinator = {}, {}
    for ln in script.splitlines():
        if ln.startswith("gpconfig -c "):
            parts = ln.split()
            # GP6 writes --masteronly, 7 and the forks --coordinatoronly (both set the coordinator alone)
            alone = "--coordinatoronly" in parts or "--masteronly" in parts
            (got_coordinator if alone else got)[parts[2]] = parts[4].strip("'")
            if "-m" in parts:
                got_coordinator[parts[2]] = parts[parts.index("-m") + 1].strip("'")
    for g in setting_groups(result, "greenplum"):
        values = got_coordinator if g.target == "coordinator" else got
        for s in g.settings:
            # a boolean is written as Greenplum's on/off, as postgresql.conf and gpconfig take it
            want = ("on" if s.value else "off") if isinstance(s.value, bool) else str(s.value)
            assert values[s.name].removesuffix(s.unit) == want, (g.target, s.name)
    assert set(got) == {s.name for g in setting_groups(result, "greenplum") if g.target != "coordinator"
                        for s in g.settings}


def test_sysctl_and_limits_follow_their_formats(config_of: ConfigOf) -> None:
    """sysctl.d syntax (`key = value`, comments on their own lines), limits.conf's four fields; the study's
    tcp_tw_recycle, removed from Linux 4.12, only as a comment."""
    _, bundle = config_of("retail-dw-gen5.json")
    keys = []
    for ln in bundle.get("os/sysctl.conf").text.splitlines():
        if ln and not ln.startswith("#"):
            key, sep, value = ln.partition(" = ")
            assert sep and re.fullmatch(r"[a-z0-9_]+(\.[a-z0-9_]+)+", key) and value.strip(), ln
            keys.append(key)
    assert "vm.overcommit_memory" in keys and "vm.overcommit_ratio" in keys and "net.ipv4.tcp_tw_recycle" not in keys
    assert len(keys) == len(set(keys))  # the design's own values replace the study's, never repeat them
    assert "# net.ipv4.tcp_tw_recycle = 1" in bundle.get("os/sysctl.conf").text
    for ln in bundle.get("os/limits.conf").text.splitlines():
        if ln and not ln.startswith("#"):
            _domain, kind, item, value = ln.split()
            assert kind in ("soft", "hard") and item in ("nofile", "nproc", "core")
            assert value == "unlimited" if item == "core" else int(value) > 0


@pytest.mark.parametrize("name", VSPHERE)
def test_vsphere_json_validates_against_its_schema_and_carries_the_design(name: str, config_of: ConfigOf) -> None:
    result, bundle = config_of(name)
    doc = json.loads(bundle.get("vsphere/vms.json").text)
    schema = json.loads(bundle.get("vsphere/vms.schema.json").text)
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(doc)
    _matches_design(result, doc)


def _matches_design(result: SizingResult, doc: dict) -> None:
    d = result.design
    if d.kind.startswith("greenplum"):
        seg = next(h for h in d.hosts if h.role == "segment host")
        assert len(doc["vms"]) == d.segment_hosts * d.vms_per_host
        for vm in doc["vms"]:
            layout = seg.vms[vm["numa_node"]]
            assert (vm["vcpus"], vm["memory_gib"], vm["greenplum"]["primaries"]) == \
                (layout.vcpus, layout.memory_gib, layout.primary_segments)
            assert vm["memory_reservation_gib"] == vm["memory_gib"]
            assert sum(disk["backing"] == "rdm-physical" for disk in vm["disks"]) == layout.data_drives
        # each VM is kept apart from the VMs that hold its mirrors, which sit on another physical host
        host_of = {vm["name"]: vm["host"] for vm in doc["vms"]}
        assert doc["drs_rules"]
        for rule in doc["drs_rules"]:
            assert len({host_of[v] for v in rule["vms"][:2]}) == 2
    elif d.kind == "postgres-consolidation":
        vms = {vm.name: vm for vm in result.vms}
        assert {vm["name"] for vm in doc["vms"]} == set(vms)
        for vm in doc["vms"]:
            assert (vm["vcpus"], vm["memory_gib"]) == (vms[vm["name"]].vcpus, vms[vm["name"]].memory_gib)
            spec = vms[vm["name"]]
            disks = {disk["label"]: disk for disk in vm["disks"]}
            assert disks["pgdata"]["size_gb"] == pytest.approx(sum(x.data_gb for x in spec.disks), abs=0.05)
            assert disks["pgwal"]["size_gb"] == pytest.approx(sum(x.wal_gb for x in spec.disks), abs=0.05)
            assert vm["host"] == f"esx{spec.host}" and vm["numa_node"] == spec.numa_node
    else:
        assert len(doc["vms"]) == d.segment_hosts
        assert all(vm["vcpus"] == d.vm.vcpus and vm["memory_gib"] == d.vm.memory_gib for vm in doc["vms"])
        roles = [f"sap iq {h.role.removeprefix('IQ ')}" for h in d.hosts for _ in range(h.count)]
        assert [vm["role"] for vm in doc["vms"]] == roles
        policies = {p["name"]: p["rules"] for p in doc["storage_policies"]}
        for g in setting_groups(result, "vsan-policy"):
            assert policies[g.target] == {s.name: s.value for s in g.settings}


def test_sap_iq_start_parameters_carry_the_design_caches(config_of: ConfigOf) -> None:
    result, bundle = config_of("sap-iq.json")
    expected = {s.name.lstrip("-"): str(s.value) for g in setting_groups(result, "sap-iq-server") for s in g.settings}
    cfgs = [f for f in bundle.files if f.path.startswith("sap-iq/") and f.path.endswith(".cfg")]
    assert len(cfgs) == result.design.segment_hosts
    for f in cfgs:
        switches = dict(ln[1:].split(" ", 1) for ln in f.text.splitlines() if ln.startswith("-"))
        for k, v in expected.items():
            assert switches[k] == v

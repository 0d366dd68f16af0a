"""Greenplum 6's files call the coordinator the master, as its documentation does (host files, gpinitsystem.sh,
the inventory, the OS files' names); Greenplum 7 and its forks keep 'coordinator'. gpconfig.sh restarts the cluster
naming the parameters it sets that need one, never one it leaves unset."""

from __future__ import annotations

import re
from typing import Any

import pytest

from app.export.config import ConfigBundle, build_config
from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.sizing.engine import size
from tests.app.export.conftest import sample_json

_CACHE: dict[str, ConfigBundle] = {}


def _bundle(catalog: HardwareCatalog, version: str, **workload: Any) -> ConfigBundle:
    key = f"{version}{sorted(workload.items())}"
    if key not in _CACHE:
        data = sample_json("gp-oltp.json")
        data["workload"].update({"greenplum_version": version, **workload})
        _CACHE[key] = build_config(size(Scenario.model_validate(data), catalog))
    return _CACHE[key]


def _authored(bundle: ConfigBundle, path: str) -> str:
    """A file's text without its [source: ...] citations (titles are quoted as their publisher wrote them)."""
    return re.sub(r"\[source:[^\]]*\]", "", " ".join(bundle.get(path).text.split()))


@pytest.mark.parametrize(("version", "word", "other"), [("6", "master", "coordinator"),
                                                         ("7", "coordinator", "master"),
                                                         ("cloudberry-2", "coordinator", "master")])
def test_the_coordinator_is_named_as_the_release_names_it(catalog: HardwareCatalog, version: str, word: str,
                                                          other: str) -> None:
    bundle = _bundle(catalog, version)
    paths = {f.path for f in bundle.files}
    assert {f"os/sysctl-{word}.conf", f"os/limits-{word}.conf"} <= paths
    assert not any(other in p for p in paths)
    hosts = bundle.get("greenplum/hostfile_all").text
    assert f"# {word}: " in hosts and f"# standby {word}: " in hosts and other not in hosts.lower()
    assert f"-s adds the standby {word}" in _authored(bundle, "greenplum/gpinitsystem.sh")
    inventory = bundle.get("ansible/inventory.ini").text
    assert f"\n[{word}]\n" in inventory and f"\n{word}_host=" in inventory
    assert f"sysctl_file=os/sysctl-{word}.conf" in inventory and other not in inventory.split("[greenplum:vars]")[0]
    assert f"on the {word})" in bundle.get("greenplum/gpconfig.sh").text.splitlines()[1]
    for path in ("os/sysctl.conf", f"os/sysctl-{word}.conf"):
        assert f"the {word} port 5432" in _authored(bundle, path)
    init = _authored(bundle, "greenplum/gpinitsystem_config")
    assert f"# {word.capitalize()} host." in init and f"on the {word}'s RAID 1 pair" in init


@pytest.mark.parametrize(("version", "workload"), [("6", {}), ("7", {}), ("6", {"mix": "select"}),
                                                   ("7", {"mix": "update"})])
def test_the_restart_names_only_the_parameters_the_script_sets(catalog: HardwareCatalog, version: str,
                                                               workload: dict[str, Any]) -> None:
    text = _bundle(catalog, version, **workload).get("greenplum/gpconfig.sh").text
    set_here = set(re.findall(r"^gpconfig -c (\S+)", text, re.M))
    unset = set(re.findall(r"^# gpconfig -c (\S+)", text, re.M))
    lines = text.splitlines()
    i = lines.index("gpstop -ar")
    block = []
    for ln in reversed(lines[:i]):
        if not ln.startswith("# ") or ln.startswith("# gpconfig"):
            break
        block.insert(0, ln[2:])
    said = " ".join(block).split(" take effect only after a restart")[0].split(" takes effect")[0]
    named = set(re.findall(r"[a-z_]+", said.replace(" and ", " ")))
    assert named and named <= set_here  # every parameter named is one gpconfig sets
    assert not named & unset  # Greenplum 6 under resource groups leaves gp_vmem_protect_limit unset: never named
    assert {"gp_resource_manager", "max_connections"} <= named
    assert ("gp_vmem_protect_limit" in named) == ("gp_vmem_protect_limit" in set_here)


@pytest.mark.parametrize(("sample_name", "workload"), [
    ("study-000-vsphere.json", {}), ("gp-oltp.json", {"mirrors": False}),
    ("retail-dw-dual-socket-sas.json", {"greenplum_version": "7"})])
def test_data_disks_create_every_instance_directory_for_gpadmin(catalog: HardwareCatalog, sample_name: str,
                                                               workload: dict[str, Any]) -> None:
    """The installation guide's data storage areas: each DATA_DIRECTORY and MIRROR_DATA_DIRECTORY entry exists and
    belongs to gpadmin before gpinitsystem runs (VMs, no mirrors, hard disks and Greenplum 7 alike)."""
    data = sample_json(sample_name)
    data["workload"].update(workload)
    bundle = build_config(size(Scenario.model_validate(data), catalog))
    init = bundle.get("greenplum/gpinitsystem_config").text
    named = {d for ln in init.splitlines() if ln.startswith("declare -a ")
             for d in ln.split("=(", 1)[1].rstrip(")").split()}
    script = bundle.get("os/data-disks.sh").text.splitlines()
    made = next(ln for ln in script if ln.startswith("mkdir -p ")).split()[2:]
    owned = next(ln for ln in script if ln.startswith("chown ")).split()
    assert named and set(made) == named and len(made) == len(named)
    assert owned[1] == "gpadmin:gpadmin" and set(owned[2:]) == named


@pytest.mark.parametrize(("version", "workload"), [("6", {}), ("7", {}),
                                                   ("6", {"coordinator_on_segment_host": True, "mirrors": False})])
def test_the_coordinator_directory_is_made_on_its_hosts(catalog: HardwareCatalog, version: str,
                                                        workload: dict[str, Any]) -> None:
    """The directory gpinitsystem_config names for the master (coordinator), on the hosts that run it: its own and
    the standby's, or the first segment host where the coordinator shares it."""
    bundle = _bundle(catalog, version, **workload)
    init = dict(ln.split("=", 1) for ln in bundle.get("greenplum/gpinitsystem_config").text.splitlines()
                if "=" in ln and not ln.startswith(("#", "declare")))
    prefix = "MASTER" if version == "6" else "COORDINATOR"
    item = next(ln for ln in bundle.get("os/host-settings.txt").text.splitlines() if "data directory, on" in ln)
    path = init[f"{prefix}_DIRECTORY"]
    assert item.endswith(f"mkdir -p {path} && chown gpadmin:gpadmin {path}")
    hosts = item.split(", on ", 1)[1].split(" only:")[0].split(" and ")
    assert hosts[0] == init[f"{prefix}_HOSTNAME"]
    command = bundle.get("greenplum/gpinitsystem.sh").text.splitlines()[-1]
    standby = command.split(" -s ")[1].split()[:1] if " -s " in command else []
    assert hosts[1:] == standby

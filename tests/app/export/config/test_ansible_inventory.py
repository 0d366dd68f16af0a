"""The Ansible inventory names every host of the design in its group, with the per-host values the design states."""

from __future__ import annotations

import pytest

from app.export.config.design_values import coordinator_word
from app.export.config.gp_layout import segment_units
from app.export.config.naming import Naming
from tests.app.export.config.conftest import ConfigOf


def _groups(text: str) -> dict[str, list[dict[str, str]]]:
    groups: dict[str, list[dict[str, str]]] = {}
    current = ""
    for ln in text.splitlines():
        if not ln or ln.startswith("#"):
            continue
        if ln.startswith("["):
            current = ln.strip("[]")
            groups[current] = []
            continue
        host, *pairs = ln.split()
        groups[current].append({"host": host, **dict(p.split("=", 1) for p in pairs)})
    return groups


@pytest.mark.parametrize("name", ["study-000-vsphere.json", "retail-dw-dual-socket-sas.json"])
def test_inventory_groups_every_host(name: str, config_of: ConfigOf) -> None:
    result, bundle = config_of(name)
    g = _groups(bundle.get("ansible/inventory.ini").text)
    units = segment_units(result.design, Naming())
    assert [h["host"] for h in g["segments"]] == [u.hostname for u in units]  # hostfile_gpinitsystem's order
    for h, u in zip(g["segments"], units, strict=True):
        assert (int(h["primaries"]), int(h["mirrors"])) == (u.primaries, u.mirrors)
        assert h["data_mounts"].split(",") == list(u.mounts)
        assert ("physical_host" in h) == (result.design.deployment == "vsphere")
    word = coordinator_word(result)  # both samples are Greenplum 6: its master
    assert word == "master" and len(g[word]) == 1 and ("standby" in g) == (result.design.coordinator_hosts > 1)
    assert [c["host"] for c in g["greenplum:children"]] == [word, *(["standby"] if "standby" in g else []),
                                                            "segments"]
    paths = {f.path for f in bundle.files}
    for h in g["segments"] + g[word]:
        assert h["sysctl_file"] in paths and h["limits_file"] in paths
    assert {v["host"].split("=")[0] for v in g["greenplum:vars"]} >= {"greenplum_release", "gpadmin_user"}


@pytest.mark.parametrize("name", ["study-000-vsphere.json", "retail-dw-gen5.json"])
def test_mirrors_start_after_the_primaries_so_volumes_carry_instances_evenly(name: str, config_of: ConfigOf) -> None:
    """5 primaries and 5 mirrors per VM on 8 volumes: the mirrors take /data6.. onwards, so no volume holds more than
    one instance above another (before: /data1-5 held two each, /data6-8 none)."""
    _, bundle = config_of(name)
    text = bundle.get("greenplum/gpinitsystem_config").text
    dirs = {k: ln.split("=(", 1)[1].rstrip(")").split() for ln in text.splitlines()
            for k in ("DATA_DIRECTORY", "MIRROR_DATA_DIRECTORY") if ln.startswith(f"declare -a {k}=")}
    per_volume: dict[str, int] = {}
    for d in dirs["DATA_DIRECTORY"] + dirs["MIRROR_DATA_DIRECTORY"]:
        volume = d.rsplit("/", 1)[0]
        per_volume[volume] = per_volume.get(volume, 0) + 1
    assert max(per_volume.values()) - min(per_volume.values()) <= 1

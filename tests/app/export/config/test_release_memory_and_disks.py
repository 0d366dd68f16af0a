"""What each release's documentation says about segment memory and the data drives, as the configuration writes it:
gp_vmem_protect_limit (Greenplum 6 ignores it under resource groups; Greenplum 7 and its forks enforce it), the I/O
scheduler per drive media (none for NVMe and SAS/SATA flash, mq-deadline for spinning disks, with RHEL 7's names as
fallback), and Greenplum 6's mdw / smdw / /data/master naming."""

from __future__ import annotations

import re
from typing import Any

import pytest

from app.export.config import ConfigBundle, build_config
from app.export.config.naming import parse_naming
from models.hardware import Drive, HardwareCatalog
from models.scenario import Scenario
from models.sizing.engine import size
from models.sizing.result import SizingResult
from models.sizing.settings import groups_for

DRIVES = {  # one drive of each media the catalog sells, with a server whose bays take it
    "nvme": ("lenovo-sr655-v3-24x-u3-1x-epyc-9554p", "micron-7450-pro-3840gb-u3"),
    "ssd": ("dell-r750-2x-gold-6342-24sas", "samsung-pm1653-3840gb-sas-sff"),
    "hdd": ("hpe-dl345-gen11-12x-lff-1x-epyc-9354p", "seagate-exos-x16-16tb-sas-lff"),
}


def _scenario(kind: str, version: str, media: str, deployment: str = "bare-metal", **workload: Any) -> Scenario:
    server, drive = DRIVES[media]
    w: dict[str, Any] = {"kind": kind, "data_tb": 30, "greenplum_version": version, **workload}
    w.update({"concurrent_queries": 8} if kind == "greenplum-analytics" else {"clients": 120, "mix": "update"})
    return Scenario.model_validate({"schema_version": 1, "name": f"{kind} {version} {media}", "workload": w,
                                    "platform": {"deployment": deployment, "server_id": server, "drive_id": drive}})


@pytest.fixture(scope="module")
def sized(catalog: HardwareCatalog) -> Any:
    cache: dict[str, tuple[SizingResult, ConfigBundle]] = {}

    def get(scenario: Scenario) -> tuple[SizingResult, ConfigBundle]:
        key = scenario.model_dump_json()
        if key not in cache:
            result = size(scenario, catalog)
            cache[key] = (result, build_config(result))
        return cache[key]

    return get


def _gpconfig(bundle: ConfigBundle) -> tuple[list[str], list[str]]:
    """(the gpconfig commands run, the gpconfig commands left commented out)."""
    lines = bundle.get("greenplum/gpconfig.sh").text.splitlines()
    return [ln for ln in lines if ln.startswith("gpconfig")], [ln[2:] for ln in lines if ln.startswith("# gpconfig -c")]


@pytest.mark.parametrize(("kind", "media"), [("greenplum-oltp", "hdd"), ("greenplum-analytics", "ssd")])
def test_greenplum_6_leaves_gp_vmem_protect_limit_unset_under_resource_groups(sized: Any, kind: str,
                                                                             media: str) -> None:
    result, bundle = sized(_scenario(kind, "6", media))
    run, commented = _gpconfig(bundle)
    assert "gpconfig -c gp_resource_manager -v group" in run
    assert not any("gp_vmem_protect_limit" in ln for ln in run)
    assert commented == [f"gpconfig -c gp_vmem_protect_limit -v {result.design.gp_vmem_protect_limit_mb}"]
    # each segment's memory is gp_resource_group_memory_limit's share: that one is set
    assert any(ln.startswith("gpconfig -c gp_resource_group_memory_limit -v 0.7") for ln in run)
    (unset,) = groups_for(result.design.settings, "greenplum-not-set")
    why = unset.settings[0]
    assert "only under resource queues" in why.reason and "Greenplum Database 6 Reference Guide" in why.source
    assert any(r.decision == "gp_vmem_protect_limit on Greenplum 6" for r in result.rationale)


@pytest.mark.parametrize("version", ["7", "cloudberry-2", "warehousepg-7"])
def test_the_greenplum_7_line_sets_gp_vmem_protect_limit_under_resource_groups(sized: Any, version: str) -> None:
    result, bundle = sized(_scenario("greenplum-analytics", version, "nvme"))
    run, commented = _gpconfig(bundle)
    assert f"gpconfig -c gp_vmem_protect_limit -v {result.design.gp_vmem_protect_limit_mb}" in run
    assert "gpconfig -c gp_resource_manager -v group-v2" in run and not commented
    assert groups_for(result.design.settings, "greenplum-not-set") == []
    vmem = next(s for g in result.design.settings if g.product == "greenplum" for s in g.settings
                if s.name == "gp_vmem_protect_limit")
    assert "Greenplum Database 7 Reference Guide" in vmem.source


@pytest.mark.parametrize(("media", "version", "now", "el7"), [
    ("nvme", "6", "none", "none"), ("ssd", "7", "none", "noop"), ("hdd", "6", "mq-deadline", "deadline"),
    ("hdd", "cloudberry-2", "mq-deadline", "mq-deadline"), ("nvme", "warehousepg-7", "none", "none"),
])
def test_the_scheduler_follows_the_drives_media_and_the_release_guide(sized: Any, catalog: HardwareCatalog,
                                                                      media: str, version: str, now: str,
                                                                      el7: str) -> None:
    result, bundle = sized(_scenario("greenplum-oltp", version, media))
    drive = catalog.get(result.design.drive_id)
    assert isinstance(drive, Drive) and drive.media == media
    (block,) = groups_for(result.design.settings, "linux-block")
    assert [s.value for s in block.settings] == [media, now, el7]
    script = bundle.get("os/data-disks.sh").text
    sysfs = '"/sys/block/$disk/queue/scheduler"'
    expected = f"echo {now} > {sysfs}" if now == el7 else \
        f'if grep -qw "{now}" {sysfs}; then echo {now} > {sysfs}; else echo {el7} > {sysfs}; fi'
    assert expected in script and "deadline" not in script.replace(now, "").replace(el7, "")
    kernel = "nvme[0-9]*n[0-9]*" if media == "nvme" else "sd[a-z]*"
    assert f'KERNEL=="{kernel}", ATTR{{queue/scheduler}}="{now}"' in script


def test_virtual_disks_keep_the_study_s_deadline(sized: Any) -> None:
    """On vSphere the guest sees virtual disks, not the drives: no media-based scheduler is set for them."""
    result, bundle = sized(_scenario("greenplum-analytics", "6", "nvme", deployment="vsphere"))
    assert groups_for(result.design.settings, "linux-block") == []
    assert "mq-deadline" in bundle.get("os/data-disks.sh").text


def test_greenplum_6_names_the_master_mdw_unless_told_otherwise(sized: Any) -> None:
    result, bundle = sized(_scenario("greenplum-analytics", "6", "hdd"))
    init = dict(ln.split("=", 1) for ln in bundle.get("greenplum/gpinitsystem_config").text.splitlines()
                if re.match(r"^[A-Z_]+=", ln))
    assert (init["MASTER_HOSTNAME"], init["MASTER_DIRECTORY"]) == ("mdw", "/data/master")
    assert "-s smdw" in bundle.get("greenplum/gpinitsystem.sh").text
    assert "mdw" in bundle.get("greenplum/hostfile_all").text.split()
    own = build_config(result, parse_naming(["coordinator_host=gpm", "coordinator_dir=/gp/m"]))
    init = dict(ln.split("=", 1) for ln in own.get("greenplum/gpinitsystem_config").text.splitlines()
                if re.match(r"^[A-Z_]+=", ln))
    assert (init["MASTER_HOSTNAME"], init["MASTER_DIRECTORY"]) == ("gpm", "/gp/m")
    assert "-s smdw" in own.get("greenplum/gpinitsystem.sh").text  # the standby keeps the release's name
    seven = sized(_scenario("greenplum-analytics", "7", "hdd"))[1]
    assert "COORDINATOR_HOSTNAME=cdw" in seven.get("greenplum/gpinitsystem_config").text


def test_every_seed_drive_has_the_media_its_datasheet_names(catalog: HardwareCatalog) -> None:
    """The scheduler's input: NVMe by interface; SAS/SATA flash by its random IOPS, which the model names bear out
    (an SSD says so, a spinning disk gives its RPM or says HDD)."""
    for d in catalog.drives:
        spinning = bool(re.search(r"\b(HDD|\d+(\.\d)?K\b)", d.model))
        expected = "nvme" if d.interface.startswith("NVMe") else "hdd" if spinning else "ssd"
        assert d.media == expected, (d.id, d.media)
    assert {d.media for d in catalog.drives} == {"nvme", "ssd", "hdd"}

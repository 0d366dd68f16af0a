"""Operating-system files: sysctl.conf, limits.conf, data-disk set-up, guest boot parameters, BIOS checklist."""

from __future__ import annotations

import posixpath
import shlex
from typing import Any

from app.export.config.bundle import Comments, ConfigBundle, comment, header
from app.export.config.design_values import cluster_setting, coordinator_word, release, setting_groups
from app.export.config.os_fit import Line, Role, guide, limits_lines, overcommit, roles, sysctl_lines
from app.export.config.static_data import deploy_data
from models.sizing.result import SizingResult
from models.vocabulary import greenplum_release_label

GREENPLUM_KINDS = ("greenplum-analytics", "greenplum-oltp")


def release_label(result: SizingResult) -> str:
    return greenplum_release_label(release(result))


def _file(title: str, result: SizingResult, lines: list[Line]) -> str:
    out = header(title, result.scenario_name)
    why = Comments()
    for line in lines:
        out += [*why(line.reason, line.source), line.text]
    return "\n".join(out)


def sysctl_conf(result: SizingResult, role: Role) -> str:
    """The release's installation-guide sysctl.conf for one role, fitted to its memory, instances and ports."""
    lines = sysctl_lines(result, role)
    sized = {ln.text.split(" = ")[0] for ln in overcommit(result)}
    lines = [ln for ln in lines if ln.text.split(" = ")[0] not in sized] + overcommit(result)
    text = _file(f"sysctl.conf for every {role.name} (copy to /etc/sysctl.d/90-greenplum.conf; sysctl --system)",
                 result, lines)
    omitted = [ln for e in deploy_data("linux")["greenplum_sysctl_omitted"]
               for ln in [*comment("Left out: " + e["reason"], e["source"]), f"# {e['name']} = {e['value']}"]]
    return "\n".join([text, *omitted])


def limits_conf(result: SizingResult, role: Role) -> str:
    return _file(f"limits.conf for every {role.name} (copy to /etc/security/limits.d/90-greenplum.conf; the"
                 " domain '*' covers gpadmin)", result, limits_lines(result, role))


def data_disks_script(result: SizingResult, mounts: tuple[str, ...], drives: int, what: str,
                      instance_dirs: tuple[str, ...] = ()) -> str:
    """Make, mount and tune the data volumes of one host or VM (devices are given on the command line)."""
    fs = deploy_data("linux")["greenplum_data_fs"]
    raid = result.design.raid
    volumes = len(mounts)
    lines = ["#!/usr/bin/env bash", *header(
        f"data-disks.sh: XFS data volumes of one {what} (run as root with the {volumes} device(s) in order,"
        " e.g. ./data-disks.sh /dev/sdb ...)", result.scenario_name)]
    lines += [*comment("Stop at the first error.", "GNU Bash manual, The Set Builtin"), "set -euo pipefail"]
    layout = f"{drives} data drive(s), one volume per drive (no RAID)" if raid == "none" else \
        f"{drives} data drive(s) in one {raid} volume presented by the controller"
    lines += [*comment(f"The design gives each {what} {layout}.", fs["partition_source"]),
              f"if [ $# -ne {volumes} ]; then echo \"usage: $0 DEVICE x {volumes}\" >&2; exit 2; fi",
              *comment("Mount points, in the order of the devices given.", fs["mount_source"]),
              f"MOUNTS=({' '.join(shlex.quote(m) for m in mounts)})",
              'DEVICES=("$@")',
              *comment(fs["partition_reason"], fs["partition_source"]),
              'for i in "${!MOUNTS[@]}"; do',
              '  dev=${DEVICES[$i]}; mnt=${MOUNTS[$i]}; label=$(basename "$mnt" | cut -c1-12)',
              *["  " + c for c in comment("One GPT partition over the whole disk, aligned by parted.",
                                          fs["partition_source"])],
              '  parted -s "$dev" mklabel gpt mkpart primary xfs 1MiB 100%',
              '  part=$(lsblk -lnpo NAME "$dev" | sed -n 2p)',
              *["  " + c for c in comment(f"{fs['fs_type'].upper()} file system labelled after its mount point.",
                                          fs["mount_source"])],
              f'  mkfs.{fs["fs_type"]} -f -L "$label" "$part"',
              *["  " + c for c in comment(fs["mount_reason"], fs["mount_source"])],
              '  mkdir -p "$mnt"',
              f'  echo "LABEL=$label $mnt {fs["fs_type"]} {fs["mount_options"]} 0 0" >> /etc/fstab',
              '  mount "$mnt"',
              *["  " + c for c in comment(fs["readahead_reason"], fs["readahead_source"])],
              f'  /sbin/blockdev --setra {fs["readahead_sectors"]} "$dev"',
              *_scheduler_lines(result, fs)]
    if instance_dirs:
        quoted = " ".join(shlex.quote(d) for d in instance_dirs)
        user = deploy_data("greenplum")["ansible"]["user"]
        lines += [*comment(fs["dirs_reason"], fs["dirs_source"]), f"mkdir -p {quoted}",
                  f"chown {user}:{user} {quoted}"]
    return "\n".join(lines)


def _scheduler_lines(result: SizingResult, fs: dict[str, Any]) -> list[str]:
    """The data devices' I/O scheduler: the design's (the installation guide's for the drives' media, bare metal),
    else the study's deadline for virtual disks; the name on current kernels, falling back to RHEL 7's; then how it
    survives a reboot."""
    now = cluster_setting(result, "linux-block", "scheduler")
    el7 = cluster_setting(result, "linux-block", "scheduler_el7")
    if now is not None and el7 is not None:
        names, reason, source = (str(now.value), str(el7.value)), now.reason, now.source
    else:
        names, reason, source = (f"mq-{fs['scheduler']}", fs["scheduler"]), fs["scheduler_reason"], \
            fs["scheduler_source"]
    sysfs = '"/sys/block/$disk/queue/scheduler"'
    boot = fs["scheduler_boot"]
    media = cluster_setting(result, "linux-block", "media")
    kernel = boot["kernel_nvme"] if media is not None and media.value == "nvme" else boot["kernel_scsi"]
    return [*["  " + c for c in comment(reason + (f" Data drive media: {media.value}." if media else ""), source)],
            '  disk=$(basename "$dev")',
            f'  echo {names[0]} > {sysfs}' if names[0] == names[1] else
            f'  if grep -qw "{names[0]}" {sysfs}; then echo {names[0]} > {sysfs}; else echo {names[1]} > {sysfs}; fi',
            "done",
            *comment("Read-ahead does not survive a reboot: keep the blockdev line above in a boot-time unit"
                     " (rc.local or a tuned profile).", fs["readahead_source"]),
            *comment(boot["reason"], boot["source"]),
            f'# ACTION=="add|change", KERNEL=="{kernel}", ATTR{{queue/scheduler}}="{names[0]}"']


def _resource_manager(result: SizingResult) -> str | None:
    manager = next((s for g in setting_groups(result, "greenplum") for s in g.settings
                    if s.name == "gp_resource_manager"), None)
    return None if manager is None else str(manager.value)


def cgroups_v2_unit(result: SizingResult) -> str | None:
    """The systemd unit that prepares cgroup v2 for resource groups at boot (gp_resource_manager=group-v2)."""
    if _resource_manager(result) != "group-v2":
        return None
    cg = deploy_data("linux")["greenplum_cgroups_v2"]
    user = cg["user"]
    controllers = " ".join("+" + c for c in cg["controllers"])
    lines = header(f"{cg['unit']}: the cgroup v2 set-up resource groups need (every host)", result.scenario_name)
    lines += [*comment(cg["reason"], cg["source"]), "[Unit]", "Description=Greenplum cgroup v2 configuration", "",
              "[Service]", "Type=oneshot", "RemainAfterExit=yes", "WorkingDirectory=/sys/fs/cgroup", "Delegate=yes",
              *comment("Only where cgroup v2 is mounted.", cg["source"]),
              "ExecCondition=bash -c '[ xcgroup2fs = x$(stat -fc \"%%T\" /sys/fs/cgroup) ] || exit 1'",
              *comment(f"The gpdb directory for {user}, the controllers below the root, cgroup.procs writable.",
                       cg["source"]),
              f'ExecStart=bash -ec "[ -d gpdb ] || mkdir gpdb; echo \'{controllers}\' > cgroup.subtree_control;'
              f' chown -R {user}:{user} gpdb; chmod a+w cgroup.procs"', "", "[Install]", "WantedBy=basic.target"]
    return "\n".join(lines)


def cgroups_conf(result: SizingResult) -> str | None:
    """The cgroup hierarchy resource groups need, when the design turns them on (gp_resource_manager=group)."""
    if _resource_manager(result) != "group":
        return None
    cg = deploy_data("linux")["greenplum_cgroups"]
    user = cg["user"]
    lines = header("cgconfig-gpdb.conf: the cgroup hierarchy Greenplum resource groups run in (every host)",
                   result.scenario_name)
    lines += [*comment(cg["reason"], cg["source"]), "group gpdb {",
              *comment(f"{user} creates and manages the resource groups' cgroups.", cg["source"]),
              f"    perm {{ task {{ uid = {user}; gid = {user}; }} admin {{ uid = {user}; gid = {user}; }} }}",
              *comment("Controllers for CPU limits, CPU accounting, CPU sets and memory.", cg["source"]),
              "    " + " ".join(f"{c} {{ }}" for c in cg["controllers"]),
              *comment("End of the gpdb group.", cg["source"]), "}"]
    return "\n".join(lines)


def host_settings(result: SizingResult, coordinator_dir: tuple[str, tuple[str, ...]] | None = None) -> str:
    """The installation guide's host settings that are not sysctl or limits lines, as a checklist with commands;
    then the coordinator's data directory on its hosts (`coordinator_dir`: the directory and the host names)."""
    lines = header(f"host-settings.txt: {release_label(result)} host settings beyond sysctl.conf and limits.conf"
                   " (every host)", result.scenario_name)
    items = deploy_data("linux")["greenplum_host_settings"]
    for i, e in enumerate(items, start=1):
        lines += ["", f"[ ] {i}. {e['what']}: {e['command']}", *comment(e["reason"], e["source"], "   ")]
    n = len(items)
    user = deploy_data("greenplum")["ansible"]["user"]
    core = core_dir(result)
    if core:
        c = deploy_data("linux")["greenplum_core_dir"]
        n += 1
        path = shlex.quote(core)
        lines += ["", f"[ ] {n}. {c['what']}: mkdir -p {path} && chown {user}:{user} {path}"
                  f" && chmod {c['mode']} {path}",
                  *comment(c["reason"].format(dir=core, user=user, mode=c["mode"]), c["source"], "   ")]
    if coordinator_dir:
        path, hosts = coordinator_dir
        c = deploy_data("linux")["greenplum_coordinator_dir"]
        w = coordinator_word(result)
        lines += ["", f"[ ] {n + 1}. The {w}'s data directory, on {' and '.join(hosts)} only:"
                  f" mkdir -p {shlex.quote(path)} && chown {user}:{user} {shlex.quote(path)}",
                  *comment(c["reason"].format(role=w), c["source"].format(role=w), "   ")]
    return "\n".join(lines)


def core_dir(result: SizingResult) -> str | None:
    """The directory sysctl.conf's kernel.core_pattern writes core files to on `result`'s release (None where the
    release's guide sets no absolute pattern): host-settings.txt creates it."""
    rel = release(result)
    pattern = next((str(e["value"]) for e in guide()["sysctl"]
                    if e["name"] == "kernel.core_pattern" and rel in e.get("releases", (rel,))), "")
    return posixpath.dirname(pattern) if pattern.startswith("/") else None


def bios_checklist(result: SizingResult) -> str:
    data = deploy_data("bios")
    lines = header("BIOS checklist for every physical host (set before installing the OS or ESXi)",
                   result.scenario_name)
    lines += comment(data["about"], "002_feb9b45e1f157a35.txt, BIOS setup and settings")
    lines += comment(data["note"]["reason"], data["note"]["source"])
    for i, e in enumerate(data["items"], start=1):
        lines += ["", f"[ ] {i}. {e['setting']}: {e['value']}  (BIOS: {e['where']})",
                  *comment(e["reason"], e["source"], "   ")]
    return "\n".join(lines)


def guest_settings(result: SizingResult) -> str:
    """Boot parameters and driver settings for the Linux guests of a vSphere design."""
    v = deploy_data("vsphere")
    g = v["guest"]
    kind = result.design.kind
    elevator = g[v["scheduler_by_kind"][kind]]
    params = [g["thp"], elevator, g["pvscsi_queue"]]
    lines = header("Linux guest settings for every VM (boot parameters, drivers)", result.scenario_name)
    for p in params:
        lines += [*comment(p["reason"], p["source"]), f"# kernel parameter: {p['param']}"]
    joined = " ".join(p["param"] for p in params)
    lines += [*comment("All parameters at once, on RHEL-family guests:", "grubby(8)"),
              f"grubby --update-kernel=ALL --args={shlex.quote(joined)}"]
    sched = "mq-deadline" if "deadline" in elevator["param"] else "none"
    lines += [*comment(f"Kernels 5.0 and later ignore elevator=: this udev rule sets {sched} on every virtual"
                       " disk instead (save as /etc/udev/rules.d/60-refarch-scheduler.rules).", elevator["source"]),
              f'# ACTION=="add|change", KERNEL=="sd[a-z]*", ATTR{{queue/scheduler}}="{sched}"']
    lines += [*comment(g["vmware_tools"]["reason"], g["vmware_tools"]["source"]),
              f"# {g['vmware_tools']['command']}",
              *comment(g["balloon"]["reason"], g["balloon"]["source"]),
              "# lsmod | grep vmw_balloon"]
    if kind in GREENPLUM_KINDS:
        q = v["vmxnet3_single_queue"]
        lines += [*comment(q["reason"], q["source"]),
                  "# ethtool -L <interface> combined 1   (for every VMXNET3 interface)"]
    return "\n".join(lines)


def add_linux(bundle: ConfigBundle, result: SizingResult, mounts: tuple[str, ...] | None, drives: int,
              instance_dirs: tuple[str, ...] = (), coordinator_dir: tuple[str, tuple[str, ...]] | None = None) -> None:
    kind = result.design.kind
    if kind in GREENPLUM_KINDS:
        for role in roles(result):
            suffix = "" if role.name.startswith("segment") else f"-{coordinator_word(result)}"
            bundle.add(f"os/sysctl{suffix}.conf", sysctl_conf(result, role),
                       f"kernel parameters for every {role.name} ({release_label(result)} installation guide)")
            bundle.add(f"os/limits{suffix}.conf", limits_conf(result, role),
                       f"open files and processes for every {role.name}")
        bundle.add("os/host-settings.txt", host_settings(result, coordinator_dir),
                   "THP, RemoveIPC, sshd threshold, MTU, the core file directory, the"
                   f" {coordinator_word(result)}'s directory (checklist)")
        cgroups = cgroups_conf(result)
        if cgroups:
            bundle.add("os/cgconfig-gpdb.conf", cgroups, "cgroups for resource groups (gp_resource_manager=group)")
        unit = cgroups_v2_unit(result)
        if unit:
            bundle.add(f"os/{deploy_data('linux')['greenplum_cgroups_v2']['unit']}", unit,
                       "cgroup v2 for resource groups (gp_resource_manager=group-v2)")
        if mounts:
            what = "segment VM" if result.design.deployment == "vsphere" else "segment host"
            bundle.add("os/data-disks.sh", data_disks_script(result, mounts, drives, what, instance_dirs),
                       "XFS data volumes: mount options, read-ahead, I/O scheduler", executable=True)
    if result.design.deployment == "vsphere":
        bundle.add("os/guest-settings.txt", guest_settings(result), "Linux guest boot parameters and drivers")
    bundle.add("os/bios-checklist.txt", bios_checklist(result), "BIOS settings for every physical host")

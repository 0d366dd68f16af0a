"""The Ansible inventory of a Greenplum design: the coordinator, the standby and the segment hosts (or segment VMs)
as groups, with the values a playbook needs per host (the OS files it copies, primaries and mirrors, data mounts).
It names what the design states; a playbook applies the other files of this bundle."""

from __future__ import annotations

from app.export.config.bundle import ConfigBundle, comment, header
from app.export.config.design_values import coordinator_word, release
from app.export.config.gp_layout import SegmentUnit
from app.export.config.greenplum import coordinator_host
from app.export.config.naming import Naming
from app.export.config.static_data import deploy_data
from models.sizing.result import SizingResult


def inventory(result: SizingResult, units: list[SegmentUnit], naming: Naming) -> str:
    a = deploy_data("greenplum")["ansible"]
    lines = header("inventory.ini: the Ansible inventory of the design (ansible-playbook -i inventory.ini ...)",
                   result.scenario_name)
    lines += comment(a["reason"], a["source"])
    w = coordinator_word(result)  # the group, the OS files and the variable as the release names the role
    files = f"sysctl_file=os/sysctl-{w}.conf limits_file=os/limits-{w}.conf"
    if result.design.coordinator_hosts:
        lines += ["", f"[{w}]", f"{naming.render('coordinator_host')} {files}"]
    else:  # the coordinator runs on the first segment host: that host is in both groups
        lines += ["", f"[{w}]", f"{units[0].hostname} sysctl_file=os/sysctl.conf limits_file=os/limits.conf"]
    if result.design.coordinator_hosts > 1:
        lines += ["", "[standby]", f"{naming.render('standby_coordinator_host')} {files}"]
    lines += ["", *comment(a["segments_reason"], a["segments_source"]), "[segments]"]
    for u in units:
        where = f" physical_host={u.physical_name} numa_node={u.numa_node}" if u.vm else ""
        lines.append(f"{u.hostname} primaries={u.primaries} mirrors={u.mirrors} data_mounts={','.join(u.mounts)}"
                     f"{where} sysctl_file=os/sysctl.conf limits_file=os/limits.conf")
    children = [w, *(["standby"] if result.design.coordinator_hosts > 1 else []), "segments"]
    lines += ["", "[greenplum:children]", *children, "", *comment(a["vars_reason"], a["vars_source"]),
              "[greenplum:vars]", f"greenplum_release={release(result)}", f"gpadmin_user={a['user']}",
              f"{w}_host={coordinator_host(result, units, naming)}"]
    return "\n".join(lines)


def add_ansible(bundle: ConfigBundle, result: SizingResult, units: list[SegmentUnit], naming: Naming) -> None:
    bundle.add("ansible/inventory.ini", inventory(result, units, naming),
               f"Ansible inventory: {coordinator_word(result)}, standby and segment groups with per-host values")

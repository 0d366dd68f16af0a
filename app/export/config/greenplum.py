"""Greenplum: gpinitsystem_config, host files, the gpinitsystem command, gpconfig script, resource groups."""

from __future__ import annotations

import re
import shlex

from app.export.config import gp_block
from app.export.config.bundle import Comments, ConfigBundle, comment, header
from app.export.config.design_values import cluster_setting, coordinator_word, fmt_value, release, setting_groups
from app.export.config.gp_layout import SegmentUnit, segment_units, spread
from app.export.config.naming import Naming
from app.export.config.os_fit import PortPlan, port_plan
from app.export.config.static_data import deploy_data
from models.sizing.result import SizingResult

MIRROR_FLAGS = {"spread": "--mirror-mode=spread", "group": "--mirror-mode=group"}
DOCS = "vendor_docs: Greenplum Database Utility Guide, gpinitsystem"


def _array(values: list[str]) -> str:
    return "(" + " ".join(shlex.quote(v) for v in values) + ")"


def _var(name: str, value: str) -> str:
    return f"{name}={shlex.quote(value)}"


def _array_name(scenario_name: str, default: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9 _.-]", "", scenario_name).strip()
    return cleaned or default


def _range_note(p: PortPlan) -> str:
    return (f"Ports {p.port_base}-{p.highest} lie below net.ipv4.ip_local_port_range ({p.range_low}-{p.range_high},"
            " os/sysctl.conf), as the installation guide's Port Settings require.")


def coordinator_host(result: SizingResult, units: list[SegmentUnit], naming: Naming) -> str:
    """The coordinator's host name: its own host's, or the first segment host's where the design runs it there."""
    return naming.render("coordinator_host") if result.design.coordinator_hosts or not units else units[0].hostname


def gpinitsystem_config(result: SizingResult, units: list[SegmentUnit], naming: Naming) -> str:
    d = result.design
    init = {e["name"]: e for e in deploy_data("greenplum")["init"]}
    u = units[0]
    lines = header("gpinitsystem_config: the Greenplum cluster gpinitsystem creates", result.scenario_name)
    e = init["ARRAY_NAME"]
    lines += [*comment(e["reason"], e["source"]), _var("ARRAY_NAME", _array_name(result.scenario_name, e["value"]))]
    lines += [*comment("Data directories are named <prefix><content id> inside each directory below.", DOCS),
              _var("SEG_PREFIX", naming.render("seg_prefix"))]
    ports = port_plan(result)
    e = init["PORT_BASE"]
    lines += [*comment(f"{e['reason']} {_range_note(ports)}", e["source"]), _var("PORT_BASE", str(ports.port_base))]
    primary_why = (
        f"{u.primaries} primary segments per {'VM' if u.vm else 'host'} (the design's"
        f" {d.primary_segments_per_host} per host over {d.vms_per_host} VM(s)), one entry each, spread round-robin"
        f" over the {len(u.mounts)} data volume(s) {', '.join(u.mounts)} so every drive carries the same number"
        " of segments."
    )
    lines += [*comment(primary_why, "002_feb9b45e1f157a35.txt, Number of Greenplum segments per machine"),
              f"declare -a DATA_DIRECTORY={_array(spread(u.primaries, u.mounts, naming, 'primary_dir'))}"]
    rel = deploy_data("greenplum")["releases"][release(result)]
    var = rel["prefix"]
    named = "names_reason" in rel and "coordinator_host" not in naming.explicit
    w = coordinator_word(result)
    own = d.coordinator_hosts > 0
    named = named and own
    where = "" if own else f" The design runs the {w} on the first segment host, {units[0].hostname} (no {w} host)."
    lines += [*comment(f"{w.capitalize()} host. {rel['prefix_reason']}" + (f" {rel['names_reason']}" if named else "")
                       + where, rel["prefix_source"] + (f"; {rel['names_source']}" if named else "")),
              _var(f"{var}_HOSTNAME", coordinator_host(result, units, naming)),
              *comment(f"{w.capitalize()} data directory (the catalog only, "
                       + (f"on the {w}'s RAID 1 pair)." if own else f"on {units[0].hostname} beside its segments)."),
                       DOCS),
              _var(f"{var}_DIRECTORY", naming.render("coordinator_dir"))]
    e = init["COORDINATOR_PORT"]
    lines += [*comment(e["reason"].replace("{coordinator}", w), e["source"]), _var(f"{var}_PORT", e["value"])]
    for name in ("TRUSTED_SHELL", "ENCODING"):
        e = init[name]
        lines += [*comment(e["reason"], e["source"]), _var(name, e["value"])]
    lines += [*comment("The segment host file written beside this file (one line per interface address).", DOCS),
              _var("MACHINE_LIST_FILE", "./hostfile_gpinitsystem")]
    mode = cluster_setting(result, "greenplum-init", "mirror_mode")
    if u.mirrors and mode is not None and str(mode.value) == "block":
        e = init["MIRROR_PORT_BASE"]
        how = (f"gpinitsystem.sh runs gpinitsystem -I {gp_block.INPUT_FILE}, which places every primary and mirror"
               " in its block" if gp_block.block_size(result, units) else
               "the cluster is initialised without mirrors and gpaddmirrors -i adds them in blocks (see"
               " gpinitsystem.sh)")
        lines += [*comment(f"{e['reason']} {_range_note(ports)} Block mirroring has no gpinitsystem flag: {how}."
                           " Left as comments: with MIRROR_PORT_BASE set and no MIRROR_DATA_DIRECTORY, gpinitsystem"
                           " -c stops ('Number of primary directories does not match number of mirror"
                           f" directories'). The {u.mirrors} mirror directories per host:",
                           f"{e['source']}; {gp_block.SOURCE}"),
                  f"# MIRROR_PORT_BASE={ports.mirror_port_base}",
                  "# MIRROR_DATA_DIRECTORY: "
                  + " ".join(spread(u.mirrors, u.mounts, naming, "mirror_dir", u.primaries))]
    elif u.mirrors:
        e = init["MIRROR_PORT_BASE"]
        lines += [*comment(f"{e['reason']} {_range_note(ports)}", e["source"]),
                  _var("MIRROR_PORT_BASE", str(ports.mirror_port_base))]
        how = f" Mirroring mode {mode.value}: run gpinitsystem with {MIRROR_FLAGS.get(str(mode.value), '')}" \
              " (see gpinitsystem.sh)." if mode else ""
        lines += [*comment(f"{u.mirrors} mirror segments per {'VM' if u.vm else 'host'}, spread over the same"
                           f" data volumes.{how}", "vendor_docs: Greenplum Database Administrator Guide, Overview of"
                           " Segment Mirroring"),
                  "declare -a MIRROR_DATA_DIRECTORY="
                  + _array(spread(u.mirrors, u.mounts, naming, "mirror_dir", u.primaries))]
    else:
        lines += comment("No MIRROR_DATA_DIRECTORY: the design runs without mirrors (a failed host takes its"
                         " segments' data offline).", "vendor_docs: Greenplum Database Administrator Guide,"
                         " Overview of Segment Mirroring")
    return "\n".join(lines)


def hostfile_segments(result: SizingResult, units: list[SegmentUnit]) -> str:
    lines = header("hostfile_gpinitsystem: segment hosts, one line per interface address", result.scenario_name)
    if len(units[0].interfaces) > 1:
        lines += comment(
            f"Each host has {len(units[0].interfaces)} interface addresses; gpinitsystem spreads its segments"
            " evenly over them so every port carries interconnect traffic.",
            "002_feb9b45e1f157a35.txt, Network setup",
        )
    if units[0].vm:
        lines += comment(
            "VMs are listed host-interleaved (VM 1 of every host, then VM 2 ...): gpinitsystem puts a host's"
            " mirrors on the hosts that follow it, so no primary shares a physical host with its mirror.",
            "vendor_docs: Greenplum Database Administrator Guide, Overview of Segment Mirroring",
        )
    for u in units:
        where = f"VM {u.vm} on {u.physical_name}, NUMA node {u.numa_node}" if u.vm else "bare-metal segment host"
        lines.append(f"# {u.hostname}: {where}, {u.primaries} primaries + {u.mirrors} mirrors")
        lines += list(u.interfaces)
    return "\n".join(lines)


def hostfile_all(result: SizingResult, units: list[SegmentUnit], naming: Naming) -> str:
    lines = header("hostfile_all: every Greenplum host, for gpssh-exkeys -f and gpssh -f", result.scenario_name)
    d = result.design
    w = coordinator_word(result)
    roles = [(naming.render("coordinator_host"), w)]
    if d.coordinator_hosts > 1:
        roles.append((naming.render("standby_coordinator_host"), f"standby {w}"))
    for name, role in roles if d.coordinator_hosts else []:  # else the master runs on segment host 1, listed below
        lines += [f"# {role}: holds the catalog only, no user data (RAID 1 pair)", name]
    for u in units:
        lines += [f"# segment host {u.n}", u.hostname]
    return "\n".join(lines)


def gpinitsystem_script(result: SizingResult, naming: Naming) -> str:
    mode = cluster_setting(result, "greenplum-init", "mirror_mode")
    d = result.design
    lines = ["#!/usr/bin/env bash", *header("gpinitsystem.sh: initialise the cluster (run as gpadmin)",
                                             result.scenario_name)]
    lines += [*comment("Stop at the first error.", "GNU Bash manual, The Set Builtin"), "set -euo pipefail",
              *comment("Run beside gpinitsystem_config and the host files.", DOCS), 'cd "$(dirname "$0")"']
    units = segment_units(d, naming)
    blocks = gp_block.block_size(result, units)
    args = ["gpinitsystem", "-c", "gpinitsystem_config", "-h", "hostfile_gpinitsystem"] if blocks is None else \
        ["gpinitsystem", "-I", gp_block.INPUT_FILE]
    why = "Create the cluster from gpinitsystem_config and the segment host file" if blocks is None else \
        (f"Create the cluster from {gp_block.INPUT_FILE}, which lists every instance with its host, port and"
         " directory (the values of gpinitsystem_config, written out)")
    if d.coordinator_hosts > 1:
        args += ["-s", naming.render("standby_coordinator_host")]
        why += f"; -s adds the standby {coordinator_word(result)}"
    if mode is not None and (d.mirror_segments_per_host or 0) > 0:
        flag = MIRROR_FLAGS.get(str(mode.value))
        if flag:
            args.append(flag)
            why += f"; {flag}: {mode.reason.rstrip('.')}"
        elif blocks is not None:
            why += (f"; mirroring mode block has no gpinitsystem flag, so the file places each host's mirrors on the"
                    f" other hosts of its block of {blocks} segment hosts (consecutive hosts of"
                    " hostfile_gpinitsystem)")
        else:
            size_set = cluster_setting(result, "greenplum-init", "mirror_block_hosts")
            size = f" of {size_set.value} segment hosts" if size_set else ""
            why += (f"; mirroring mode {mode.value} has no gpinitsystem flag: the cluster starts without mirrors;"
                    f" then generate a template with gpaddmirrors -o, place each host's mirrors on the other hosts"
                    f" of its block{size} (consecutive hosts of hostfile_gpinitsystem) and run gpaddmirrors -i")
    src = mode.source if mode else DOCS
    lines += [*comment(why + ".", src if blocks is None else f"{gp_block.SOURCE}; {src}"), " ".join(args)]
    problem = mirror_mode_problem(result, units)
    if problem:
        lines[-1:-1] = comment("WARNING: " + problem + ".", "Greenplum Database Utility Guide, gpinitsystem")
    return "\n".join(lines)


def mirror_mode_problem(result: SizingResult, units: list[SegmentUnit]) -> str | None:
    """gpinitsystem refuses spread mirroring unless there are more segment hosts than primaries per host."""
    mode = cluster_setting(result, "greenplum-init", "mirror_mode")
    if mode is None or str(mode.value) != "spread" or not units or not units[0].mirrors:
        return None
    if len(units) > units[0].primaries:
        return None
    return (f"spread mirroring needs more segment hosts ({len(units)}) than primaries per host"
            f" ({units[0].primaries}): gpinitsystem --mirror-mode=spread will refuse this design; review the"
            " mirroring policy before running gpinitsystem.sh")


def _gpconfig_value(name: str, value: object, unit: str, plain: set[str]) -> str:
    text = fmt_value(value)
    return text if not unit or name in plain else f"{text}{unit}"


def gpconfig_script(result: SizingResult) -> str:
    """One gpconfig per parameter: the cluster value (-v) and, where the design sets one, the coordinator's (-m)."""
    gucs = deploy_data("greenplum_gucs")
    plain = set(gucs["plain_number"])
    groups = setting_groups(result, "greenplum")
    cluster = [s for g in groups if g.target != "coordinator" for s in g.settings]
    coordinator = {s.name: s for g in groups if g.target == "coordinator" for s in g.settings}
    w = coordinator_word(result)
    lines = ["#!/usr/bin/env bash",
             *header(f"gpconfig.sh: the server parameters the design sets (run as gpadmin on the {w})",
                     result.scenario_name)]
    lines += [*comment("Stop at the first error.", "GNU Bash manual, The Set Builtin"), "set -euo pipefail"]
    why = Comments()
    for s in cluster:
        value = _gpconfig_value(s.name, s.value, s.unit, plain)
        cmd = f"gpconfig -c {s.name} -v {shlex.quote(value)}"
        lines += why(s.reason, s.source)
        c = coordinator.pop(s.name, None)
        if c is not None:
            lines += comment(f"{w.capitalize()} value (-m): {c.reason}" if c.reason != s.reason else
                             f"-m gives the {w} its own value.", c.source)
            cmd += f" -m {shlex.quote(_gpconfig_value(c.name, c.value, c.unit, plain))}"
        if s.name in gucs["skip_validation"]:
            lines += comment(gucs["skip_validation_reason"], gucs["skip_validation_source"])
            cmd += " --skipvalidation"
        lines.append(cmd)
    rel = deploy_data("greenplum")["releases"][release(result)]
    for c in coordinator.values():
        value = _gpconfig_value(c.name, c.value, c.unit, plain)
        lines += [*comment(f"{c.reason} {rel['flag_reason']}", f"{c.source}; {rel['flag_source']}"),
                  f"gpconfig -c {c.name} -v {shlex.quote(value)} {rel['coordinator_only']}"]
    for s in (s for g in setting_groups(result, "greenplum-not-set") for s in g.settings):
        lines += [*comment(s.reason, s.source),
                  f"# gpconfig -c {s.name} -v {shlex.quote(_gpconfig_value(s.name, s.value, s.unit, plain))}"]
    return "\n".join(lines + _restart(gucs, [s.name for s in cluster] + list(coordinator)))


def _restart(gucs: dict[str, object], written: list[str]) -> list[str]:
    """The restart the parameters written need, naming them; a reload when none needs a restart."""
    restart = [n for n in written if n in gucs["restart"]]  # type: ignore[operator]
    if not restart:
        return [*comment(str(gucs["reload_reason"]).capitalize() + ".", str(gucs["reload_source"])), "gpstop -u"]
    names = restart[0] if len(restart) == 1 else ", ".join(restart[:-1]) + " and " + restart[-1]
    verb = "takes" if len(restart) == 1 else "take"
    return [*comment(f"{names} {verb} effect only after a restart: {gucs['restart_reason']}.",
                     str(gucs["restart_source"])), "gpstop -ar"]


def resource_groups_sql(result: SizingResult) -> str | None:
    groups = setting_groups(result, "greenplum-resource-group")
    if not groups:
        return None
    lines = header("resource_groups.sql: resource groups the design sets (psql -f, as gpadmin)",
                   result.scenario_name, "--")
    builtin = {"admin_group", "default_group", "system_group"}
    why = Comments("--")
    for g in groups:
        if g.target in builtin:
            for s in g.settings:
                lines += [*why(s.reason, s.source),
                          f"ALTER RESOURCE GROUP {g.target} SET {s.name.upper()} {fmt_value(s.value)};"]
        else:
            for s in g.settings:
                lines += why(f"{s.name.upper()}: {s.reason}", s.source)
            attrs = ", ".join(f"{s.name.upper()}={fmt_value(s.value)}" for s in g.settings)
            lines.append(f"CREATE RESOURCE GROUP {g.target} WITH ({attrs});")
    return "\n".join(lines)


def add_greenplum(bundle: ConfigBundle, result: SizingResult, naming: Naming) -> list[SegmentUnit]:
    units = segment_units(result.design, naming)
    bundle.add("greenplum/gpinitsystem_config", gpinitsystem_config(result, units, naming),
               "gpinitsystem configuration: ports, data and mirror directories per segment")
    bundle.add("greenplum/hostfile_gpinitsystem", hostfile_segments(result, units),
               "segment hosts (one line per interface address)")
    bundle.add("greenplum/hostfile_all", hostfile_all(result, units, naming), "every host, for gpssh-exkeys")
    if gp_block.block_size(result, units) is not None:
        bundle.add(f"greenplum/{gp_block.INPUT_FILE}",
                   gp_block.input_config(result, units, naming, coordinator_host(result, units, naming)),
                   "gpinitsystem -I input: every primary and mirror placed in its block (block mirroring)")
    bundle.add("greenplum/gpinitsystem.sh", gpinitsystem_script(result, naming),
               "the gpinitsystem command with the mirroring flag", executable=True)
    bundle.add("greenplum/gpconfig.sh", gpconfig_script(result), "gpconfig commands for every parameter the"
               " design sets", executable=True)
    sql = resource_groups_sql(result)
    if sql:
        bundle.add("greenplum/resource_groups.sql", sql, "resource group DDL")
    pgb = pgbouncer_ini(result)
    if pgb:
        bundle.add("greenplum/pgbouncer.ini", pgb, "PgBouncer pool for the sessions beyond max_connections")
    return units


def pgbouncer_ini(result: SizingResult) -> str | None:
    """pgbouncer.ini for the coordinator when the design's sessions exceed max_connections (product `pgbouncer`)."""
    groups = setting_groups(result, "pgbouncer")
    if not groups:
        return None
    pgb = deploy_data("greenplum")["pgbouncer"]
    port = next(e["value"] for e in deploy_data("greenplum")["init"] if e["name"] == "COORDINATOR_PORT")
    w = coordinator_word(result)
    lines = header(f"pgbouncer.ini: the connection pooler in front of the {w} (run on the {w} host)",
                   result.scenario_name, ";")
    lines += [*comment(pgb["about_reason"].replace("{coordinator}", w), pgb["about_source"], ";"), "[databases]",
              *comment(pgb["databases_reason"].replace("{coordinator}", w), pgb["databases_source"], ";"),
              f"* = host=127.0.0.1 port={port}",
              "", "[pgbouncer]"]
    why = Comments(";")
    for s in (s for g in groups for s in g.settings):
        lines += [*why(s.reason, s.source), f"{s.name} = {fmt_value(s.value)}"]
    for e in pgb["static"]:
        lines += [*why(e["reason"].replace("{coordinator}", w), e["source"]), f"{e['name']} = {e['value']}"]
    return "\n".join(lines)

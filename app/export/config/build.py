"""Every configuration file of one design, rendered in memory, with a README index."""

from __future__ import annotations

from app.export.config.ansible import add_ansible
from app.export.config.bundle import ConfigBundle, ConfigFile, comment, header, one_line
from app.export.config.design_values import cluster_setting, coordinator_word, release
from app.export.config.gp_layout import SegmentUnit, instance_dirs, segment_units
from app.export.config.greenplum import add_greenplum, coordinator_host, mirror_mode_problem
from app.export.config.linux import GREENPLUM_KINDS, add_linux
from app.export.config.naming import Naming, for_release
from app.export.config.postgres import add_postgres, vm_names
from app.export.config.sap_iq import add_sap_iq
from app.export.config.static_data import deploy_data
from app.export.config.vsphere import (
    add_vsphere,
    anti_affinity,
    greenplum_vms,
    postgres_vms,
    sap_iq_vms,
    vsan_policies,
)
from models.release_words import role_label
from models.sizing.result import SizingResult
from models.vocabulary import greenplum_release_label


def build_config(result: SizingResult, naming: Naming | None = None) -> ConfigBundle:
    naming = naming or Naming()
    d = result.design
    bundle = ConfigBundle(result.scenario_name, d.kind)
    vsphere = d.deployment == "vsphere"
    if d.kind in GREENPLUM_KINDS:
        naming = for_release(naming, deploy_data("greenplum")["releases"][release(result)].get("names", {}))
        units = add_greenplum(bundle, result, naming)
        add_ansible(bundle, result, units, naming)
        add_linux(bundle, result, units[0].mounts if units else None, units[0].drives if units else 0,
                  instance_dirs(units[0], naming) if units else (), _coordinator_dir(result, units, naming))
        if vsphere:
            mode = cluster_setting(result, "greenplum-init", "mirror_mode")
            block = cluster_setting(result, "greenplum-init", "mirror_block_hosts")
            add_vsphere(bundle, result, greenplum_vms(result, units),
                        anti_affinity(units, str(mode.value) if mode else None, int(block.value) if block else None),
                        [])
    elif d.kind == "postgres-consolidation":
        add_postgres(bundle, result, naming)
        add_linux(bundle, result, None, 0)
        add_vsphere(bundle, result, postgres_vms(result, vm_names(result, naming), naming), [], [])
    elif d.kind == "sap-iq-multiplex":
        add_sap_iq(bundle, result, naming)
        add_linux(bundle, result, None, 0)
        if vsphere:
            add_vsphere(bundle, result, sap_iq_vms(result, naming), [], vsan_policies(result))
    bundle.files.insert(0, ConfigFile("README.txt", readme(bundle, result, naming) + "\n", False, "this index"))
    return bundle


def _coordinator_dir(result: SizingResult, units: list[SegmentUnit], naming: Naming
                     ) -> tuple[str, tuple[str, ...]]:
    """The coordinator's data directory and the hosts it is made on: the coordinator's and the standby's."""
    hosts = [coordinator_host(result, units, naming)]
    if result.design.coordinator_hosts > 1:
        hosts.append(naming.render("standby_coordinator_host"))
    return naming.render("coordinator_dir"), tuple(hosts)


def readme(bundle: ConfigBundle, result: SizingResult, naming: Naming) -> str:
    d = result.design
    lines = header("README.txt: the configuration refarch generated for this design", result.scenario_name)
    lines += [f"Scenario: {one_line(result.scenario_name)}", f"Kind: {d.kind} ({d.deployment})",
              f"Server: {d.server_id}   Hosts: {d.worker_hosts} worker + {d.coordinator_hosts}"
              f" {coordinator_word(result) if d.kind in GREENPLUM_KINDS else 'coordinator'}",
              *([f"Release: {greenplum_release_label(d.greenplum_version)} (settings, naming and OS files follow"
                 " its documentation)"] if d.greenplum_version else []),
              "", "Files:"]
    width = max(len(f.path) for f in bundle.files)
    lines += [f"  {one_line(f.path).ljust(width)}  {one_line(f.what)}" for f in bundle.files]
    problems = [f"  ! {one_line(role_label(w.title, d.greenplum_version))} [{w.code}]: {one_line(w.full_text)}"
                for w in result.warnings]
    if d.kind in GREENPLUM_KINDS:
        problem = mirror_mode_problem(result, segment_units(d, naming))
        if problem:
            problems.append(f"  ! mirror-mode: {one_line(problem)}")
    if problems:
        lines += ["", "Warnings of the design (read them before applying):", *problems]
    lines += ["", *comment("Values come from the design; every file states each value's reason and source.", "")]
    return "\n".join(lines)

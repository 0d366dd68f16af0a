"""SAP IQ: a start_iq parameter file per node and the multiplex (logical server policy) options."""

from __future__ import annotations

from app.export.config.bundle import ConfigBundle, comment, header
from app.export.config.design_values import fmt_value, setting_groups, switch_name
from app.export.config.naming import Naming, unique
from app.export.config.static_data import deploy_data
from app.export.config.vsphere import sap_iq_roles
from models.sizing.result import SizingResult
from models.sizing.settings import Setting

START_DOC = "SAP IQ 16 Utility Guide, start_iq server options"
MPX_DOC = "SAP IQ 16 Multiplex Guide, ALTER LS POLICY"


def node_names(result: SizingResult, naming: Naming) -> list[str]:
    return unique([naming.render("iq_node", n=n) for n in range(1, result.design.worker_hosts + 1)], "iq_node")


def switches_for(result: SizingResult, node: str, design_name: str) -> list[Setting]:
    """Switches for every node first, then those the design states for this node (by its design name)."""
    out: list[Setting] = []
    for g in setting_groups(result, "sap-iq-server"):
        if g.target in ("all nodes", node, design_name):
            out += [s for s in g.settings if switch_name(s) != "role"]
    return out


def role_of(result: SizingResult, node: str, design_name: str) -> Setting | None:
    for g in setting_groups(result, "sap-iq-server"):
        if g.target in (node, design_name):
            for s in g.settings:
                if switch_name(s) == "role":
                    return s
    return None


def params_file(result: SizingResult, node: str, n: int) -> str:
    lines = header(f"{node}.cfg: start_iq parameters of multiplex node {node} (start_iq @{node}.cfg DB.db)",
                   result.scenario_name)
    role = role_of(result, node, f"node{n}")
    roles = sap_iq_roles(result)
    if role is not None:
        lines += [*comment(f"Role: {fmt_value(role.value)}. {role.reason}", role.source)]
    elif n - 1 < len(roles):
        lines += comment(f"Role of this node in the multiplex: {roles[n - 1]} (the design's node layout).",
                         "003_4970b14b1c56345f.txt, SAP IQ (multiplex coordinator and query nodes)")
    lines += [*comment("Server name of this node in the multiplex.", START_DOC), f"-n {node}"]
    for s in switches_for(result, node, f"node{n}"):
        lines += [*comment(s.reason, s.source), f"-{switch_name(s)} {fmt_value(s.value)}"]
    return "\n".join(lines)


def dqp_mode_specified(result: SizingResult) -> bool:
    """The design's DQP mode came from the scenario, not the rule: it is not among the values the engine chose for
    fields left empty (`SizingResult.values_used`)."""
    return result.design.dqp_mode is not None and all(u.field != "workload.dqp_mode" for u in result.values_used)


def multiplex_sql(result: SizingResult) -> str:
    data = deploy_data("sap_iq")
    lines = header("multiplex_options.sql: logical server policy options (dbisql on the coordinator)",
                   result.scenario_name, "--")
    if result.design.dqp_mode in data["dqp_mode_options"]:
        e = data["dqp_mode_options"][result.design.dqp_mode]
        # the file says where the mode came from only when the scenario chose it (recommended: unchanged text)
        reason = e["reason"] + (" As specified in the scenario." if dqp_mode_specified(result) else "")
        lines += [*comment(reason, e["source"], "--"), f"ALTER LS POLICY root {e['name']}={e['value']};"]
    for e in data["multiplex_options"]:
        lines += [*comment(f"{e['reason']} SAP default {e['default']}.", e["source"], "--"),
                  f"ALTER LS POLICY root {e['name']}={e['value']};"]
    for g in setting_groups(result, "sap-iq-multiplex"):
        policy = "root" if g.target == "multiplex" else g.target
        for s in g.settings:
            lines += [*comment(s.reason, s.source, "--"),
                      f"ALTER LS POLICY {policy} {s.name.upper()}={fmt_value(s.value)};"]
    return "\n".join(lines)


def vsan_notes(result: SizingResult) -> str:
    data = deploy_data("sap_iq")
    lines = header("vsan-notes.txt: how the shared dbspace disks are created on vSAN", result.scenario_name)
    lines += comment(data["vsan_order"]["reason"], data["vsan_order"]["source"])
    lines += comment(data["multiwriter"]["reason"], data["multiwriter"]["source"])
    lines += comment("The storage policy itself is in vsphere/vms.json (storage_policies) and create-vms.ps1.",
                     "003_4970b14b1c56345f.txt, Storage Configuration (Table 2)")
    return "\n".join(lines)


def add_sap_iq(bundle: ConfigBundle, result: SizingResult, naming: Naming) -> list[str]:
    nodes = node_names(result, naming)
    for n, node in enumerate(nodes, start=1):
        bundle.add(f"sap-iq/{node}.cfg", params_file(result, node, n), f"start_iq parameters of node {node}")
    bundle.add("sap-iq/multiplex_options.sql", multiplex_sql(result), "multiplex logical server policy options")
    if result.design.deployment == "vsphere":
        bundle.add("sap-iq/vsan-notes.txt", vsan_notes(result), "vSAN disk creation order and multi-writer flag")
    return nodes

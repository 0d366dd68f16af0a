"""The design section of the report: roles and hosts, the per-host layout drawings
(sockets, NUMA nodes, VMs), drives and RAID, and the network, from `SizingResult.design`.
"""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, Spacer

from app.export.host_drawing import host_drawing
from app.export.pdf_blocks import Ctx
from app.formatting import gib, part_description, part_with_number
from app.views.design import design_rows, rows_of
from models.release_words import role_label
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.vocabulary import deployment_label, kind_label, raid_label


def _host_layouts(ctx: Ctx, r: SizingResult) -> list[Flowable]:
    st = ctx.styles
    d = r.design
    out: list[Flowable] = []
    layout_heading = ctx.heading("Host layout", 1)
    intro = ctx.p("One host of each role as deployed: sockets, their NUMA nodes and the VMs pinned to each node "
                  "(vCPU, memory, segments, data drives); a box across the whole host is the bare-metal OS or a "
                  "VM that is not pinned. Orange marks are the data drives.", st.muted)
    for n, h in enumerate(d.hosts):
        role = role_label(h.role, d.greenplum_version)
        caption = ctx.m(f"<b>{ctx.text(role[:1].upper() + role[1:])}</b> × {h.count}: "
                        f"{ctx.text(part_description(r, h.server_id))}", st.small)
        lead = [layout_heading, intro, Spacer(1, 4)] if n == 0 else []
        # the first drawing keeps the heading and intro with it, so a heading never ends a page alone
        drawing = host_drawing(h, d.deployment, ctx.width, ctx.fonts, part_description(r, h.drive_id))
        out.append(KeepTogether([*lead, caption, Spacer(1, 2), drawing, Spacer(1, 8)]))
    return out


def design_section(ctx: Ctx, r: SizingResult, s: Scenario) -> list[Flowable]:
    st = ctx.styles
    d = r.design
    out: list[Flowable] = [*ctx.section("Design")]
    out.append(ctx.p(f"Workload: {kind_label(d.kind)}. Platform: {deployment_label(d.deployment)}"
                     + (": the database runs on the operating system, without a hypervisor." if d.deployment
                        == "bare-metal" else "."), st.body))
    # room for the heading, its line and a few rows: the table then splits over pages (a heading kept with the
    # whole of a long table left a page blank but for the section's first line)
    out += [CondPageBreak(45 * mm), ctx.heading("Roles and hosts", 1)]
    per_host = len({h.bom_role for h in d.hosts}) < len(d.hosts)  # PostgreSQL: each host with its own VMs
    out.append(ctx.p("One row per host: the VMs each host runs differ (see the host layouts below)." if per_host
                     else "One row per role: every host of a role is configured the same.", st.body))
    w = ctx.width
    rows = []
    for h in d.hosts:
        vms = "–" if d.deployment == "bare-metal" else str(len(h.vms))
        rows.append([role_label(h.role, d.greenplum_version), str(h.count),
                     ctx.p(part_with_number(r, h.server_id), st.cell),
                     f"{h.sockets} × {h.numa_nodes_per_socket * h.cores_per_numa_node}",
                     gib(h.memory_gib), str(h.data_drives), raid_label(h.raid), vms])
    # "database host 1", "database host 2" are laid out one by one; the BOM prices them as "database host"
    laid_out = {h.bom_role for h in d.hosts}
    for role in dict.fromkeys(ln.role for ln in r.bom):
        if role in laid_out:
            continue
        # a role the engine prices but does not lay out (e.g. ETL hosts): what the BOM says about it
        lines = [ln for ln in r.bom if ln.role == role]
        server = next((ln for ln in lines if ln.kind == "server"), None)
        if server is None:
            continue  # network, racks, software, support: the BOM's own groups, not hosts
        drives = sum(ln.qty_per_host for ln in lines if ln.kind == "drive")
        rows.append([role_label(role, d.greenplum_version), str(lines[0].hosts),
                     ctx.p(server.description if server else "–", st.cell),
                     "–", "–", str(drives), "–", "–"])
    out.append(ctx.grid(["Role", "Hosts", "Server", "Sockets × cores", "Memory", "Data drives", "RAID", "VMs"],
                        rows, [w * 0.15, w * 0.07, w * 0.33, w * 0.11, w * 0.09, w * 0.08, w * 0.1, w * 0.07],
                        numeric=(1, 5)))
    facts = design_rows(r)
    out += [Spacer(1, 8), ctx.facts([(f.label, f.text) for f in rows_of(facts, "hosts")])]

    if d.hosts:
        out += _host_layouts(ctx, r)

    out.append(ctx.heading("Drives and RAID", 1))
    out.append(ctx.facts([(f.label, f.text) for f in rows_of(facts, "drives")]))
    out.append(ctx.heading("Network", 1))
    out.append(ctx.facts([(f.label, f.text) for f in rows_of(facts, "network")]))
    failure = rows_of(facts, "failure")
    if failure:  # PostgreSQL on vSphere: the worst single-host failure, simulated
        out.append(ctx.heading("Host failure", 1))
        out.append(ctx.facts([(f.label, f.text) for f in failure]))
    return out

"""The design section of the report: roles and hosts, the per-host layout drawings
(sockets, NUMA nodes, VMs), drives and RAID, and the network, from `SizingResult.design`.
"""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, Spacer

from app.export.host_drawing import host_drawing
from app.export.pdf_blocks import Ctx
from app.formatting import (
    dqp_mode,
    gib,
    no_data_drives,
    part_description,
    part_with_number,
    percent,
    shared_buffers,
    shared_buffers_differ,
    tb,
    vm_size,
    vm_sizes_differ,
)
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.vocabulary import deployment_label, greenplum_release_label, kind_label, raid_label


def _design_facts(r: SizingResult) -> list[tuple[str, str]]:
    d = r.design
    rows: list[tuple[str, str]] = []
    if d.greenplum_version is not None:
        rows.append(("Release", greenplum_release_label(d.greenplum_version)))
    if d.primary_segments_per_host is not None:
        rows.append(("Segments per host", f"{d.primary_segments_per_host} primary + "
                                          f"{d.mirror_segments_per_host or 0} mirror"))
    if d.gp_vmem_protect_limit_mb is not None:
        rows.append(("gp_vmem_protect_limit", f"{d.gp_vmem_protect_limit_mb:,} MB"))
    if d.vm is not None and d.vms_per_host > 1:
        rows.append(("VMs per host", f"{d.vms_per_host}, {vm_size(d)} (see the host layout)" if vm_sizes_differ(d)
                     else f"{d.vms_per_host} × ({vm_size(d)})"))
    if d.shared_buffers_ratio is not None:
        sb = f"{percent(d.shared_buffers_ratio)} of VM memory"
        if shared_buffers_differ(d):  # each database's VM sized apart: every VM's value, the first VM's ratio
            sb = f"{shared_buffers(d)} ({sb} on the first VM)"
        elif d.shared_buffers_gib is not None:
            sb += f" ({shared_buffers(d)})"
        rows.append(("shared_buffers", sb))
    if d.overcommit_rate is not None:
        rows.append(("Memory overcommit",
                     f"{percent(d.overcommit_rate)} (safe up to {percent(d.safe_overcommit_rate or 0)})"))
    if d.dqp_mode:
        rows.append(("DQP mode", dqp_mode(d.dqp_mode)))
    if d.iq_main_cache_gib is not None:
        rows.append(("IQ main cache", gib(d.iq_main_cache_gib)))
    if d.iq_temp_cache_gib is not None:
        rows.append(("IQ temp cache", gib(d.iq_temp_cache_gib)))
    return rows


def _host_layouts(ctx: Ctx, r: SizingResult) -> list[Flowable]:
    st = ctx.styles
    d = r.design
    out: list[Flowable] = []
    layout_heading = ctx.heading("Host layout", 1)
    intro = ctx.p("One host of each role as deployed: sockets, their NUMA nodes and the VMs pinned to each node "
                  "(vCPU, memory, segments, data drives); a box across the whole host is the bare-metal OS or a "
                  "VM that is not pinned. Orange marks are the data drives.", st.muted)
    for n, h in enumerate(d.hosts):
        caption = ctx.m(f"<b>{ctx.text(h.role[:1].upper() + h.role[1:])}</b> × {h.count}: "
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
        rows.append([h.role, str(h.count), ctx.p(part_with_number(r, h.server_id), st.cell),
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
        rows.append([role, str(lines[0].hosts), ctx.p(server.description if server else "–", st.cell),
                     "–", "–", str(drives), "–", "–"])
    out.append(ctx.grid(["Role", "Hosts", "Server", "Sockets × cores", "Memory", "Data drives", "RAID", "VMs"],
                        rows, [w * 0.15, w * 0.07, w * 0.33, w * 0.11, w * 0.09, w * 0.08, w * 0.1, w * 0.07],
                        numeric=(1, 5)))
    facts = _design_facts(r)
    if facts:
        out += [Spacer(1, 8), ctx.facts(facts)]

    if d.hosts:
        out += _host_layouts(ctx, r)

    out.append(ctx.heading("Drives and RAID", 1))
    drive_rows: list[tuple[str, str]] = [
        ("Data drive", part_with_number(r, d.drive_id) if d.drive_id else "none"),
        ("Data drives per host", no_data_drives(d) or f"{d.data_drives_per_host} ({raid_label(d.raid)})"),
    ]
    if d.raw_capacity_tb:
        drive_rows.append(("Raw capacity (worker hosts)", tb(d.raw_capacity_tb)))
    if d.usable_capacity_tb:
        drive_rows.append(("User data the cluster holds", f"{tb(d.usable_capacity_tb)} before compression"))
    if d.data_needed_tb:
        drive_rows.append(("Data on disk at the horizon", f"{tb(d.data_needed_tb)} after compression"))
    for h in d.hosts[1:]:
        if h.data_drives:
            drive_rows.append((f"{h.role[:1].upper() + h.role[1:]} drives",
                               f"{h.data_drives} × {part_with_number(r, h.drive_id)} ({raid_label(h.raid)})"))
    out.append(ctx.facts(drive_rows))

    out.append(ctx.heading("Network", 1))
    net_rows = [("NIC", part_with_number(r, d.nic_id) if d.nic_id else "none"),
                ("NICs per host", str(d.nics_per_host)),
                ("Bandwidth per host", f"{d.network_gbps_per_host:g} Gbit/s")]
    for h in d.hosts:
        net_rows.append((f"{h.role[:1].upper() + h.role[1:]} ports", f"{h.nic_ports} × {h.nic_speed_gbps:g} GbE"))
    out.append(ctx.facts(net_rows))
    return out

"""PDF appendix: the deployment configuration of each design (the values `refarch config` writes, and the files)."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether

from app.export.config.build import build_config
from app.export.config.bundle import ConfigFile
from app.export.config.design_values import fmt_value
from app.export.pdf_blocks import Cell, Ctx
from app.export.pdf_settings_matrix import COMPACT_FROM, compact_table
from models.references import readable
from models.release_words import role_label
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.sizing.settings import groups_for

WHERE = {
    "greenplum": "gpconfig",
    "greenplum-init": "gpinitsystem",
    "greenplum-not-set": "not set (gpconfig)",
    "greenplum-resource-group": "resource group",
    "postgresql": "postgresql.conf",
    "sap-iq-server": "start_iq",
    "sap-iq-multiplex": "LS policy",
    "vsan-policy": "vSAN policy",
    "linux-sysctl": "sysctl.conf",
    "linux-block": "block device",
}


def _settings_table(ctx: Ctx, r: SizingResult) -> list[Flowable]:
    st = ctx.styles
    rows: list[list[Cell]] = []
    last: tuple[str, str] | None = None
    many = [p for p in dict.fromkeys(g.product for g in r.design.settings)
            if sum(g.product == p for g in r.design.settings) >= COMPACT_FROM]
    out: list[Flowable] = []
    for product in many:  # a consolidation's VMs: rules once, values per VM (pdf_settings_matrix)
        out += compact_table(ctx, product, WHERE.get(product, product), groups_for(r.design.settings, product))
    for g in r.design.settings:
        if g.product in many:
            continue
        for s in g.settings:
            value = fmt_value(s.value) + (f" {s.unit}" if s.unit else "")
            same = last == (s.reason, s.source)
            last = (s.reason, s.source)
            why: list[Flowable] = [ctx.p("As the row above." if same else readable(s.reason, ctx.refs), st.cell_small)]
            if not same:
                why.append(ctx.m(f"<b>Source:</b> {ctx.cite(s.source)}", st.cell_small))
            target = role_label(g.target, r.design.greenplum_version)
            rows.append([ctx.p(f"{WHERE.get(g.product, g.product)} · {target}", st.cell),
                         ctx.p(s.name, st.cell_bold), ctx.p(value, st.cell_num), why])
    if not rows:
        return out or [ctx.p("The design sets no product parameters.", st.body)]
    w = ctx.width
    # the setting column holds the longest parameter name on one line (gp_resource_group_memory_limit):
    # a name broken mid-word reads as two settings
    return [*out, ctx.grid(["Where", "Setting", "Value", "Reason and source"], rows,
                           [w * 0.15, w * 0.33, w * 0.11, w * 0.41], numeric=(2,))]


def file_rows(files: Sequence[ConfigFile]) -> list[tuple[str, str]]:
    """The files of a configuration, those of one kind per VM (postgresql/<VM>.conf) on one row once there are
    many of them."""
    by_kind: dict[tuple[str, str], list[ConfigFile]] = {}
    for f in files:
        folder, _, name = f.path.rpartition("/")
        stem, dot, suffix = name.partition(".")
        by_kind.setdefault((folder, suffix if dot else name), []).append(f)
    rows: list[tuple[str, str]] = []
    for (folder, suffix), group in by_kind.items():
        if len(group) < COMPACT_FROM:
            rows += [(f.path, f.what) for f in group]
            continue
        stem = group[0].path.rpartition("/")[2].partition(".")[0]
        rows.append((f"{folder}/<VM>.{suffix}", f"{group[0].what.replace(stem, '<VM>')}: one for each of"
                                                 f" {len(group):,} VMs"))
    return rows


def config_appendix(ctx: Ctx, results: Sequence[SizingResult], scenarios: Sequence[Scenario]) -> list[Flowable]:
    st = ctx.styles
    out: list[Flowable] = [*ctx.section("Appendix: deployment configuration", 90 * mm)]
    how = " as refarch config (or File > Export > Configuration files) writes them" if ctx.edition.internal else \
        " in the configuration files that come with this design"
    out.append(ctx.p(
        f"The settings each design fixes,{how}: every file line carries its reason and source, with the same values "
        "as this report. Operating-system, BIOS and guest settings come from the studies' best practices and are "
        "listed in the files.", st.body))
    for r, s in zip(results, scenarios, strict=True):
        if len(results) > 1:
            out.append(ctx.heading(s.name, extra_depth=1))
        out += _settings_table(ctx, r)
        bundle = build_config(r)
        rows = [[ctx.p(path, st.cell), ctx.p(what, st.cell)] for path, what in file_rows(bundle.files)]
        # the caption goes with its table: never a page ending in "Files written for ..." alone
        out.append(KeepTogether([ctx.p(f"Files written for {s.name}:", st.body),
                                 ctx.grid(["File", "What it holds"], rows, [ctx.width * 0.38, ctx.width * 0.62])]))
    return out

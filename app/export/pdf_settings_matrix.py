"""The settings of many alike targets (a consolidation's VMs) in a few pages: each setting's rule once, then the
values per VM, VMs with the same values on one row.

A report listed every VM's settings in full, a page each: 1,102 pages for 1,000 databases. The per-VM detail
stays in the configuration files (`refarch config`, one file per VM); the report shows the rule and the values.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.platypus import Flowable, Spacer

from app.export.config.design_values import fmt_value
from app.export.fonts import string_width
from app.export.pdf_blocks import Cell, Ctx
from models.references import readable
from models.sizing.settings import Setting, SettingGroup

COMPACT_FROM = 12  # targets of one product from which the settings are shown as rules and a value table
MAX_VALUE_ROWS = 120  # distinct value rows shown; beyond, each varying setting's range
NAMES_SHOWN = 3
CELL_PADDING = 8.0  # points: the grid's left and right padding of a cell (4 + 4)


@dataclass(frozen=True)
class ValueRow:
    targets: tuple[str, ...]
    values: tuple[str, ...]


def _shown(s: Setting) -> str:
    return fmt_value(s.value) + (f" {s.unit}" if s.unit else "")


def split(groups: Sequence[SettingGroup]) -> tuple[list[str], list[str]]:
    """The setting names every target sets to one value, and those that vary, in design order."""
    names = list(dict.fromkeys(s.name for g in groups for s in g.settings))
    same: list[str] = []
    varying: list[str] = []
    for name in names:
        values = {_shown(s) if (s := g.get(name)) is not None else "–" for g in groups}
        (same if len(values) == 1 else varying).append(name)
    return same, varying


def value_rows(groups: Sequence[SettingGroup], varying: Sequence[str]) -> list[ValueRow]:
    """Targets with the same values of the varying settings, one row each, the most common first.

    >>> a = SettingGroup("postgresql", "vm-a", (Setting("work_mem", 4, "MB", "r", "s"),))
    >>> b = SettingGroup("postgresql", "vm-b", (Setting("work_mem", 8, "MB", "r", "s"),))
    >>> value_rows([a, b, a], ["work_mem"])
    [ValueRow(targets=('vm-a', 'vm-a'), values=('4 MB',)), ValueRow(targets=('vm-b',), values=('8 MB',))]
    """
    rows: dict[tuple[str, ...], list[str]] = {}
    for g in groups:
        key = tuple(_shown(s) if (s := g.get(n)) is not None else "–" for n in varying)
        rows.setdefault(key, []).append(g.target)
    ordered = sorted(rows.items(), key=lambda kv: -len(kv[1]))
    return [ValueRow(tuple(targets), values) for values, targets in ordered]


def _targets_text(targets: Sequence[str]) -> str:
    shown = ", ".join(targets[:NAMES_SHOWN])
    return f"{len(targets)} VMs: {shown}, …" if len(targets) > NAMES_SHOWN else shown


def _ranges(groups: Sequence[SettingGroup], varying: Sequence[str]) -> list[list[str]]:
    out = []
    for name in varying:
        settings = [s for g in groups if (s := g.get(name)) is not None]
        numbers = sorted(float(s.value) for s in settings if isinstance(s.value, int | float)
                         and not isinstance(s.value, bool))
        unit = settings[0].unit if settings else ""
        if numbers:
            low, mid, high = (fmt_value(v) for v in (numbers[0], statistics.median(numbers), numbers[-1]))
            out.append([name, f"{low} – {mid} – {high}{' ' + unit if unit else ''}"])
        else:
            out.append([name, ", ".join(sorted({_shown(s) for s in settings}))])
    return out


def compact_table(ctx: Ctx, product: str, where: str, groups: Sequence[SettingGroup]) -> list[Flowable]:
    """The rules of one product's settings, then its values per VM (or their ranges when too many differ)."""
    st, w = ctx.styles, ctx.width
    same, varying = split(groups)
    first = groups[0]
    rules: list[list[Cell]] = []
    for name in [*same, *varying]:
        s = next(x for g in groups if (x := g.get(name)) is not None)
        value = _shown(s) if name in same else "per VM, below"
        reason = readable(s.reason, ctx.refs) + ("" if name in same else f" (as set for {first.target})")
        why: list[Flowable] = [ctx.p(reason, st.cell_small),
                               ctx.m(f"<b>Source:</b> {ctx.cite(s.source)}", st.cell_small)]
        rules.append([ctx.p(name, st.cell_bold), ctx.p(value, st.cell_num), why])
    out: list[Flowable] = [
        ctx.p(f"{where} of {len(groups)} VMs: each setting's rule once; the values each VM gets follow, VMs with the"
              " same values on one row. Every VM's file, with the reason on each line, is in the configuration"
              " files.", st.body),
        ctx.grid(["Setting", "Value", "Rule and source"], rules, [w * 0.3, w * 0.15, w * 0.55], numeric=(1,))]
    if not varying:
        return out
    rows = value_rows(groups, varying)
    out.append(Spacer(1, 6))
    if len(rows) <= MAX_VALUE_ROWS:
        out += value_tables(ctx, groups, varying, rows)
    else:
        out.append(ctx.p(f"The {len(rows)} VMs' values differ too finely for a table: lowest – median – highest of"
                         " each; every VM's values are in its configuration file.", st.body))
        out.append(ctx.grid(["Setting", "Lowest – median – highest"], _ranges(groups, varying), [w * 0.3, w * 0.7]))
    return out


def unit_of(groups: Sequence[SettingGroup], name: str) -> str:
    """The unit every target's value of setting `name` carries ("" when they differ or have none): said once, in the
    column's header, rather than in every cell."""
    units = {s.unit for g in groups if (s := g.get(name)) is not None}
    return units.pop() if len(units) == 1 else ""


def header_lines(name: str, unit: str, width: float, font: str, size: float) -> list[str]:
    """A setting's name broken after its underscores into lines of at most `width` points (a part wider than that on
    a line of its own), then its unit in brackets: never inside a word.

    >>> header_lines("max_parallel_maintenance_workers", "", 60, "Helvetica-Bold", 7.5)
    ['max_parallel_', 'maintenance_', 'workers']
    >>> header_lines("shared_buffers", "MB", 200, "Helvetica-Bold", 7.5)
    ['shared_buffers', '(MB)']
    """
    lines: list[str] = []
    for part in re.findall(r"[^_]*_|[^_]+$", name):
        if lines and string_width(lines[-1] + part, font, size) <= width:
            lines[-1] += part
        else:
            lines.append(part)
    return lines + ([f"({unit})"] if unit else [])


def column_need(name: str, unit: str, values: Sequence[str], ctx: Ctx) -> float:
    """The narrowest width (points) a value column takes without breaking a value or a part of its header."""
    head, cell = ctx.styles.cell_head_num, ctx.styles.cell_num
    parts = [*re.findall(r"[^_]*_|[^_]+$", name), f"({unit})" if unit else ""]
    widest = max([string_width(p, head.fontName, head.fontSize, ctx.fonts) for p in parts]
                 + [string_width(v, cell.fontName, cell.fontSize, ctx.fonts) for v in values])
    return widest + CELL_PADDING + 1.0


def packed(needs: Sequence[float], room: float) -> list[list[int]]:
    """Consecutive columns in as few tables as fit `room` points each, in order (a column wider than the room alone).

    >>> packed([30, 40, 50, 20], 100), packed([120, 10], 100), packed([], 100)
    ([[0, 1], [2, 3]], [[0], [1]], [])
    """
    tables: list[list[int]] = []
    used = room
    for i, need in enumerate(needs):
        if tables and used + need <= room:
            tables[-1].append(i)
            used += need
        else:
            tables.append([i])
            used = need
    return tables


def value_tables(ctx: Ctx, groups: Sequence[SettingGroup], varying: Sequence[str],
                 rows: Sequence[ValueRow]) -> list[Flowable]:
    """The values of the varying settings per row of alike VMs, in as many tables side by side in the text as the
    page's width needs: each column as wide as its widest value and header part, the unit in the header."""
    st, w = ctx.styles, ctx.width
    first = w * 0.28
    units = [unit_of(groups, n) for n in varying]
    columns = [[v.removesuffix(f" {u}") if u else v for v in (r.values[i] for r in rows)]
               for i, u in enumerate(units)]
    needs = [column_need(n, u, c, ctx) for n, u, c in zip(varying, units, columns, strict=True)]
    tables = packed(needs, w - first)
    out: list[Flowable] = []
    for k, idx in enumerate(tables):
        spare = (w - first - sum(needs[i] for i in idx)) / len(idx)
        widths = [first] + [needs[i] + max(spare, 0.0) for i in idx]
        head = st.cell_head_num
        headers = [ctx.m("<br/>".join(ctx.text(line) for line in header_lines(
            varying[i], units[i], widths[j + 1] - CELL_PADDING, head.fontName, head.fontSize)), head)
            for j, i in enumerate(idx)]
        if k:
            out += [Spacer(1, 6), ctx.p(f"The same VMs ({k + 1} of {len(tables)}): their other settings.", st.small)]
        body = [[_targets_text(r.targets), *(columns[i][n] for i in idx)] for n, r in enumerate(rows)]
        out.append(ctx.grid(["VMs", *headers], body, widths, numeric=tuple(range(1, len(idx) + 1))))
    return out

"""The settings of many alike targets (a consolidation's VMs) in a few pages: each setting's rule once, then the
values per VM, VMs with the same values on one row.

A report listed every VM's settings in full, a page each: 1,102 pages for 1,000 databases. The per-VM detail
stays in the configuration files (`refarch config`, one file per VM); the report shows the rule and the values.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.platypus import Flowable, Spacer

from app.export.config.design_values import fmt_value
from app.export.pdf_blocks import Cell, Ctx
from models.references import readable
from models.sizing.settings import Setting, SettingGroup

COMPACT_FROM = 12  # targets of one product from which the settings are shown as rules and a value table
MAX_VALUE_ROWS = 120  # distinct value rows shown; beyond, each varying setting's range
NAMES_SHOWN = 3


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
        widths = [w * 0.28] + [w * 0.72 / len(varying)] * len(varying)
        headers = list(varying)
        out.append(ctx.grid(["VMs", *headers], [[_targets_text(r.targets), *r.values] for r in rows], widths,
                            numeric=tuple(range(1, len(varying) + 1))))
    else:
        out.append(ctx.p(f"The {len(rows)} VMs' values differ too finely for a table: lowest – median – highest of"
                         " each; every VM's values are in its configuration file.", st.body))
        out.append(ctx.grid(["Setting", "Lowest – median – highest"], _ranges(groups, varying), [w * 0.3, w * 0.7]))
    return out

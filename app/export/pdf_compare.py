"""The comparison section of a multi-scenario report: `models.whatif.compare` per workload kind as a table
(winner per row marked, P10-P90 ranges and deltas against the kind's first option), the
at-a-glance winners of each kind, and the side-by-side bar chart.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Spacer

from app.export.pdf_blocks import Ctx
from app.export.pdf_styles import GOOD, GOOD_FILL, MUTED
from app.views.compare import CompareRow, compare_rows_by_kind
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.vocabulary import deployment_label, kind_label
from models.whatif import CLEAR_DIFFERENCE_PCT, unranked

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
GROUP = 5  # options per table and chart: columns stay wide enough for a seven-figure price and a P10-P90 range


def option_groups(kinds: Sequence[str]) -> list[list[int]]:
    """The options compared together: those of one workload kind (in order of first appearance), at most
    `GROUP` a table. Options that run different workloads are never in one table: their deltas and bars
    would read as a ranking.

    >>> option_groups(["gp", "pg", "gp", "gp"])
    [[0, 2, 3], [1]]
    >>> [len(g) for g in option_groups(["gp"] * 13)]
    [5, 5, 3]
    """
    by_kind: dict[str, list[int]] = {}
    for i, k in enumerate(kinds):
        by_kind.setdefault(k, []).append(i)
    return [idx[start:start + GROUP] for idx in by_kind.values() for start in range(0, len(idx), GROUP)]


def group_title(group: Sequence[int], kind: str = "") -> str:
    """ "Options A–C" for consecutive letters, "Options A, C, D" otherwise; the workload kind first when given."""
    letters = [option_letter(i) for i in group]
    consecutive = list(group) == list(range(group[0], group[0] + len(group)))
    if len(group) == 1:
        names = f"Option {letters[0]}"
    elif consecutive:
        names = f"Options {letters[0]}–{letters[-1]}"
    else:
        names = "Options " + ", ".join(letters)
    return f"{kind_label(kind)}: {names}" if kind else names


def option_letter(i: int) -> str:
    return LETTERS[i] if i < len(LETTERS) else f"#{i + 1}"


def kind_rows(results: Sequence[SizingResult]) -> dict[str, tuple[list[int], list[CompareRow]]]:
    """Per workload kind: the options that run it and `compare` over just those (winners and deltas within the kind)."""
    return {k: (idx, rows) for k, idx, rows in compare_rows_by_kind(results)}


def comparison_section(ctx: Ctx, results: Sequence[SizingResult], scenarios: Sequence[Scenario],
                       charts: Sequence[Flowable | None]) -> list[Flowable]:
    """The comparison; `charts[g]` is the bar chart of `option_groups(kinds)[g]` (or None)."""
    st = ctx.styles
    per_kind = kind_rows(results)
    mixed = len(per_kind) > 1
    out: list[Flowable] = [ctx.heading("Options compared")]
    out.append(ctx.p("The options side by side, sized by the same engine against the same catalog. "
                     "✓ marks the best value of a row (lower cost, power and space; the better estimate) "
                     "only among options that run the same workload, and only when the difference is real: "
                     "estimates whose P10–P90 ranges do not overlap, or other values more than "
                     f"{CLEAR_DIFFERENCE_PCT:g} % apart. Ranges are P10–P90; deltas are against the first option "
                     + ("of the same workload: options that run different workloads are in separate tables and "
                        "are not ranked against each other." if mixed else "(A)."), st.body))
    w = ctx.width
    legend = [[option_letter(i), s.name, s.customer or "–",
               f"{kind_label(s.workload.kind)}, "
               f"{deployment_label(r.design.deployment)}"]
              for i, (r, s) in enumerate(zip(results, scenarios, strict=True))]
    out += [ctx.grid(["", "Option", "Customer", "Workload"], legend, [w * 0.06, w * 0.4, w * 0.22, w * 0.32]),
            Spacer(1, 8)]

    glance: list[str] = []
    for kind, (idx, rows) in per_kind.items():
        if len(idx) < 2:
            continue  # one option of its workload: nothing to rank it against
        among = f" among the {ctx.text(kind_label(kind))} options" if mixed else ""
        glance += _glance(ctx, results, idx, rows, among)
    if mixed and not glance:
        glance.append("Lowest capex: no clear winner (the options run different workloads)")
    if glance:
        out += [ctx.callout([ctx.m(g, st.warning) for g in glance], color=GOOD, fill=GOOD_FILL), Spacer(1, 8)]

    kinds = [r.design.kind for r in results]
    groups = option_groups(kinds)
    for g, group in enumerate(groups):
        kind = kinds[group[0]]
        idx, rows = per_kind[kind]
        if len(groups) > 1:
            out.append(ctx.m(f"<b>{ctx.text(group_title(group, kind if mixed else ''))}</b>", st.body))
        out.append(_table(ctx, rows, [idx.index(i) for i in group], group))
        out.append(Spacer(1, 8))
        chart = charts[g] if g < len(charts) else None
        if chart is not None:
            caption = "P50 values; whiskers span P10–P90; the best option's bar is green."
            if len(groups) > 1:
                caption = f"{group_title(group)}: {caption}"
            out += [Spacer(1, 2), ctx.figure(chart, caption)]
    for kind_idx, _ in per_kind.values():  # options shown but not ranked: sized for other work than the rest
        others = [kind_idx[i] for i in unranked([results[i] for i in kind_idx])] if len(kind_idx) > 1 else []
        if others:
            names = ", ".join(f"<b>{option_letter(i)}</b> ({ctx.text(results[i].scenario_name)})" for i in others)
            out.append(ctx.m("Not ranked: sized for other work (data, concurrency or targets) than the other options"
                             f" of its workload: {names}.", st.body))
    return out


def _glance(ctx: Ctx, results: Sequence[SizingResult], idx: list[int], rows: Sequence[CompareRow],
            among: str) -> list[str]:
    """The at-a-glance winners of one workload kind; `idx` maps a row's option index to the report's."""
    out: list[str] = []
    for key, label in (("capex", "Lowest capex"), ("power", "Lowest power"), ("rack space", "Least rack space")):
        row = next((x for x in rows if x.key == key), None)
        if row is None:
            continue
        if row.winner is not None:
            i = idx[row.winner]
            shown = f"{row.text(row.winner)} {row.unit}"
            out.append(f"{label}{among}: <b>{option_letter(i)}</b> "
                       f"({ctx.text(results[i].scenario_name)}, {ctx.text(shown)})")
        else:
            out.append(f"{label}{among}: no clear winner ({ctx.text(row.no_winner_reason)})")
    mains = {results[i].main_metric for i in idx}
    for row in rows:
        if row.key not in mains or sum(v is not None for v in row.values) < 2:
            continue  # an estimate only one option has is in its own section, not a contest
        if row.winner is not None:
            out.append(f"Best {ctx.text(row.label.lower())}{among}: <b>{option_letter(idx[row.winner])}</b> "
                       f"({ctx.text(row.text(row.winner))} {ctx.text(row.unit)} at P50)")
        else:
            out.append(f"Best {ctx.text(row.label.lower())}{among}: no clear winner "
                       f"({ctx.text(row.no_winner_reason)})")
    return out


def _table(ctx: Ctx, rows: Sequence[CompareRow], positions: Sequence[int], group: Sequence[int]) -> Flowable:
    """The rows of one group: `positions` index the rows' options, `group` the report's (for the letters)."""
    st = ctx.styles
    w = ctx.width
    metric_w = w * 0.3
    col_w = (w - metric_w) / max(len(group), 3)  # one or two options do not stretch across the page
    header = ["Metric"] + [option_letter(i) for i in group]
    small = ParagraphStyle("compare-range", parent=st.cell_num, fontSize=6.3, leading=7.6)
    muted = ParagraphStyle("compare-delta", parent=small, textColor=MUTED)
    body: list[list[object]] = []
    extra: list[tuple[object, ...]] = []
    for row in rows:
        if all(row.values[p] is None for p in positions):
            continue  # a metric of another workload: no option here has it
        j = len(body) + 1
        cells: list[object] = [ctx.m(f"{ctx.text(row.label)}" + (f" <font size=6.5>({ctx.text(row.unit)})</font>"
                                                                 if row.unit else ""), st.cell)]
        for col, p in enumerate(positions, start=1):
            mark = " ✓" if row.winner == p else ""
            # every figure on one line of its own: the font shrinks to fit the column, else its k / M form
            lines = [ctx.number_cell(row.text(p) + mark, col_w, row.text(p, short=True) + mark, bold=bool(mark))]
            for text, short, style in ((row.range_text(p), row.range_text(p, short=True), small),
                                       (row.delta_text(p), row.delta_text(p, short=True), muted)):
                if text:
                    lines.append(ctx.number_cell(text, col_w, short, style=style))
            cells.append(lines)
            if mark:
                extra.append(("BACKGROUND", (col, j), (col, j), GOOD_FILL))
        body.append(cells)
    extra.append(("NOSPLIT", (0, max(1, len(body) - 2)), (-1, len(body))))  # no lone row on the next page
    cols = len(group)
    return ctx.grid(header, body, [metric_w] + [col_w] * cols, numeric=tuple(range(1, cols + 1)), extra=extra,
                    zebra=False)

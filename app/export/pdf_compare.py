"""The comparison section of a multi-scenario report: `models.whatif.compare` as a table
(winner per row marked, P10-P90 ranges and deltas against the first option), the
at-a-glance winners, and the side-by-side bar chart.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.platypus import Flowable, Spacer

from app.export.pdf_blocks import Ctx
from app.export.pdf_money import compare_label
from app.export.pdf_styles import GOOD, GOOD_FILL
from app.formatting import is_fraction, money, number
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.vocabulary import deployment_label, kind_label
from models.whatif import CLEAR_DIFFERENCE_PCT, CompareRow, compare

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
GROUP = 5  # options per table and chart: columns stay wide enough for a seven-figure price and a P10-P90 range


def option_groups(n: int) -> list[range]:
    """Consecutive groups of at most `GROUP` options.

    >>> option_groups(13)
    [range(0, 5), range(5, 10), range(10, 13)]
    """
    return [range(start, min(start + GROUP, n)) for start in range(0, n, GROUP)]


def group_title(group: range) -> str:
    first, last = option_letter(group[0]), option_letter(group[-1])
    return f"Options {first}–{last}" if len(group) > 1 else f"Option {first}"


def option_letter(i: int) -> str:
    return LETTERS[i] if i < len(LETTERS) else f"#{i + 1}"


def _fmt(row: CompareRow, v: float | None) -> str:
    if v is None:
        return "–"
    if row.metric == "capex":
        return f"{v:,.2f}"
    if is_fraction(row.unit):
        return f"{number(v * 100)} %"
    return number(v)


def comparison_section(ctx: Ctx, results: Sequence[SizingResult], scenarios: Sequence[Scenario],
                       charts: Sequence[Flowable | None]) -> list[Flowable]:
    """The comparison; `charts[g]` is the bar chart of `option_groups(len(results))[g]` (or None)."""
    st = ctx.styles
    rows = compare(list(results))
    n = len(results)
    out: list[Flowable] = [ctx.heading("Options compared")]
    out.append(ctx.p("The options side by side, sized by the same engine against the same catalog. "
                     "✓ marks the best value of a row (lower cost, power and space; the better estimate) "
                     "only among options that run the same workload, and only when the difference is real: "
                     "estimates whose P10–P90 ranges do not overlap, or other values more than "
                     f"{CLEAR_DIFFERENCE_PCT:g} % apart. Ranges are P10–P90; deltas are against option A.", st.body))
    w = ctx.width
    legend = [[option_letter(i), s.name, s.customer or "–",
               f"{kind_label(s.workload.kind)}, "
               f"{deployment_label(r.design.deployment)}"]
              for i, (r, s) in enumerate(zip(results, scenarios, strict=True))]
    out += [ctx.grid(["", "Option", "Customer", "Workload"], legend, [w * 0.06, w * 0.4, w * 0.22, w * 0.32]),
            Spacer(1, 8)]

    glance = []
    for key, label in (("capex", "Lowest capex"), ("power", "Lowest power"), ("rack space", "Least rack space")):
        row = next((x for x in rows if x.metric == key), None)
        if row is None:
            continue
        verdict = row.verdict
        if verdict.winner is not None:
            v = row.values[verdict.winner]
            shown = money(v, row.unit) if key == "capex" else f"{_fmt(row, v)} {row.unit}"
            glance.append(f"{label}: <b>{option_letter(verdict.winner)}</b> "
                          f"({ctx.text(results[verdict.winner].scenario_name)}, {ctx.text(shown)})")
        else:
            glance.append(f"{label}: no clear winner ({ctx.text(verdict.reason)})")
    mains = {r.main_metric for r in results}
    for row in rows:
        if row.metric not in mains or sum(v is not None for v in row.values) < 2:
            continue  # an estimate only one option has is in its own section, not a contest
        label, unit = compare_label(row)
        verdict = row.verdict
        if verdict.winner is not None:
            glance.append(f"Best {ctx.text(label.lower())}: <b>{option_letter(verdict.winner)}</b> "
                          f"({ctx.text(_fmt(row, row.values[verdict.winner]))} {ctx.text(unit)} at P50)")
        else:
            glance.append(f"Best {ctx.text(label.lower())}: no clear winner ({ctx.text(verdict.reason)})")
    if glance:
        out += [ctx.callout([ctx.m(g, st.warning) for g in glance], color=GOOD, fill=GOOD_FILL), Spacer(1, 8)]

    groups = option_groups(n)
    for g, group in enumerate(groups):
        if len(groups) > 1:
            out.append(ctx.m(f"<b>{ctx.text(group_title(group))}</b>", st.body))
        out.append(_table(ctx, rows, group))
        out.append(Spacer(1, 8))
        chart = charts[g] if g < len(charts) else None
        if chart is not None:
            caption = "P50 values; whiskers span P10–P90; the best option's bar is green."
            if len(groups) > 1:
                caption = f"{group_title(group)}: {caption}"
            out += [Spacer(1, 2), ctx.figure(chart, caption)]
    return out


def _table(ctx: Ctx, rows: Sequence[CompareRow], group: range) -> Flowable:
    st = ctx.styles
    w = ctx.width
    metric_w = w * 0.3
    col_w = (w - metric_w) / max(len(group), 3)  # one or two options do not stretch across the page
    header = ["Metric"] + [option_letter(i) for i in group]
    body: list[list[object]] = []
    extra: list[tuple[object, ...]] = []
    for j, row in enumerate(rows, start=1):
        label, unit = compare_label(row)
        cells: list[object] = [ctx.m(f"{ctx.text(label)}" + (f" <font size=6.5>({ctx.text(unit)})</font>"
                                                             if unit else ""), st.cell)]
        deltas = row.deltas()
        for col, i in enumerate(group, start=1):
            v = row.values[i]
            mark = " ✓" if row.winner == i else ""
            text = f"<b>{ctx.text(_fmt(row, v))}{mark}</b>" if mark else ctx.text(_fmt(row, v))
            rng = row.ranges[i]
            if rng is not None and rng[0] != rng[1]:
                text += f"<br/><font size=6.3>{ctx.text(_fmt(row, rng[0]))}–{ctx.text(_fmt(row, rng[1]))}</font>"
            d = deltas[i]
            if i > 0 and d is not None and d != 0:
                sign = "+" if d > 0 else "−"
                text += f"<br/><font size=6.3 color='#616e7c'>{sign}{ctx.text(_fmt(row, abs(d)))}</font>"
            cells.append(ctx.m(text, st.cell_num))
            if mark:
                extra.append(("BACKGROUND", (col, j), (col, j), GOOD_FILL))
        body.append(cells)
    extra.append(("NOSPLIT", (0, max(1, len(body) - 2)), (-1, len(body))))  # no lone row on the next page
    cols = len(group)
    return ctx.grid(header, body, [metric_w] + [col_w] * cols, numeric=tuple(range(1, cols + 1)), extra=extra,
                    zebra=False)

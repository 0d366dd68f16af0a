"""The report's "Measured vs modelled" section: the customer's own measurements against the model's rates.

Present when the scenario names measurement profiles (`platform.measurements`); the rows come from
`app.views.calibration`, the same the CLI prints and the window shows.
"""

from __future__ import annotations

from reportlab.platypus import Flowable

from app.export.pdf_blocks import Cell, Ctx
from app.views.calibration import rows, summary
from models.sizing.result import SizingResult


def measurements_section(ctx: Ctx, r: SizingResult) -> list[Flowable]:
    cal = r.calibration
    if cal is None:
        return []
    st = ctx.styles
    out: list[Flowable] = [*ctx.section("Measured vs modelled")]
    out.append(ctx.p("The design is sized on the customer's own measurements (gpcheckperf, pgbench, HammerDB) in "
                     "place of the modelled rates where the model has them. Each resource below gives the model's "
                     f"rate for the first design, the measured one, and their ratio; within tolerance means within "
                     f"gpcheckperf's own rule ({cal['tolerance']['low']:g} x to {cal['tolerance']['high']:.2f} x).",
                     st.body))
    out.append(ctx.p(summary(cal), st.body))
    w = ctx.width
    table: list[list[Cell]] = [[x.resource, x.unit, x.modelled, x.measured, x.ratio, x.verdict,
              ctx.p(x.changes + (f" Slow hosts: {x.slow_hosts}." if x.slow_hosts else ""), st.cell_small)]
             for x in rows(cal)]
    out.append(ctx.grid(["Resource", "Unit", "Modelled", "Measured", "Ratio", "Verdict", "What it changes"], table,
                        [w * 0.12, w * 0.11, w * 0.1, w * 0.11, w * 0.08, w * 0.13, w * 0.35], numeric=(2, 3, 4)))
    notes = ([f"gpcheckperf calls these links no good: {', '.join(cal['no_good_links'])}; fix them before "
              "go-live (the design uses the median link)."] if cal["no_good_links"] else []) + list(cal["notes"])
    if notes:
        out.append(ctx.callout([ctx.p(n, st.warning) for n in notes]))
    return out

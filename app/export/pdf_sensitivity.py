"""The sensitivity section of the report: the tornado's rows (`app.views.sensitivity`), each input's whole-host ends
beside its ends on the continuous host count, or the statement that every end is a design of whole hosts."""

from __future__ import annotations

from reportlab.platypus import Flowable

from app.export.pdf_blocks import Cell, Ctx
from app.formatting import number
from app.views.sensitivity import SensitivityView


def sensitivity_section(ctx: Ctx, v: SensitivityView) -> list[Flowable]:
    st = ctx.styles
    delta = number(v.delta_pct)
    out: list[Flowable] = [*ctx.section("Sensitivity")]
    base = f"{v.base_main} {v.unit} on {v.base_hosts}" + (
        f" ({v.base_continuous} {v.unit} on {v.base_hosts_continuous} continuous)" if v.continuous else "")
    out.append(ctx.m(
        f"How capex and the main estimate ({ctx.text(v.metric_label)}, P50; this design {ctx.text(base)}) move when"
        f" each main input is {delta} % lower or higher, the rest as they are and the hardware the same. Each end"
        " is a whole design, sized again.", st.body))
    w = ctx.width
    if v.continuous:
        head = st.cell_head_num
        header = ["Input", f"Capex −{delta} %", f"Capex +{delta} %",
                  *(ctx.m(f"Whole hosts<br/>{sign}{delta} %", head) for sign in "−+"),
                  *(ctx.m(f"Continuous<br/>{sign}{delta} %", head) for sign in "−+"),
                  ctx.m("Hosts<br/>(continuous)", st.cell_head)]
        widths = [0.14, 0.13, 0.13, 0.085, 0.085, 0.12, 0.12, 0.19]
        rows: list[list[Cell]] = [[r.input + (" *" if r.host_rounding else ""), r.low_capex, r.high_capex,
                                   r.low_main, r.high_main, r.low_continuous, r.high_continuous,
                                   [ctx.p(r.hosts, st.cell), ctx.p(r.hosts_continuous, st.cell_small)]]
                                  for r in v.rows]
        numeric: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    else:
        header = ["Input", f"Capex −{delta} %", f"Capex +{delta} %", f"{v.unit} −{delta} %", f"{v.unit} +{delta} %",
                  "Hosts (low / base / high)"]
        widths = [0.2, 0.17, 0.17, 0.13, 0.13, 0.2]
        rows = [[r.input + (" *" if r.host_rounding else ""), r.low_capex, r.high_capex, r.low_main, r.high_main,
                 r.hosts] for r in v.rows]
        numeric = (1, 2, 3, 4)
    out.append(ctx.grid(header, rows, [w * x for x in widths], numeric=numeric))
    hosts = "hosts are low / base / high" + (", each end's continuous count below" if v.continuous else "")
    unit = f"The main estimate's columns are in {v.unit}; {hosts}." if v.unit else f"{hosts[0].upper()}{hosts[1:]}."
    for note in (unit, v.step_note, v.rounding_note):
        if note:
            out.append(ctx.p(note, st.muted))
    return out

"""What the DOCX report and the PPTX deck both show, as rows: the BOM by group with its totals, the options
compared per workload kind, a warning's heading, an option's name. Built from the rows the PDF renders
(`app.export.bom.BomTable`, `app.views.compare.CompareRow`); no figure is derived from printed text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from app.export.bom import GRAND, ONE_TIME, PER_YEAR, BomTable
from app.export.pdf_compare import option_letter
from app.export.report import default_title
from app.formatting import PRICE_WORDS, money_figure
from app.views.compare import compare_rows_by_kind
from models.scenario import Scenario
from models.sizing.result import SizingResult
from models.vocabulary import kind_label

TOTAL_LABELS = {ONE_TIME: "One-time total (capex)", PER_YEAR: "Per-year total (subscriptions and support)",
                GRAND: "BOM total, first year"}


@dataclass(frozen=True)
class BomGroupRow:
    """One group of the BOM (a host role, network, racks and power, licences, support) or one of its totals;
    `amount` in the table's currency, cents shown, "/yr" on a group whose every line recurs, "on quote" on a group
    none of whose lines has a price of its own yet."""

    label: str
    lines: str  # how many BOM lines the group holds ("7 (2 on quote)"); "" on a total
    amount: str
    total: bool = False


def bom_summary(table: BomTable) -> list[BomGroupRow]:
    """The BOM's groups in its order with their subtotals, then the one-time, per-year and first-year totals."""
    rows = []
    for sub in table.subtotals:
        lines = [ln for ln in table.lines if ln.group == sub.group]
        yearly = bool(lines) and all(ln.recurring for ln in lines)
        quoted = sum(ln.price_status == "on_quote" for ln in lines)
        count = str(len(lines)) + (f" ({quoted} on quote)" if quoted else "")
        amount = money_figure(sub.extended) + (" /yr" if yearly else "")
        if quoted and all(ln.price_status != "priced" for ln in lines):
            amount = PRICE_WORDS["on_quote"]  # nothing in the group has a price of its own yet: never "0.00"
        rows.append(BomGroupRow(sub.group[:1].upper() + sub.group[1:], count, amount))
    rows += [BomGroupRow(TOTAL_LABELS[label], "", money_figure(amount), total=True)
             for label, amount in ((ONE_TIME, table.one_time_total), (PER_YEAR, table.per_year_total),
                                   (GRAND, table.grand_total))]
    return rows


def option_name(i: int, s: Scenario) -> str:
    """"Option B: Gen5 on vSphere", as the PDF heads each scenario of a comparison."""
    return f"Option {option_letter(i)}: {s.name}"


def report_title(scenarios: Sequence[Scenario]) -> str:
    return default_title(scenarios)


@dataclass(frozen=True)
class CompareTable:
    """The options of one workload kind compared: the head (the measure, an option a column, "Best" when
    `verdict`) and the rows as printed."""

    kind: str  # the workload in words
    head: list[str]
    rows: list[list[str]]
    verdict: bool  # the last column names the best option (two options or more)
    # the rows with each figure in its short form (k / M, two significant digits) for columns too narrow for it,
    # and the options' letters (a narrow table heads its columns by letter and names the options above it)
    short_rows: list[list[str]] = field(default_factory=list)
    letters: list[str] = field(default_factory=list)

    @property
    def figure_columns(self) -> set[int]:
        return set(range(1, len(self.head) - (1 if self.verdict else 0)))


def compare_tables(results: Sequence[SizingResult], scenarios: Sequence[Scenario], *, rates: bool = True
                   ) -> list[CompareTable]:
    """Per workload kind: its label, the table's head (the measure, one column per option by letter and name,
    the best) and its rows, each figure as `CompareRow` writes it; the winner only among options of that kind, and
    no "Best" column for a kind only one option runs.
    `rates=False` leaves out the rate rows (per 1,000 of capex or TCO, per kW): the deck shows the totals."""
    out = []
    for kind, idx, all_rows in compare_rows_by_kind(results):
        rows = [row for row in all_rows if rates or row.per is None]
        names = [f"{option_letter(i)}" for i in idx]
        options = [f"{n}: {scenarios[i].name}" for n, i in zip(names, idx, strict=True)]
        short = [[row.heading, *(row.text(p, short=True) for p in range(len(idx)))] for row in rows]
        if len(idx) == 1:  # the only option of its workload: its figures, no "Best" to name
            out.append(CompareTable(kind_label(kind), ["", *options], [[row.heading, *row.texts] for row in rows],
                                    verdict=False, short_rows=short, letters=names))
            continue
        head = ["", *options, "Best"]
        verdicts = [row.verdict_text(names) if row.scored else "" for row in rows]
        body = [[row.heading, *row.texts, v] for row, v in zip(rows, verdicts, strict=True)]
        out.append(CompareTable(kind_label(kind), head, body, verdict=True,
                                short_rows=[[*s, v] for s, v in zip(short, verdicts, strict=True)], letters=names))
    return out

"""The bill of materials as procurement reads it: lines by group, subtotals, one-time, per-year and BOM totals.

One `BomTable` per sized scenario feeds the PDF table, the CSV and the XLSX, so the three
show the same lines and the same totals. Money is Decimal in the project currency: each
line is quantised to the cent the way the engine does it, so the one-time total equals
`totals.capex`, the per-year total `totals.recurring_per_year` and the grand total
`totals.bom_total` of `refarch size` to the cent. Each line says its list price, the
discount, where the price comes from (list, quote, estimate; currency and rate) and its date.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any, Literal

from app.export.atomic import atomic_write
from app.export.vm_settings_sheet import VmSettingsTable, sheet_name, write_sheet
from models.file_input import FORMULA_STARTS, spreadsheet_text
from models.release_words import role_label
from models.sizing.result import BomLine, PriceStatus, SizingResult

CENT = Decimal("0.01")
RowKind = Literal["line", "subtotal", "total"]

# Parts by name and vendor part number (what procurement orders by); refarch's own catalog id last.
COLUMNS = (
    "Row", "Role", "Description", "Part number", "Kind", "Qty per host", "Hosts", "Qty", "List unit price",
    "Discount %", "Unit price", "Extended price", "Currency", "Per year", "Price basis", "Quote", "Price status",
    "Catalog price", "Catalog currency", "Rate", "Price as of", "Note", "Catalog id",
)
# "Price status" keeps the unit price a number: priced, included (in the server's price) or on quote (0 until the
# vendor's quote prices it), so a spreadsheet's formulas still add up and a reader sees which 0 means what
STATUS_CELLS: dict[PriceStatus, str] = {"priced": "priced", "included": "included", "on_quote": "on quote"}
MONEY_COLUMNS = ("List unit price", "Unit price", "Extended price")
GROUP_TITLES = {"network": "Network", "rack": "Racks and power", "services": "Installation services",
                "software": "Software licences", "support": "Support"}


def extended(line: BomLine) -> Decimal:
    """A line's extended price in cents, rounded half up (as the engine's capex is)."""
    return (Decimal(str(line.unit_price)) * line.qty).quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class BomRow:
    kind: RowKind
    role: str
    extended: Decimal
    currency: str
    part_id: str = ""
    description: str = ""
    part_kind: str = ""
    qty_per_host: int | None = None
    hosts: int | None = None
    qty: int | None = None
    unit_price: Decimal | None = None
    price_as_of: str = ""
    list_unit_price: Decimal | None = None
    discount_pct: float | None = None
    recurring: bool = False
    price_basis: str = ""
    source_price: float | None = None
    source_currency: str = ""
    fx_rate: float | None = None
    note: str = ""
    label: str = ""  # for totals: which total
    group: str = ""  # the group heading the line sits under (a host role, or Network, Racks and power, ...)
    part_number: str = ""  # the vendor's SKU; "" when the catalog does not know it
    price_status: PriceStatus = "priced"  # included: in another line's price; on_quote: the quote prices it
    quote: str = ""  # price basis "quote": the vendor quote the price comes from (file and date)

    def cells(self) -> list[object]:
        """The row under COLUMNS, numbers as numbers (None for empty cells)."""
        label = {"line": "line", "subtotal": "subtotal", "total": self.label or "total"}[self.kind]
        per_year = ("yes" if self.recurring else "no") if self.kind == "line" else ""
        status = STATUS_CELLS[self.price_status] if self.kind == "line" else ""
        return [label, self.role, self.description, self.part_number, self.part_kind, self.qty_per_host,
                self.hosts, self.qty, self.list_unit_price, self.discount_pct, self.unit_price, self.extended,
                self.currency, per_year, self.price_basis, self.quote, status, self.source_price, self.source_currency,
                self.fx_rate, self.price_as_of, self.note, self.part_id]


@dataclass(frozen=True)
class BomTable:
    scenario: str
    customer: str
    currency: str
    price_date: str  # "2026-11-01", or "2025-06-01 to 2026-11-01" when the catalog prices differ in age
    rows: tuple[BomRow, ...]

    @property
    def lines(self) -> list[BomRow]:
        return [r for r in self.rows if r.kind == "line"]

    @property
    def subtotals(self) -> list[BomRow]:
        return [r for r in self.rows if r.kind == "subtotal"]

    @property
    def grand_total(self) -> Decimal:
        """The whole BOM (one-time lines plus one year of the per-year lines): `totals.bom_total`."""
        return [r.extended for r in self.rows if r.kind == "total"][-1]

    @property
    def one_time_total(self) -> Decimal:
        return next(r.extended for r in self.rows if r.kind == "total" and r.label == ONE_TIME)

    @property
    def per_year_total(self) -> Decimal:
        return next(r.extended for r in self.rows if r.kind == "total" and r.label == PER_YEAR)

    def header(self) -> list[tuple[str, str]]:
        return [("Scenario", self.scenario), ("Customer", self.customer), ("Currency", self.currency),
                ("Prices as of", self.price_date)]


def price_date(lines: Sequence[BomLine]) -> str:
    dates = sorted({ln.price_as_of for ln in lines if ln.price_as_of})
    if not dates:
        return "not stated"
    return dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"


ONE_TIME = "one-time total"
PER_YEAR = "per-year total"
GRAND = "BOM total (first year)"


def group_of(line: BomLine) -> str:
    """Hosts group by role (their parts stay together); the rest by category."""
    return line.role if line.category == "compute" else GROUP_TITLES.get(line.category, line.category)


def _money(v: float | None) -> Decimal | None:
    return None if v is None else Decimal(str(v)).quantize(CENT)


def _group_status(lines: list[BomLine]) -> PriceStatus:
    """A group's subtotal reads "on quote" where no line of it has a price of its own yet (an unpriced external SAN
    alone in its group), never 0.00; else it is the sum of its priced lines."""
    quoted = any(ln.price_status == "on_quote" for ln in lines)
    return "on_quote" if quoted and all(ln.price_status != "priced" for ln in lines) else "priced"


def bom_table(result: SizingResult, customer: str = "") -> BomTable:
    """The BOM of one result, grouped (host roles, then network, racks, software, support), with subtotals,
    the one-time total (capex), the per-year total and the BOM total."""
    currency = result.totals.currency
    v = result.design.greenplum_version  # Greenplum 6 prices a master host where 7 has a coordinator host
    groups: list[str] = []
    for ln in result.bom:
        if group_of(ln) not in groups:
            groups.append(group_of(ln))
    rows: list[BomRow] = []
    once = yearly = Decimal("0.00")
    for group in groups:
        sub = Decimal("0.00")
        for ln in (x for x in result.bom if group_of(x) == group):
            ext = extended(ln)
            sub += ext
            if ln.recurring:
                yearly += ext
            else:
                once += ext
            rows.append(BomRow(
                "line", role_label(ln.role, v), ext, ln.currency, ln.part_id, ln.description, ln.kind, ln.qty_per_host,
                ln.hosts,
                ln.qty, _money(ln.unit_price), ln.price_as_of,
                list_unit_price=_money(ln.list_unit_price if ln.list_unit_price is not None else ln.unit_price),
                discount_pct=ln.discount_pct, recurring=ln.recurring, price_basis=ln.price_basis,
                source_price=ln.source_unit_price if ln.source_unit_price is not None else ln.unit_price,
                source_currency=ln.source_currency or ln.currency, fx_rate=ln.fx_rate, note=ln.note,
                group=role_label(group, v),
                part_number=ln.part_number, price_status=ln.price_status, quote=ln.quote))
        rows.append(BomRow("subtotal", role_label(group, v), sub, currency, group=role_label(group, v),
                           price_status=_group_status([x for x in result.bom if group_of(x) == group])))
    rows.append(BomRow("total", "", once, currency, label=ONE_TIME))
    rows.append(BomRow("total", "", yearly, currency, label=PER_YEAR))
    rows.append(BomRow("total", "", once + yearly, currency, label=GRAND))
    return BomTable(result.scenario_name, customer, currency, price_date(result.bom), tuple(rows))


# --- CSV -------------------------------------------------------------------------------------------------

def _safe_text(s: str) -> str:
    """Text a spreadsheet will not run as a formula (a leading ' is how Excel and LibreOffice mark text)."""
    return spreadsheet_text(s)


def _csv_cell(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, Decimal):
        return f"{v:.2f}"
    if isinstance(v, int):
        return str(v)
    return _safe_text(str(v))


CSV_COLUMNS = ("Scenario", "Customer", *COLUMNS)


def bom_csv_text(tables: Sequence[BomTable]) -> str:
    """One flat table for every scenario: a header row, then a row per line, subtotal and total, each led by its
    scenario and customer, so a reseller's or a procurement system's import reads it as it is (no metadata
    blocks between tables). The "Row" column tells lines from subtotals and totals, so filtering on "line"
    gives the items to quote; the price date of each line is in "Price as of".

    Amounts are plain decimals with a dot and no thousands separator, so any spreadsheet reads them as numbers.
    """
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for t in tables:
        lead = [_safe_text(t.scenario), _safe_text(t.customer)]
        for r in t.rows:
            w.writerow(lead + [_csv_cell(c) for c in r.cells()])
    return buf.getvalue()


def write_bom_csv(tables: Sequence[BomTable], path: str | Path) -> None:
    # utf-8-sig: Excel opens "Łódź" and "東京" correctly only with the BOM mark
    data = bom_csv_text(tables).encode("utf-8-sig")
    with atomic_write(Path(path)) as tmp:
        tmp.write_bytes(data)


# --- XLSX ------------------------------------------------------------------------------------------------

_SHEET_BAD = re.compile(r"[\[\]:*?/\\\x00-\x1f\x7f]")  # Excel's forbidden characters, and control characters
SHEET_RESERVED = frozenset({"history"})  # Excel keeps "History" for change tracking


def sheet_title(name: str, taken: set[str]) -> str:
    """An Excel sheet name: 1 to 31 characters, none of []:*?/\\ or control characters, not starting or ending
    with an apostrophe, not "History", unique in the workbook (case-insensitively, as Excel compares).

    >>> sheet_title("'Q3: <b>DW</b> [draft]'", set()), sheet_title("History", set())
    ('Q3- <b>DW<-b> -draft-', 'History (sheet)')
    """
    base = _SHEET_BAD.sub("-", name).strip().strip("'").strip()[:31].strip().strip("'") or "Scenario"
    if base.lower() in SHEET_RESERVED:
        base = f"{base} (sheet)"
    title, n = base, 2
    while title.lower() in taken:
        suffix = f" ({n})"
        title = base[: 31 - len(suffix)].rstrip().rstrip("'") + suffix
        n += 1
    taken.add(title.lower())
    return title


def _text_cell(cell: Any) -> None:
    """A string cell that stays text: typed as a string, and marked with Excel's quote prefix when it starts like
    a formula, so re-typing it in Excel or saving it as CSV from there does not turn it into one."""
    cell.data_type = "s"
    if isinstance(cell.value, str) and cell.value.startswith(FORMULA_STARTS):
        cell.quotePrefix = True


def _col(name: str) -> str:
    from openpyxl.utils import get_column_letter

    return str(get_column_letter(COLUMNS.index(name) + 1))


def row_formulas(rows: Sequence[BomRow], first_row: int) -> dict[tuple[int, str], str]:
    """The live formulas of a BOM sheet whose rows start at `first_row`, by (row number, column name): a line's
    quantity is qty per host x hosts where both are stated, its extended price ROUND(qty x unit price, 2) (the
    engine rounds each line to the cent the same way), a subtotal the SUM of its group's lines, the one-time and
    per-year totals SUMIFS over the lines by the "Per year" column, and the BOM total their sum. Editing a
    quantity or a price in the spreadsheet then carries through to every total.

    >>> r = [BomRow("line", "Segment host", Decimal("20.00"), "USD", qty_per_host=2, hosts=5, qty=10,
    ...             unit_price=Decimal("2.00"), group="g"), BomRow("subtotal", "g", Decimal("20.00"), "USD", group="g"),
    ...      BomRow("total", "", Decimal("20.00"), "USD", label=ONE_TIME)]
    >>> f = row_formulas(r, 7)
    >>> f[(7, "Qty")], f[(7, "Extended price")], f[(8, "Extended price")]
    ('=F7*G7', '=ROUND(H7*K7,2)', '=SUM(L7:L7)')
    >>> f[(9, "Extended price")]
    '=SUMIFS(L7:L8,A7:A8,"line",N7:N8,"no")'
    """
    ext, qty, unit, kind, yearly = (_col(c) for c in ("Extended price", "Qty", "Unit price", "Row", "Per year"))
    per_host, hosts = _col("Qty per host"), _col("Hosts")
    # the totals sum the rows above them (the lines and subtotals); a range reaching a total row would be circular
    last = first_row + next((n for n, r in enumerate(rows) if r.kind == "total"), len(rows)) - 1
    out: dict[tuple[int, str], str] = {}
    group_start = first_row
    totals: dict[str, int] = {}
    for i, r in enumerate(rows, start=first_row):
        if r.kind == "line":
            if r.qty_per_host is not None and r.hosts is not None and r.qty == r.qty_per_host * r.hosts:
                out[(i, "Qty")] = f"={per_host}{i}*{hosts}{i}"
            if r.unit_price is not None and r.qty is not None:
                out[(i, "Extended price")] = f"=ROUND({qty}{i}*{unit}{i},2)"
        elif r.kind == "subtotal":
            out[(i, "Extended price")] = f"=SUM({ext}{group_start}:{ext}{i - 1})" if i > group_start else "=0"
            group_start = i + 1
        else:
            totals[r.label] = i
            if r.label in (ONE_TIME, PER_YEAR):
                flag = "no" if r.label == ONE_TIME else "yes"
                span = f"{first_row}:{{c}}{last}"
                out[(i, "Extended price")] = (
                    f'=SUMIFS({ext}{span.format(c=ext)},{kind}{span.format(c=kind)},"line",'
                    f'{yearly}{span.format(c=yearly)},"{flag}")')
            elif ONE_TIME in totals and PER_YEAR in totals:
                out[(i, "Extended price")] = f"={ext}{totals[ONE_TIME]}+{ext}{totals[PER_YEAR]}"
    return out


def write_bom_xlsx(tables: Sequence[BomTable], path: str | Path,
                   vm_tables: Sequence[VmSettingsTable | None] = ()) -> None:
    """One sheet per scenario, numbers as numbers with a currency format, subtotal and total rows in bold, and live
    formulas for quantities, extended prices, subtotals and totals (`row_formulas`). `vm_tables`, one per table (None
    for a design without PostgreSQL VMs): a sheet after the scenario's BOM with each VM's databases and settings."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter

    wb = Workbook()
    wb.remove(wb.active)
    taken: set[str] = set()
    bold = Font(bold=True)
    head_fill = PatternFill("solid", fgColor="1F2933")
    sub_fill = PatternFill("solid", fgColor="EEF2F6")
    total_fill = PatternFill("solid", fgColor="D0E2FF")
    widths = (12, 18, 60, 22, 8, 13, 8, 8, 16, 10, 16, 18, 10, 9, 11, 24, 12, 14, 10, 10, 12, 40, 30)
    for k, t in enumerate(tables):
        ws = wb.create_sheet(sheet_title(t.scenario, taken))
        for i, (key, val) in enumerate(t.header(), start=1):
            ws.cell(i, 1, key).font = bold
            cell = ws.cell(i, 2, val)
            _text_cell(cell)  # a name starting with "=" stays text, never a formula
        head_row = len(t.header()) + 2
        for j, col in enumerate(COLUMNS, start=1):
            c = ws.cell(head_row, j, col)
            c.font = Font(bold=True, color="FFFFFF")
            c.fill = head_fill
            c.alignment = Alignment(horizontal="right" if 6 <= j <= 12 else "left")
        money_fmt = f'#,##0.00 "{t.currency}"' if t.currency.isalpha() else "#,##0.00"
        formulas = row_formulas(t.rows, head_row + 1)
        for i, r in enumerate(t.rows, start=head_row + 1):
            for j, v in enumerate(r.cells(), start=1):
                formula = formulas.get((i, COLUMNS[j - 1]))
                cell = ws.cell(i, j, formula if formula is not None else v)
                if isinstance(v, str) and formula is None:
                    _text_cell(cell)
                if COLUMNS[j - 1] in MONEY_COLUMNS and (v is not None or formula is not None):
                    cell.number_format = money_fmt
                if r.kind != "line":
                    cell.font = bold
                    cell.fill = total_fill if r.kind == "total" else sub_fill
        for j, wdt in enumerate(widths, start=1):
            ws.column_dimensions[get_column_letter(j)].width = wdt
        ws.freeze_panes = ws.cell(head_row + 1, 1)
        vms = vm_tables[k] if k < len(vm_tables) else None
        if vms is not None:
            write_sheet(wb.create_sheet(sheet_title(sheet_name(vms.scenario), taken)), vms, _text_cell)
    with atomic_write(Path(path)) as tmp:
        wb.save(tmp)

"""The tornado (`models.whatif.sensitivity`) as rows every renderer shows alike (the window's Sensitivity tab,
`refarch sensitivity`, the PDF's sensitivity section): each input's capex and main estimate at -delta and +delta,
each end a whole design, beside the main estimate on each end's continuous host count (`models.sizing.continuous`),
or, for a kind that has none, the statement that every end is a design of whole hosts (nodes, VMs). Which the row
is, is the bar's `rounding` (a field, never a string a renderer reads); this module words and formats it, and no
renderer formats a number of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.formatting import DASH, fractional_count, money, number, unit_text
from models.sizing.result import SizingResult
from models.vocabulary import KINDS, METRICS, metric_label

if TYPE_CHECKING:
    from models.whatif import Rounding, SensitivityBar


@dataclass(frozen=True)
class SensitivityRow:
    """One input's bar as printed: the whole-host ends (capex, main estimate P50, worker hosts) and, where the kind
    has a continuous count, the main estimate and the count on it (else DASH, with `rounding` "whole")."""

    input: str
    low_capex: str
    high_capex: str
    capex_swing: str
    low_main: str
    high_main: str
    low_continuous: str
    high_continuous: str
    hosts: str  # "low / base / high", whole
    hosts_continuous: str  # "low / base / high" continuous counts, DASH for a kind without one
    rounding: Rounding
    host_rounding: bool  # both whole-host ends moved the same way: the host step, not the input, decides the bar
    swing: float  # the capex swing, for a chart's scale


@dataclass(frozen=True)
class SensitivityView:
    """The tornado of one design: its rows (largest capex swing first) and what a reader needs beside them."""

    metric: str  # the main estimate's name in `SizingResult.estimates`
    metric_label: str  # "Full-scan time"
    unit: str  # as printed ("s", "TPS")
    delta_pct: float
    base_main: str  # the design's main estimate P50
    base_continuous: str  # the design's main estimate on its continuous count, DASH for a kind without one
    base_hosts: str
    base_hosts_continuous: str
    rows: tuple[SensitivityRow, ...]
    continuous: bool  # the rows carry continuous values
    rounding_note: str  # how the ends round: on what the continuous columns are, or that every end is whole
    step_note: str  # what the host-rounding mark means ("" when no row carries it)


def rounding_note(kind: str, rounding: Rounding) -> str:
    """The statement of how the tornado's ends round, for a design of `kind`.

    >>> rounding_note("sap-iq-multiplex", "whole")[:44]
    'IQ nodes are whole: every end is a design of'
    """
    workers = KINDS[kind].worker_roles if kind in KINDS else "worker hosts"
    if rounding == "whole":
        return (f"{workers[0].upper()}{workers[1:]} are whole: every end is a design of whole {workers}, and refarch"
                f" has no continuous count for this design, so a step of one in {workers} (not the input) can decide"
                " a bar's main estimate.")
    return (f"Continuous: the main estimate P50 on the fractional number of {workers} each end's rules need (its"
            " data, or a performance target met exactly at the scenario's confidence), which takes out the"
            f" step of whole {workers}; where another whole-host rule (the mirroring policy's fewest hosts) set the"
            " count, it is the design's own.")


def sensitivity_view(result: SizingResult, bars: Sequence[SensitivityBar], delta_pct: float) -> SensitivityView:
    """The rows of `bars` (from `models.whatif.sensitivity` on `result`'s scenario) as every renderer shows them."""
    cur, main = result.totals.currency, result.main_metric
    unit = unit_text(METRICS[main].unit) if main in METRICS else ""
    rows = tuple(SensitivityRow(
        b.input, money(b.low_capex, cur, cents=False), money(b.high_capex, cur, cents=False),
        money(b.swing, cur, cents=False), number(b.low_main), number(b.high_main), _maybe(b.low_main_continuous),
        _maybe(b.high_main_continuous), f"{b.low_hosts} / {b.base_hosts} / {b.high_hosts}",
        DASH if b.rounding == "whole" else " / ".join(fractional_count(h) for h in (b.low_hosts_continuous,
                                                                          b.base_hosts_continuous,
                                                                          b.high_hosts_continuous)),
        b.rounding, b.host_rounding, b.swing) for b in bars)
    first = bars[0] if bars else None
    continuous = first is not None and first.rounding == "continuous"
    workers = KINDS[result.design.kind].worker_roles if result.design.kind in KINDS else "worker hosts"
    step = (f"* whole {workers} decide this bar: both ends move the main estimate the same way from the base because"
            f" the count steps ({workers}: low / base / high)") if any(r.host_rounding for r in rows) else ""
    return SensitivityView(
        main, metric_label(main), unit, delta_pct, number(first.base_main) if first else DASH,
        _maybe(first.base_main_continuous) if first else DASH, str(result.design.worker_hosts),
        fractional_count(first.base_hosts_continuous) if first else DASH, rows, continuous,
        rounding_note(result.design.kind, "continuous" if continuous else "whole"), step)


def _maybe(v: float | None) -> str:
    return DASH if v is None else number(v)

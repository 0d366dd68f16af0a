"""How a share reads in every text refarch writes, ISO 80000 style: the number, a space, then "%" ("45 %").

One rule for the whole product: the models' rationale, settings notes and warnings print shares with it,
and `app.formatting.percent` (the window, the PDF, the CLI) is the same function.
"""

from __future__ import annotations


def percent(fraction: float, decimals: int = 0, *, sign: bool = False) -> str:
    """A fraction as a percentage; `sign` writes "+" before a gain.

    >>> percent(0.45), percent(0.121, 1, sign=True), percent(-0.02, 1, sign=True), percent(1.5)
    ('45 %', '+12.1 %', '-2.0 %', '150 %')
    """
    return f"{fraction * 100:{'+' if sign else ''},.{decimals}f} %"


def percent_range(low: float, high: float, decimals: int = 0) -> str:
    """Two fractions as one range with the sign written once.

    >>> percent_range(0.45, 0.55)
    '45-55 %'
    """
    return f"{low * 100:,.{decimals}f}-{percent(high, decimals)}"

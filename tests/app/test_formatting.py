"""The one number-formatting module every renderer (GUI, PDF, CLI) uses."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from app import formatting
from app.formatting import converted_from, line_amount, money, money_figure


def test_number_uses_significant_digits_and_separators_never_scientific() -> None:
    assert formatting.number(1234567) == "1,234,567"
    assert formatting.number(12.345) == "12.3"
    assert formatting.number(0.000123) == "0.000123"
    assert formatting.number(float("nan")) == formatting.DASH


def test_fractions_print_as_percent() -> None:
    assert formatting.value(0.25, "fraction") == "25 %"


def test_rack_power_is_not_rounded_into_an_overrun() -> None:
    # the draw is kept unrounded in the result; only the text rounds, both sides alike
    assert formatting.rack_power(13.6953, 13.6953125) == "13.7 kW peak of 13.7 kW"
    assert formatting.rack_power(9.87654, 12.0) == "9.88 kW peak of 12 kW"


def test_a_part_number_is_printed_once_for_every_seed_part() -> None:
    """The design and BOM text name a part and its vendor number once, even when the catalog model names it
    ("ConnectX-5 EN 2x100GbE QSFP28 (MCX516A-CCAT)" read "... (MCX516A-CCAT) 2x 100 GbE (P/N MCX516A-CCAT)")."""
    from types import SimpleNamespace

    from catalog.seed import seed_parts
    from models.hardware import Cpu, PartBase
    from models.sizing.bom import line

    parts = [p for p in seed_parts() if not isinstance(p, Cpu)]
    assert any(p.part_number for p in parts)
    for part in parts:
        assert isinstance(part, PartBase)
        bom_line = line("role", part, 1, 1, "hardware")
        r = SimpleNamespace(bom=[bom_line])
        text = formatting.part_with_number(r, part.id)  # type: ignore[arg-type]
        if part.part_number:
            assert text.lower().count(part.part_number.lower()) == 1, text
        assert part.model in text
    # a catalog row the user typed with the number in its model (the seed's old NIC rows did) still reads once
    named = SimpleNamespace(bom=[SimpleNamespace(part_id="x", description="NVIDIA ConnectX-5 (MCX516A-CCAT)",
                                                 part_number="MCX516A-CCAT")])
    assert formatting.part_with_number(named, "x") == "NVIDIA ConnectX-5 (MCX516A-CCAT)"  # type: ignore[arg-type]


@given(st.decimals(min_value=-10**9, max_value=10**9, places=2, allow_nan=False, allow_infinity=False),
       st.booleans())
def test_a_bom_line_price_reads_as_every_money_column(amount: Decimal, recurring: bool) -> None:
    text = line_amount(amount, recurring)
    assert text.removesuffix(" /yr") == money_figure(amount) and text.endswith(" /yr") == recurring
    assert converted_from(amount, "EUR", 1.08) == f"{money(amount, 'EUR')} at 1.08"


def test_renderers_write_no_money_format_of_their_own() -> None:
    # a price printed with its own format string drifts from the BOM's (cents, separators, the currency)
    app = Path(__file__).resolve().parents[2] / "app"
    own = [f"{p.relative_to(app)}:{n}" for p in app.rglob("*.py") if p.name != "formatting.py"
           for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if re.search(r":,\.2f\}", line)]
    assert not own, own


def test_cli_commands_print_figures_through_app_formatting() -> None:
    # a ':g' or ':.6g' of a command's own prints '1e+06' where the rest of the product prints 1,000,000
    cli = Path(__file__).resolve().parents[2] / "app" / "cli"
    own = [f"{p.relative_to(cli)}:{n}" for p in cli.rglob("*.py")
           for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if re.search(r":\.?\d*g\}", line)]
    assert not own, own


def test_the_formatting_rules_hold_their_worked_examples() -> None:
    import doctest

    outcome = doctest.testmod(formatting)
    assert outcome.attempted > 0 and outcome.failed == 0


def test_the_window_and_the_report_print_a_part_number_once_even_when_an_older_catalog_names_it() -> None:
    """Catalogs seeded before the seed models lost their '(P/N)' suffix keep names like 'ConnectX-5 (MCX516A-CCAT)':
    the window's design facts printed the number twice, as the report did before it shared this rule."""
    from app.views import design  # the design facts the window, the CLI and the report all render

    assert design.part_with_number is formatting.part_with_number
    assert formatting.with_part_number("ConnectX-5 EN (MCX516A-CCAT)", "MCX516A-CCAT").count("MCX516A-CCAT") == 1

"""The one number-formatting module every renderer (GUI, PDF, CLI) uses."""

from __future__ import annotations

from app import formatting


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

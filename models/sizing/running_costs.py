"""Rack space and operations in the cost of ownership: what one rack and one host cost a year to keep.

The scenario's `commercial.rack_cost_per_year` and `commercial.host_operations_per_year` (project currency; 0 counts
nothing) when it sets them; else the defaults of `resources/calibration/tco_defaults.json`, converted from USD at
the catalog's rate: a rack's power budget (`commercial.rack_power_kw`) leased at a published colocation rate per kW
and month, and an administrator's mean wage over the servers one administrator runs. Both defaults are estimates
with their sources stated; a customer's own figures replace them.
"""

from __future__ import annotations

from models.calibration_data import figure, point
from models.money import ExchangeRates, MissingRateError, cents
from models.scenario import Scenario

DATASET = "tco_defaults"
MONTHS = 12


def _in_project_currency(usd: float, scenario: Scenario, rates: ExchangeRates) -> float:
    try:
        return cents(usd * rates.rate("USD", scenario.commercial.currency))
    except MissingRateError:  # the design's prices cannot be converted either: the sizing says so
        return 0.0


def rack_cost_per_year(scenario: Scenario, rates: ExchangeRates) -> float:
    """One rack's space a year in the project currency.

    >>> from models.money import ExchangeRates
    >>> from models.scenario import Scenario
    >>> s = Scenario.model_validate({"name": "x", "workload": {"kind": "sap-iq-multiplex", "data_tb": 10,
    ...                              "query_streams": 4}, "platform": {"deployment": "bare-metal"}})
    >>> rack_cost_per_year(s, ExchangeRates(()))  # 10 kW x 163.44 USD per kW-month x 12
    19612.8
    """
    given = scenario.commercial.rack_cost_per_year
    if given is not None:
        return given
    usd = scenario.commercial.rack_power_kw * figure(DATASET, "colocation_usd_per_kw_month") * MONTHS
    return _in_project_currency(usd, scenario, rates)


def host_cost_per_year(scenario: Scenario, rates: ExchangeRates) -> float:
    """One host's operations a year in the project currency."""
    given = scenario.commercial.host_operations_per_year
    if given is not None:
        return given
    return _in_project_currency(figure(DATASET, "host_operations_usd_per_year"), scenario, rates)


def sources() -> tuple[str, str]:
    """The references of the rack-space and the operations defaults."""
    return (point(DATASET, "colocation_usd_per_kw_month").source.cite(),
            point(DATASET, "host_operations_usd_per_year").source.cite())

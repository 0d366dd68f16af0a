"""A project currency the rate table lacks is named as such: every part priced in another currency is left out, which
read as an empty catalog."""

from __future__ import annotations

import pytest

from models.hardware import HardwareCatalog
from models.sizing.engine import size
from models.sizing.parts import SizingInputError
from tests.models.sizing.conftest import sample


@pytest.mark.parametrize("name", ["gp-oltp", "pg-consolidation", "sap-iq"])
def test_a_project_currency_without_a_rate_is_named_not_read_as_an_empty_catalog(catalog: HardwareCatalog,
                                                                                 name: str) -> None:
    # every part priced in USD was left out, and the engine said "no server in the catalog" (IQ), "no servers or no
    # drives" (Greenplum) or "no server and drive ... hold the database VMs" (PostgreSQL)
    scenario = sample(name)
    in_nok = scenario.model_copy(update={"commercial": scenario.commercial.model_copy(update={"currency": "NOK"})})
    with pytest.raises(SizingInputError) as err:
        size(in_nok, catalog)
    [problem] = err.value.problems
    assert problem.path == "commercial.currency" and "no exchange rate for NOK" in problem.message
    assert all(c in problem.message for c in catalog.rates.currencies) and "rates set NOK" in problem.message
    in_sek = scenario.model_copy(update={"commercial": scenario.commercial.model_copy(update={"currency": "SEK"})})
    assert size(in_sek, catalog).totals.currency == "SEK"  # a currency the table has sizes as before


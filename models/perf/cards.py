"""Every performance model's card, listed explicitly: the one place a new model's card is added.

`refarch calibrate`, the GUI and the PDF appendix read `all_cards()`; a card that takes a
`catalog` argument validates against catalog prices (see `models.model_card.build`).
"""

from __future__ import annotations

from models.hardware import HardwareCatalog
from models.model_card import CardFactory, ModelCard, build
from models.perf import (
    cost_power,
    gp_oltp,
    gp_oltp_study,
    memory,
    pg_tps,
    sap_iq_card,
    scan_load_cards,
    usl_calibration,
)
from models.perf.usl_calibration import CALIBRATED_WORKLOADS, Workload, curve_words


def _usl_factory(workload: Workload) -> CardFactory:
    def factory() -> ModelCard:
        return usl_calibration.usl_card(workload)

    # One name per curve, so `refarch calibrate` can say which card failed.
    factory.__name__ = factory.__qualname__ = f"usl_card_{workload.replace('-', '_')}"
    factory.__module__ = usl_calibration.__name__
    return factory


CARD_FACTORIES: tuple[CardFactory, ...] = (
    scan_load_cards.scan_load_card,
    scan_load_cards.dw_throughput_card,
    *(_usl_factory(w) for w in CALIBRATED_WORKLOADS if w != "gp6-select"),
    gp_oltp.gp6_select_card,
    gp_oltp_study.study_004_card,
    memory.shared_buffers_card,
    memory.working_sets_card,
    memory.overcommit_card,
    pg_tps.card,
    sap_iq_card.card,
    cost_power.cost_power_card,
)


def all_cards(catalog: HardwareCatalog | None = None) -> list[ModelCard]:
    """Every card, sorted by name."""
    return sorted((build(f, catalog) for f in CARD_FACTORIES), key=lambda c: c.name)


# Each card in a reader's words: a customer's document names a model by its title, never by its id.
TITLES: dict[str, str] = {
    "gp-cost-power": "Power and energy of the hosts",
    "gp-dw-throughput": "Greenplum analytics: report queries per hour",
    "gp-scan-load-roofline": "Greenplum full-scan time and load rate",
    "gp6-oltp-through-size": "Greenplum 6 OLTP: sized throughput against the study's clusters",
    "pg-memory-overcommit": "PostgreSQL on vSphere: memory overcommitment",
    "pg-shared-buffers": "PostgreSQL: throughput against shared_buffers",
    "pg-tps": "PostgreSQL: transactions per second of a database VM",
    "pg-working-sets": "PostgreSQL: working sets against clients",
    "sap-iq-dqp": "SAP IQ multiplex: TPC-H power and throughput",
    **{f"usl-{w}": f"Scalability curve, {curve_words(w)}" for w in CALIBRATED_WORKLOADS},
}

# The cards whose models estimate a workload kind's figures ("{mix}": the Greenplum OLTP mix the design runs);
# every kind's power and energy come from the cost and power model.
_USED_BY_KIND: dict[str, tuple[str, ...]] = {
    "greenplum-analytics": ("gp-scan-load-roofline", "gp-dw-throughput"),
    "greenplum-oltp": ("usl-gp6-{mix}", "gp6-oltp-through-size"),
    "postgres-consolidation": ("pg-memory-overcommit", "pg-shared-buffers", "pg-working-sets", "pg-tps",
                               "usl-pg92-select"),
    "sap-iq-multiplex": ("sap-iq-dqp",),
}


def title(card: ModelCard) -> str:
    """The card's model in a reader's words (its name where no title is declared)."""
    return TITLES.get(card.name, card.name)


def used_by(kind: str, mix: str | None = None) -> tuple[str, ...]:
    """The names of the cards whose models a design of workload `kind` (an OLTP design of `mix`) is estimated with.

    >>> used_by("greenplum-oltp", "update")
    ('usl-gp6-update', 'gp6-oltp-through-size', 'gp-cost-power')
    >>> "sap-iq-dqp" in used_by("greenplum-analytics")
    False
    """
    return (*(n.format(mix=mix or "tpcb") for n in _USED_BY_KIND.get(kind, ())), "gp-cost-power")

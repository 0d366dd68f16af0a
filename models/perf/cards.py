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
from models.perf.usl_calibration import CALIBRATED_WORKLOADS, Workload


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

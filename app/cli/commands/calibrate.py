"""`refarch calibrate`: every model card: parameters, fit against its study points, sources.

Cards come from the explicit list in `models.perf.cards`. A card that fails to build
is a bug, not bad input: the cards that did work are printed first, then every problem
goes to stderr and the exit code is 1.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from app.cli.output import format_table, print_json
from app.formatting import significant

if TYPE_CHECKING:
    from models.hardware import HardwareCatalog
    from models.model_card import ModelCard

RESIDUAL_COLUMNS = ("point_id", "observed", "predicted", "unit", "pct_err")
HELD_OUT_COLUMNS = ("point_id", "configuration", "observed", "p10", "p50", "p90", "pct_err", "inside_p10_p90")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "calibrate",
        help="show every performance model's card: parameters, residuals against the studies, MAPE",
        description="Print each model card: its parameters, the calibration points it is checked "
        "against, the residuals, mape_pct and max_abs_pct_err.",
    )
    p.add_argument("--format", choices=("table", "json"), default="table", help="output format (default: table)")
    p.set_defaults(handler=_run)


def collect_cards(catalog: HardwareCatalog | None = None) -> tuple[list[ModelCard], list[str]]:
    """The cards that build, and one problem line per card that does not.

    One broken card does not hide the others; cards that validate against prices (the
    study-002 cost claim) are priced from `catalog`.
    """
    from models import model_card
    from models.perf import cards as perf_cards

    problems: list[str] = []
    cards: list[ModelCard] = []
    for factory in perf_cards.CARD_FACTORIES:
        try:
            cards.append(model_card.build(factory, catalog))
        except Exception as exc:
            where = f"{getattr(factory, '__module__', '?')}.{getattr(factory, '__qualname__', '?')}"
            problems.append(f"{where}: card failed: {type(exc).__name__}: {exc}")
    return sorted(cards, key=lambda c: c.name), problems


def card_json(card: ModelCard) -> dict[str, Any]:
    return {
        "name": card.name,
        "parameters": dict(card.parameters),
        "points": card.points,
        "mape_pct": float(card.mape_pct),
        "max_abs_pct_err": float(card.max_abs_pct_err),
        "residuals": [r.to_dict() for r in card.residuals],
        "held_out": [h.to_dict() for h in card.held_out],
        "note": card.note,
        "sources": list(card.sources),
    }


def _card_text(card: ModelCard) -> str:
    lines = [
        f"== {card.name}: {card.description}",
        f"points {card.points}   mape_pct {card.mape_pct:.3f}   max_abs_pct_err {card.max_abs_pct_err:.3f}",
        "parameters: " + ", ".join(f"{k}={_num(v)}" for k, v in card.parameters.items()),
        "",
        format_table([r.to_dict() for r in card.residuals], RESIDUAL_COLUMNS),
    ]
    if card.held_out:
        lines += ["", f"held out: {card.validation}",
                  format_table([h.to_dict() for h in card.held_out], HELD_OUT_COLUMNS)]
    if card.note:
        lines += ["", f"note: {card.note}"]
    if card.sources:
        lines += ["sources:", *(f"  - {s}" for s in card.sources)]
    return "\n".join(lines)


def _num(v: object) -> str:
    return significant(v) if isinstance(v, float) else str(v)


def _run(args: argparse.Namespace) -> int:
    from app.cli.catalog_access import load_catalog

    cards, problems = collect_cards(load_catalog(getattr(args, "db", None)))
    if args.format == "json":
        print_json({"models": [card_json(c) for c in cards]})
    else:
        print("\n\n".join(_card_text(c) for c in cards) if cards else "no model cards listed in models.perf.cards")
    sys.stdout.flush()
    if problems:
        print("refarch: some model cards could not be built (a bug, please report it):", file=sys.stderr)
        for p in problems:
            print(f"  - {p}", file=sys.stderr)
        return 1
    return 0

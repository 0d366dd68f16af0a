"""`refarch calibrate`, and the calibration datasets every card stands on."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from app.cli.commands import calibrate
from models import model_card
from models.calibration_data import STUDY_FILES, dataset, dataset_names
from models.perf import cards as perf_cards

STUDIES = Path(__file__).resolve().parents[3].parent / "shared" / "studies"
CARD_KEYS = {"name", "parameters", "points", "mape_pct", "max_abs_pct_err", "residuals", "held_out", "note", "sources"}
STUDY_NAME = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")


def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="refarch")
    calibrate.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    return args.handler(args)


# ----------------------------------------------------------------- the command


def test_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["calibrate", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"models"}
    assert data["models"], "no model cards"
    for card in data["models"]:
        assert set(card) == CARD_KEYS
        assert isinstance(card["name"], str)
        assert isinstance(card["parameters"], dict)
        assert isinstance(card["mape_pct"], float)
        assert isinstance(card["max_abs_pct_err"], float)
        assert card["points"] > 0
        assert card["points"] == len(card["residuals"])
        for r in card["residuals"]:
            assert {"point_id", "observed", "predicted", "unit", "pct_err"} <= set(r)
        assert isinstance(card["sources"], list)
    assert "sap-iq-dqp" in {c["name"] for c in data["models"]}


def test_table_lists_every_card(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["calibrate"]) == 0
    out = capsys.readouterr().out
    for card in calibrate.collect_cards()[0]:
        assert card.name in out
    assert "pct_err" in out
    assert "mape_pct" in out


def test_broken_card_is_reported_after_the_working_cards(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def bad_card() -> model_card.ModelCard:
        raise ZeroDivisionError("no points")

    monkeypatch.setattr(perf_cards, "CARD_FACTORIES", (*perf_cards.CARD_FACTORIES, bad_card))
    assert _run(["calibrate", "--format", "json"]) == 1
    captured = capsys.readouterr()
    names = {c["name"] for c in json.loads(captured.out)["models"]}
    assert "sap-iq-dqp" in names
    assert "bad_card" in captured.err
    assert "no points" in captured.err
    assert "Traceback" not in captured.err


# ----------------------------------------------------------------- the datasets


@pytest.mark.parametrize("name", dataset_names())
def test_dataset_validates(name: str) -> None:
    data = dataset(name)
    assert data.dataset == name
    assert data.points


@pytest.mark.parametrize("name", dataset_names())
def test_every_point_cites_a_study_or_a_named_document(name: str) -> None:
    bad = []
    for p in dataset(name).points:
        f = p.source.file.strip()
        if f in STUDY_FILES:
            continue
        # Not a study: it must name a public document, not look like a (mistyped) study file.
        if STUDY_NAME.fullmatch(f) or len(f.split()) < 2 or not p.source.locator.strip():
            bad.append(f"{p.id}: {f!r}")
    assert bad == []


def _normalize(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("name", dataset_names())
def test_quotes_occur_in_the_study_text(name: str) -> None:
    if not STUDIES.is_dir():
        pytest.skip(f"study texts not found at {STUDIES} (shared/ is beside the repo in CI and on dev machines)")
    texts: dict[str, str] = {}
    missing = []
    for p in dataset(name).points:
        # Quoted points, and any other point that carries the study's words, must quote them exactly.
        if p.source.file not in STUDY_FILES or (p.source.kind != "quoted" and not p.source.quote):
            continue
        if p.source.file not in texts:
            texts[p.source.file] = _normalize((STUDIES / p.source.file).read_text(encoding="utf-8"))
        if _normalize(p.source.quote or "") not in texts[p.source.file]:
            missing.append(f"{p.id}: {p.source.quote!r} not in {p.source.file}")
    assert missing == []


def test_the_pg_tps_card_lists_its_held_out_runs_beside_the_fit(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["calibrate", "--format", "json"]) == 0
    (card,) = [c for c in json.loads(capsys.readouterr().out)["models"] if c["name"] == "pg-tps"]
    fitted = {r["point_id"] for r in card["residuals"]}
    held = card["held_out"]
    assert held and not fitted & {h["point_id"] for h in held}
    for h in held:
        assert h["pct_err"] == pytest.approx(100.0 * (h["p50"] - h["observed"]) / h["observed"])
        assert h["inside_p10_p90"] == (h["p10"] <= h["observed"] <= h["p90"])
    assert _run(["calibrate"]) == 0
    text = capsys.readouterr().out.split("== pg-tps:", 1)[1].split("\n== ", 1)[0]
    assert "held out: Held-out published pgbench runs" in text and held[0]["point_id"] in text


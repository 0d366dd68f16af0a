"""Shared fixtures for the export tests: the seed catalog, sized samples, and PDF text."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from catalog.seed import seed_catalog
from models.hardware import HardwareCatalog
from models.scenario import Scenario, load_scenario, parse_scenario
from models.sizing.engine import size
from models.sizing.result import SizingResult

SAMPLES = Path(__file__).resolve().parents[3] / "resources" / "samples"
SCENARIO_FILES = sorted(p for p in SAMPLES.glob("*.json") if not p.name.endswith(".refarch.json"))


@pytest.fixture(scope="session")
def catalog() -> HardwareCatalog:
    return seed_catalog()


@pytest.fixture(scope="session")
def sized(catalog: HardwareCatalog) -> Callable[[str], tuple[Scenario, SizingResult]]:
    cache: dict[str, tuple[Scenario, SizingResult]] = {}

    def get(name: str) -> tuple[Scenario, SizingResult]:
        if name not in cache:
            s = load_scenario(SAMPLES / name)
            cache[name] = (s, size(s, catalog))
        return cache[name]

    return get


def sample_json(name: str) -> dict[str, Any]:
    return json.loads((SAMPLES / name).read_text(encoding="utf-8"))


def scenario_from(data: dict[str, Any]) -> Scenario:
    return parse_scenario(data, "test")


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(str(path)).pages)


def long_pdf_text(path: Path) -> str:
    """`pdf_text` for a report of hundreds of pages: poppler's pdftotext reads one in a tenth of pypdf's time
    (.ci/run installs poppler-utils for the report tests); pypdf where pdftotext is not installed."""
    exe = shutil.which("pdftotext")
    if exe is None:
        return pdf_text(path)
    return subprocess.run([exe, "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True, check=True,
                          timeout=120).stdout


def flat(text: str) -> str:
    """Whitespace collapsed, so a phrase matches whatever line breaks extraction put in it."""
    return " ".join(text.split())

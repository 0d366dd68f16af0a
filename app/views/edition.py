"""Who a report is for: the customer edition (what goes to the customer's procurement and finance) or the internal
edition (the team's copy, which keeps everything).

The rows say what is internal, so no renderer decides it from the words it prints: a warning's `internal` part
(catalog ids, what to do in refarch: `models.sizing.result.Warning.internal`), a model of the appendix that no
design of the report is estimated with and every model's id (`ModelRow`), a BOM line's catalog id
(`app.export.bom.BomRow.part_id`), and the instructions meant for whoever prepares the quote (`Edition`). The PDF,
the DOCX and the PPTX take one `Edition` and print what it shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # the CLI reads AUDIENCES at start-up: nothing heavier loads with it
    from models.model_card import ModelCard
    from models.scenario import Scenario
    from models.sizing.result import Warning

Audience = Literal["customer", "internal"]
AUDIENCES: tuple[Audience, ...] = ("customer", "internal")
SEVERITY_ORDER = {"critical": 0, "warning": 1, "info": 2}


@dataclass(frozen=True)
class WarningRow:
    """One warning as a report prints it: `heading` (its title and the field it concerns), `text` (what a customer
    reads) and `internal` (catalog ids and what to do in refarch, for the team only)."""

    code: str
    severity: str
    title: str
    heading: str
    text: str
    internal: str = ""


def warning_rows(warnings: Sequence[Warning], version: str | None = None) -> list[WarningRow]:
    """The warnings, the most severe first, titled in the words of the Greenplum release `version`."""
    from models.field_words import field_label
    from models.release_words import role_label

    titled = ((w, role_label(w.title, version)) for w in sorted(warnings, key=lambda w: SEVERITY_ORDER[w.severity]))
    return [WarningRow(w.code, w.severity, t, f"{t} ({field_label(w.field)})" if w.field else t, w.text, w.internal)
            for w, t in titled]


@dataclass(frozen=True)
class ModelRow:
    """A model of the appendix: its card, its title in a reader's words, its id (`model_id`, internal) and whether
    a design of the report is estimated with it (`used`; a model none uses is for the internal edition only)."""

    card: ModelCard
    title: str
    model_id: str
    used: bool


def model_rows(cards: Sequence[ModelCard], scenarios: Sequence[Scenario]) -> list[ModelRow]:
    """Every card, each marked used when a design of `scenarios` is estimated with its model."""
    from models.perf.cards import title, used_by
    from models.scenario import GreenplumOltp

    used = {name for s in scenarios
            for name in used_by(s.workload.kind, s.workload.mix if isinstance(s.workload, GreenplumOltp) else None)}
    return [ModelRow(c, title(c), c.name, c.name in used) for c in cards]


@dataclass(frozen=True)
class Edition:
    """What one edition of a report shows; the internal edition (the default) shows everything."""

    audience: Audience = "internal"

    @property
    def internal(self) -> bool:
        return self.audience == "internal"

    def warning_text(self, row: WarningRow) -> str:
        """The warning's text; in the internal edition with its internal part."""
        return f"{row.text} {row.internal}" if self.internal and row.internal else row.text

    def models(self, rows: Sequence[ModelRow]) -> list[ModelRow]:
        """The appendix's models: every one internally, the ones the designs use for the customer."""
        return [m for m in rows if self.internal or m.used]

    def warnings_intro(self) -> str:
        """The line above the warnings: an instruction to the team internally, a description for the customer."""
        what = ("each is a rule of a reference architecture or study that the design does not fully meet, or a limit"
                " of the models.")
        return f"Review these with the customer before quoting: {what}" if self.internal else \
            f"Points to note about this design: {what[:1].upper()}{what[1:]}"

    def warnings_callout(self, count: int, section: str) -> str:
        """The executive summary's pointer to the warnings (plain text; the renderer adds the titles)."""
        words = f"{count} warning{'s' if count != 1 else ''}"
        return (f"{words} to review before this design is quoted (section {section})" if self.internal
                else f"{words} to note (section {section})")

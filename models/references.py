"""The documents behind every decision, numbered for the reader: one registry for the GUI and every report.

Rules and models cite their sources as text ("002_feb9b45e1f157a35.txt, Key hardware
components: Network"; see `models.calibration_data.Source.cite`). A customer must never
read a file name: `citations()` resolves such text to the `Reference` it names (title,
authors, publisher, year, from `resources/references.json`) and the locator inside it
(section, table, figure). A `ReferenceList` numbers references in the order a document
first cites them, so the rationale can say "[2] Table 3" and the reference list at the
end holds entry [2]. Exports that add sections (BOM pages, configuration appendix) cite
into the same `ReferenceList` so one document has one list.

    >>> refs = ReferenceList()
    >>> refs.mark("002_feb9b45e1f157a35.txt, Key hardware components: Network")
    '[1] Key hardware components: Network'
    >>> refs.mark("Greenplum Database Installation Guide, Estimating Storage Capacity")
    '[2] Estimating Storage Capacity'
    >>> refs.mark("002_feb9b45e1f157a35.txt, Number of Greenplum segments per machine; scenario")
    '[1] Number of Greenplum segments per machine; as specified in the scenario'
    >>> [n for n, _ in refs.entries()]
    [1, 2]
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal, cast, get_args

RefKind = Literal["study", "vendor-doc", "standard", "published-benchmark", "third-party"]

# Citations that name no document: what the user entered, and what the catalog says about a part.
INPUT_SOURCES: dict[str, str] = {
    "scenario": "as specified in the scenario",
    "catalog": "from the hardware catalog",
}
_DATASET_PREFIXES = ("vendor_docs: ", "sizing_rules: ")  # older citations name the calibration dataset first


@dataclass(frozen=True, slots=True)
class Reference:
    key: str  # how resources/calibration cites it: a study's file name or the document title
    kind: RefKind
    title: str
    authors: str
    publisher: str
    year: str
    detail: str = ""  # printed in brackets after the title in the list: the kind of document, a section, an address

    def entry(self) -> str:
        """The reference-list line: authors, title (detail), publisher, year (authors left out when not given)."""
        parts = [self.authors] if self.authors else []
        parts += [f"{self.title} ({self.detail})" if self.detail else self.title, self.publisher, self.year]
        return ". ".join(p.rstrip(".") for p in parts if p) + "."


@dataclass(frozen=True, slots=True)
class Citation:
    """One place in one document; `reference` None for the user's own input or the catalog (`note` says which)."""

    reference: Reference | None
    locator: str = ""
    note: str = ""


@cache
def registry() -> dict[str, Reference]:
    raw = json.loads((resources.files("resources") / "references.json").read_text(encoding="utf-8"))
    return parse_registry(raw["references"])


def parse_registry(rows: Iterable[dict[str, str]]) -> dict[str, Reference]:
    """References by key; a repeated key or a kind outside `RefKind` is refused, naming the key.

    >>> parse_registry([{"key": "k", "kind": "blog", "title": "t", "authors": "", "publisher": "p", "year": "y"}])
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: resources/references.json: 'k' has kind 'blog', not one of study, vendor-doc, standard, ...
    """
    out: dict[str, Reference] = {}
    for r in rows:
        if r["kind"] not in get_args(RefKind):
            raise ValueError(f"resources/references.json: {r['key']!r} has kind {r['kind']!r}, not one of "
                             + ", ".join(get_args(RefKind)))
        ref = Reference(r["key"], cast(RefKind, r["kind"]), r["title"], r["authors"], r["publisher"], r["year"],
                        r.get("detail", ""))
        if ref.key in out:
            raise ValueError(f"resources/references.json: duplicate key {ref.key!r}")
        out[ref.key] = ref
    return out


def reference_for(text: str) -> tuple[Reference, str] | None:
    """The reference a citation text starts with (the longest key that matches) and the locator after it."""
    for prefix in _DATASET_PREFIXES:
        text = text.removeprefix(prefix)
    best: Reference | None = None
    for key, ref in registry().items():
        if text.startswith(key) and (best is None or len(key) > len(best.key)):
            best = ref
    if best is None:
        return None
    return best, text[len(best.key):].lstrip(" ,:;")


def reference_parts(text: str) -> tuple[str, ...]:
    """The references of a "; "-joined source text, in order, each once: the one place such a text is split (a
    `Rationale` keeps the tuple; a setting's source stays one text for the configuration files' comments).

    >>> reference_parts("002_feb9b45e1f157a35.txt, Table 4; scenario; scenario")
    ('002_feb9b45e1f157a35.txt, Table 4', 'scenario')
    """
    return tuple(dict.fromkeys(p.strip() for p in text.split(";") if p.strip()))


def citations(source: str | Iterable[str]) -> tuple[Citation, ...]:
    """The citations of a tuple of references (or a "; "-joined source text). A part that names no document
    continues the one before it ("..., Figure 12; Table 4" cites Table 4 of the same study); text naming nothing
    known is kept as a note.
    """
    out: list[Citation] = []
    for part in reference_parts(source) if isinstance(source, str) else (p.strip() for p in source):
        if not part:
            continue
        if part in INPUT_SOURCES:
            out.append(Citation(None, note=INPUT_SOURCES[part]))
            continue
        found = reference_for(part)
        if found is not None:
            out.append(Citation(found[0], found[1]))
        elif out and out[-1].reference is not None:
            prev = out[-1]
            out[-1] = Citation(prev.reference, f"{prev.locator}; {part}" if prev.locator else part)
        else:
            out.append(Citation(None, note=part))
    return tuple(out)


def unresolved(source: str | Iterable[str]) -> list[str]:
    """Parts of a source text that name no known document or input (a test keeps this empty)."""
    return [c.note for c in citations(source) if c.reference is None and c.note not in INPUT_SOURCES.values()]


class ReferenceList:
    """Numbers references in the order they are first cited; one per document (report, GUI rationale)."""

    def __init__(self) -> None:
        self._numbers: dict[str, int] = {}
        self._refs: list[Reference] = []

    def number(self, ref: Reference) -> int:
        if ref.key not in self._numbers:
            self._refs.append(ref)
            self._numbers[ref.key] = len(self._refs)
        return self._numbers[ref.key]

    def marks(self, source: str | Iterable[str] | Iterable[Citation]) -> list[str]:
        """One "[n] locator" (or an input note) per citation, numbering new references as it goes; `source` is a
        tuple of references (`Rationale.source`), a "; "-joined text, or citations."""
        if isinstance(source, str):
            cites = citations(source)
        else:
            items = tuple(source)
            texts = [c for c in items if isinstance(c, str)]
            cites = citations(texts) if texts else tuple(c for c in items if isinstance(c, Citation))
        out: list[str] = []
        for c in cites:
            if c.reference is None:
                out.append(c.note)
                continue
            mark = f"[{self.number(c.reference)}]"
            out.append(f"{mark} {c.locator}" if c.locator else mark)
        return list(dict.fromkeys(out))

    def mark(self, source: str | Iterable[str] | Iterable[Citation]) -> str:
        return "; ".join(self.marks(source))

    def entries(self) -> list[tuple[int, Reference]]:
        return [(i, ref) for i, ref in enumerate(self._refs, start=1)]

    def __len__(self) -> int:
        return len(self._refs)


_STUDY_FILE = re.compile(r"\b(\d{3})_[0-9a-f]{16}\.txt\b")
_STUDY_NUMBER = re.compile(r"(?<![\d.,])\b(?:[Ss]tud(?:y|ies)[- ])?(00[0-4])\b(?![.,]\d)")
_DATASET_FILE = re.compile(r"\s*\((?:derivations|see)[^()]*\b\w+\.json\)|\b[a-z0-9_]+\.json\b")
_EXTRA_REF = re.compile(r"\s*\(see extra\.[a-z_.]+\)")


def _study_refs() -> dict[str, Reference]:
    return {ref.key[:3]: ref for ref in registry().values() if ref.kind == "study"}


def readable(text: str, refs: ReferenceList) -> str:
    """Text written for engineers ("as study 003 measured", "000's per-core rate", a file name) made fit for a
    customer: every study is named by its reference number, calibration file names are dropped.

    >>> refs = ReferenceList()
    >>> readable("Outside what study 003 measured; 000's scan rate (derivations in gp6_oltp_004.json).", refs)
    "Outside what study [1] measured; study [2]'s scan rate."
    >>> readable("a ratio of 0.002, 1,004 hosts", refs)
    'a ratio of 0.002, 1,004 hosts'

    """
    studies = _study_refs()

    def study(m: re.Match[str]) -> str:
        ref = studies.get(m.group(1))
        return f"study [{refs.number(ref)}]" if ref is not None else m.group(0)

    text = _EXTRA_REF.sub("", text)
    text = _DATASET_FILE.sub(lambda m: "" if m.group(0).lstrip().startswith("(") else "the calibration data", text)
    text = _STUDY_FILE.sub(study, text)
    return _STUDY_NUMBER.sub(study, text)

"""The static deployment settings in `resources/deploy/*.json` (OS, BIOS, guest, vSphere, SAP IQ options).

These do not depend on the sizing; each carries its reason and source. Study file names are cited
by title in the generated files.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

_STUDY_FILE = re.compile(r"\b(\d{3}_[0-9a-f]{16}\.txt)")


@cache
def deploy_data(name: str) -> dict[str, Any]:
    path = resources.files("resources") / "deploy" / f"{name}.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    _check_provenance(data, name)
    return data


def _check_provenance(node: Any, where: str) -> None:
    """Every entry that states a reason states its source too (and the other way round)."""
    if isinstance(node, dict):
        for key in [k for k in node if k == "reason" or k.endswith("_reason")]:
            src = "source" if key == "reason" else key.removesuffix("_reason") + "_source"
            if not str(node.get(src, "")).strip() or not str(node[key]).strip():
                raise ValueError(f"resources/deploy/{where}: {key!r} without its {src!r}")
        for k, v in node.items():
            _check_provenance(v, f"{where}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _check_provenance(v, f"{where}[{i}]")


def cite(source: str) -> str:
    """A source with study file names replaced by the study's title.

    >>> cite("000_b2a3159111482e98.txt, Appendix A").startswith("Greenplum Database Performance on VMware")
    True
    """
    titles: dict[str, str] = deploy_data("sources")["titles"]
    named = _STUDY_FILE.sub(lambda m: titles.get(m.group(1), m.group(1)), source)
    return re.sub(r"\bvendor_docs: ", "", named)

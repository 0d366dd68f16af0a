"""Which storage controllers fit a server: a vendor's front controller or boot module is made for the servers of
one platform (a Dell PERC H965i Front DC-MHS for the 17th-generation R670 and R770, not a 15th-generation R750),
a standard PCIe adapter fits any server's slot.

A controller's `servers` field says which (catalog revision 0012): the server models it is specified for as the
vendor's documents list them ("PowerEdge R670, PowerEdge R770"; an entry matches a server whose model names it,
"Gen11" every ProLiant Gen11), "*" for a standard adapter that fits any server, "" when no source was read (not
checked, and the choice says so). The choice takes, of the cards that drive the drives and build the RAID level:
the server vendor's cards made for this server, else the vendor's cards of unknown fit, else the standard adapters
of any vendor; the last two are warned (`controller-fit`), the first is not; none at all is `no-controller`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from models.hardware import Controller, Server

Fit = Literal["made-for", "unknown", "other", "any"]


def fit(card: Controller, server: Server) -> Fit:
    """How `card` fits `server` by its `servers` field: made for it, any server ("*"), not known (""), or made for
    other servers.

    >>> from datetime import date
    >>> def card(servers): return Controller("c", "Dell", "PERC", 0.0, "USD", date(2026, 1, 1), "s", "SAS", "raid1",
    ...                                      16, "Dell", 20, servers=servers)
    >>> def server(model): return Server("s", "Dell", model, 1.0, "USD", date(2026, 1, 1), "s", "1U", 1, 2, None,
    ...                                  1, 512, 32, 10, "U.3", 2, 1500, 250, 820)
    >>> r670, r750 = server("PowerEdge R670 (10x 2.5in NVMe)"), server("PowerEdge R750 (24 SFF SAS)")
    >>> fit(card("PowerEdge R670, PowerEdge R770"), r670), fit(card("PowerEdge R670, PowerEdge R770"), r750)
    ('made-for', 'other')
    >>> fit(card("*"), r750), fit(card(""), r750), fit(card("Gen11"), server("ProLiant DL380 Gen11 (24 SFF)"))
    ('any', 'unknown', 'made-for')
    """
    listed = [s.strip().casefold() for s in card.servers.split(",") if s.strip()]
    if not listed:
        return "unknown"
    if listed == ["*"]:
        return "any"
    model = f"{server.vendor} {server.model}".casefold()
    return "made-for" if any(_names(model, entry) for entry in listed) else "other"


def _names(model: str, entry: str) -> bool:
    """Whether `entry` names the model as a whole word run ("R670" names "PowerEdge R670 (...)", not "R6705")."""
    at = model.find(entry)
    while at >= 0:
        end = at + len(entry)
        if (at == 0 or not model[at - 1].isalnum()) and (end == len(model) or not model[end].isalnum()):
            return True
        at = model.find(entry, at + 1)
    return False


@dataclass(frozen=True)
class Choice:
    """The cards to choose from for a server and how they fit it: made for it (or any server), of unknown fit
    (the vendor's, no source read), standard adapters (the vendor has no card for it in the catalog, or none at
    all: `vendor_has_cards`), or none."""

    cards: list[Controller]
    how: Literal["made-for", "unknown", "standard", "none"]
    vendor_has_cards: bool


def candidates(cards: Sequence[Controller], server: Server) -> Choice:
    """The server vendor's cards made for it, else its cards of unknown fit, else the standard adapters of any vendor
    (applies_to "*", not made for other servers)."""
    own = [c for c in cards if c.applies_to.casefold() == server.vendor.casefold()]
    fits = {c.id: fit(c, server) for c in cards}
    made = [c for c in own if fits[c.id] in ("made-for", "any")]
    if made:
        return Choice(made, "made-for", True)
    unknown = [c for c in own if fits[c.id] == "unknown"]
    if unknown:
        return Choice(unknown, "unknown", True)
    generic = [c for c in cards if c.applies_to == "*" and fits[c.id] != "other"]
    return Choice(generic, "standard" if generic else "none", bool(own))

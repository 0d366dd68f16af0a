"""The words a customer reads for the roles and titles the sizing keys by, in the Greenplum release's own terms.

Greenplum 6's documentation calls the instance clients connect to the master; Greenplum 7, WarehousePG 7 and
Apache Cloudberry 2 call it the coordinator. The sizing keys its host roles, setting targets, decision and warning
titles by the coordinator (code and tests look them up); every renderer shows them through `role_label`.
"""

from __future__ import annotations

# The words the sizing keys by (BOM roles, setting targets, decision and warning titles) and what Greenplum 6's
# documentation calls each; the keys stay as they are (code and tests look them up), only the label changes.
_MASTER_LABELS = {
    "coordinator host": "master host",
    "coordinator": "master",
    "coord.": "master",  # the window's host card, short
    "coordinators": "masters",
    "coordinator server": "master server",
    "coordinator on a segment host": "master on a segment host",
    "coordinator cpu": "master CPU",
    "cpu of the segment host running the coordinator": "CPU of the segment host running the master",
}


def role_label(key: str, version: str | None) -> str:
    """What the customer reads for a role, setting target or title `key` of a design sized for `version`: Greenplum
    6's word for the coordinator (the master) where its documentation uses it; `key` itself everywhere else.

    >>> role_label("coordinator host", "6"), role_label("Coordinator server", "6"), role_label("Coordinators", "7")
    ('master host', 'Master server', 'Coordinators')
    >>> role_label("segment host", "6"), role_label("coordinator host", None)
    ('segment host', 'coordinator host')
    """
    label = _MASTER_LABELS.get(key.lower()) if version == "6" else None
    if label is None:
        return key
    return label[:1].upper() + label[1:] if key[:1].isupper() else label

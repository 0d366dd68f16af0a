"""The Greenplum releases a design is configured for (`workload.greenplum_version`) and the words each uses.

Greenplum 7 and the forks built on it (Apache Cloudberry 2, WarehousePG 7) redesigned resource groups: a group's
memory is MEMORY_LIMIT in MB on each segment (MEMORY_QUOTA in Apache Cloudberry 2's source), with no
gp_resource_group_memory_limit share of the host. Greenplum 6 names the coordinator the master.
"""

from __future__ import annotations

from models.vocabulary import greenplum_release_label

GP7_FAMILY = ("7", "cloudberry-2", "warehousepg-7")  # resource groups as Greenplum 7 redesigned them


def gp7_family(version: str) -> bool:
    """Whether `version` runs Greenplum 7's resource groups.

    >>> gp7_family("6"), gp7_family("warehousepg-7")
    (False, True)
    """
    return version in GP7_FAMILY


def release_name(version: str) -> str:
    """The release as customer text names it: "Greenplum 6", "Apache Cloudberry 2"."""
    return greenplum_release_label(version)


def group_memory_keyword(version: str) -> str:
    """The resource-group attribute that holds a group's memory on `version` (Greenplum 7 line only).

    >>> group_memory_keyword("7"), group_memory_keyword("cloudberry-2")
    ('MEMORY_LIMIT', 'MEMORY_QUOTA')
    """
    return "MEMORY_QUOTA" if version == "cloudberry-2" else "MEMORY_LIMIT"


def role_word(version: str) -> str:
    """What `version`'s documentation calls the instance clients connect to: Greenplum 6's master, the
    coordinator from Greenplum 7 on.

    >>> role_word("6"), role_word("cloudberry-2")
    ('master', 'coordinator')
    """
    return "master" if version == "6" else "coordinator"


"""The product settings each sizer already decides, packaged as `SettingGroup`s for `Design.settings`.

Each function takes the values a sizer computed (and their rationale) and only states them in
the unit the product reads; the sizing decisions stay in the sizers and rules.
"""

from __future__ import annotations

from collections.abc import Sequence

from models.sizing.result import Rationale
from models.sizing.settings import Setting, SettingGroup

MIB_PER_GIB = 1024


def greenplum_settings(vmem_limit_mb: int, vmem_why: Rationale, mirrored: bool) -> tuple[SettingGroup, ...]:
    """gpconfig values and the gpinitsystem mirroring mode behind gp_vmem_protect_limit.

    >>> g = greenplum_settings(8192, Rationale("gp_vmem_protect_limit", "t", "s"), True)
    >>> g[0].get("gp_vmem_protect_limit").value, g[1].get("mirror_mode").value
    (8192, 'spread')
    """
    groups = [SettingGroup("greenplum", "cluster", (
        Setting("gp_vmem_protect_limit", int(vmem_limit_mb), "MB", vmem_why.text, vmem_why.source),
    ))]
    if mirrored:
        groups.append(SettingGroup("greenplum-init", "cluster", (
            Setting(
                "mirror_mode", "spread", "",
                "gp_vmem_protect_limit counts the primaries a host runs after a neighbour fails as"
                " primaries + ceil(primaries / (hosts - 1)), which holds for spread mirroring: each host's"
                " mirrors are spread over the other hosts.",
                "vendor_docs: Greenplum Database Administrator Guide, Overview of Segment Mirroring",
            ),
        )))
    return tuple(groups)


def postgres_settings(
    vms: Sequence[tuple[str, float]], shared_buffers_ratio: float, reason: str, source: str
) -> tuple[SettingGroup, ...]:
    """One postgresql.conf group per VM `(name, memory_gib)`: shared_buffers at the design's ratio.

    >>> postgres_settings([("vm-a", 4.0)], 0.75, "r", "s")[0].get("shared_buffers").value
    3072
    """
    return tuple(
        SettingGroup("postgresql", name, (
            Setting(
                "shared_buffers", int(memory_gib * shared_buffers_ratio * MIB_PER_GIB), "MB",
                f"{shared_buffers_ratio:.0%} of the VM's {memory_gib:g} GiB. {reason}", source,
            ),
        ))
        for name, memory_gib in vms
    )


def sap_iq_settings(
    main_cache_gib: float, temp_cache_gib: float, reason: str, source: str
) -> tuple[SettingGroup, ...]:
    """start_iq cache switches in MB (-iqmc main cache, -iqtc temp cache) for every node.

    >>> [s.value for s in sap_iq_settings(25.6, 25.6, "r", "s")[0].settings]
    [26214, 26214]
    """
    return (SettingGroup("sap-iq-server", "all nodes", (
        Setting("iqmc", int(main_cache_gib * MIB_PER_GIB), "MB", f"IQ main cache. {reason}", source),
        Setting("iqtc", int(temp_cache_gib * MIB_PER_GIB), "MB", f"IQ temporary cache. {reason}", source),
    )),)

"""The start_iq parameters of every multiplex node beside its caches: the port, the connections, the catalog store
and the defaults SAP ships in default.cfg, each with its source (SAP IQ 16 start_iq; study 003 for the streams).
The node name (-n) is written per node by the configuration export.
"""

from __future__ import annotations

from models.calibration_data import figure, point
from models.sizing.settings import Setting

STUDY = "sapiq_dqp_003"


def _f(point_id: str) -> float:
    return figure(STUDY, point_id)


def _cite(point_id: str) -> str:
    return point(STUDY, point_id).source.cite()


def _doc(switch: str) -> str:
    """The start_iq defaults' source at another switch (the values that are words, not figures)."""
    return f"{point(STUDY, 'start_catalog_cache_mb').source.file}, {switch}"


def start_parameters(query_streams: int) -> tuple[Setting, ...]:
    """-x, -gm, -c, -gc, -gd, -gl, -gp and -ti of a multiplex node: SAP's default.cfg values, the port on which the
    node listens (one node per host) and one connection per query stream above the default connections.

    >>> [(s.name, s.value) for s in start_parameters(6)][:2]
    [('x', 'tcpip{port=2638}'), ('gm', 16)]
    """
    port = int(_f("start_tcpip_port"))
    default_conns = int(_f("start_connections_default"))
    return (
        Setting("x", f"tcpip{{port={port}}}", "",
                f"TCP/IP on the SAP IQ port {port}: one node per host, so every node listens on it", _cite(
                    "start_tcpip_port")),
        Setting("gm", query_streams + default_conns, "",
                f"connections: one per query stream ({query_streams}) plus the {default_conns} default.cfg keeps for"
                " administration and the multiplex's own", _cite("start_connections_default")),
        Setting("c", f"{int(_f('start_catalog_cache_mb'))}m", "", "catalog store cache (default.cfg)",
                _cite("start_catalog_cache_mb")),
        Setting("gc", int(_f("start_checkpoint_min")), "", "checkpoint interval in minutes (default.cfg)",
                _cite("start_checkpoint_min")),
        Setting("gd", "all", "", "any user may start the database by connecting (default.cfg)", _doc("-gd")),
        Setting("gl", "all", "", "any user may load or unload tables (default.cfg)", _doc("-gl")),
        Setting("gp", int(_f("start_catalog_page_bytes")), "", "catalog store page size in bytes (default.cfg)",
                _cite("start_catalog_page_bytes")),
        Setting("ti", int(_f("start_client_timeout_min")), "",
                "client idle timeout in minutes (72 hours): long queries are not logged off (default.cfg)",
                _cite("start_client_timeout_min")),
    )

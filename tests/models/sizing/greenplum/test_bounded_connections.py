"""max_connections stays within Greenplum's guidance whatever the sessions: the coordinator keeps its default, raised
only to what runs at once (the reports the resource group admits) plus the superuser slots; the sessions beyond go
through PgBouncer, sized in the design and warned about."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from models.sizing.greenplum.design_settings import greenplum_settings
from models.sizing.greenplum.memory import (
    SUPERUSER_RESERVED,
    MirrorLayout,
    OltpHost,
    admitted_queries,
    memory_plan,
)

DEFAULT = 250  # Greenplum's coordinator default (vendor_docs gp_max_connections_coordinator_default)


def test_a_hundred_thousand_reports_keep_max_connections_bounded() -> None:
    """256 GiB hosts, 12 primaries (24 acting after a failure): the group admits far fewer than asked."""
    plan = memory_plan(256, 16, 12, 24, 100_000, 100_000, MirrorLayout("group", None, False))
    s = plan.settings
    admitted = int(admitted_queries(256, 16, 24, 100_000))
    assert s.max_connections_coordinator == max(DEFAULT, admitted + SUPERUSER_RESERVED) < 1000
    assert s.max_connections_segment == 5 * s.max_connections_coordinator
    assert s.max_prepared_transactions == s.max_connections_coordinator
    assert (s.pooled_sessions, s.pool_size) == (100_000, s.max_connections_coordinator - SUPERUSER_RESERVED)
    assert "connection-pooler" in {w.code for w in plan.warnings}
    pgb = next(g for g in greenplum_settings(plan) if g.product == "pgbouncer")
    assert [(x.name, x.value) for x in pgb.settings] == [
        ("pool_mode", "transaction"), ("max_client_conn", 100_000), ("default_pool_size", s.pool_size),
        ("max_db_connections", s.pool_size)]


def test_oltp_clients_beyond_the_default_are_pooled_and_run_no_more_at_once() -> None:
    plan = memory_plan(384, 0, 8, 16, 5000, 5000, MirrorLayout("spread", None, False), OltpHost())
    s = plan.settings
    assert s.max_connections_coordinator == DEFAULT and s.pooled_sessions == 5000
    assert s.resource_group_concurrency == DEFAULT - SUPERUSER_RESERVED == s.pool_size


def test_few_sessions_need_no_pooler() -> None:
    plan = memory_plan(128, 8, 6, 12, 30, 30, MirrorLayout(None, None, False))
    assert (plan.settings.max_connections_coordinator, plan.settings.pooled_sessions) == (DEFAULT, 0)
    assert not any(g.product == "pgbouncer" for g in greenplum_settings(plan))
    assert "connection-pooler" not in {w.code for w in plan.warnings}


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 100_000), st.sampled_from([64, 192, 768]), st.integers(2, 48), st.booleans())
def test_connections_never_exceed_what_runs_plus_reserve(sessions: int, ram: int, primaries: int, oltp: bool) -> None:
    s = memory_plan(ram, 0, primaries, 2 * primaries, sessions, sessions, MirrorLayout("group", None, False),
                    OltpHost() if oltp else None).settings
    assert s.max_connections_coordinator == max(DEFAULT, min(sessions, s.resource_group_concurrency)
                                                + SUPERUSER_RESERVED)
    assert (s.pooled_sessions > 0) == (sessions + SUPERUSER_RESERVED > s.max_connections_coordinator)
    assert s.resource_group_concurrency <= s.max_connections_coordinator - SUPERUSER_RESERVED

"""effective_cache_size is shared_buffers plus the OS page cache over every VM size and shared_buffers rule: never
shared_buffers alone (study 001's 75 % shared_buffers left it equal to them), PGTune's 3/4 of memory where
shared_buffers is PGTune's 1/4."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from models.calibration_data import figure
from models.sizing.postgres.config import PgVmInputs, postgres_config

DS = "pg_tuning_docs"


def test_the_page_cache_share_is_pgtunes_pairing() -> None:
    ecs, sb = figure(DS, "effective_cache_size_ratio"), figure(DS, "pgtune_shared_buffers_ratio")
    assert abs(figure(DS, "ecs_page_cache_share") - (ecs - sb) / (1 - sb)) < 1e-6


@settings(max_examples=80, deadline=None)
@given(memory_gib=st.integers(2, 1024), dedicated=st.booleans(), overcommitted=st.booleans(),
       conventional=st.booleans(), clients=st.integers(1, 400))
def test_effective_cache_size_counts_the_page_cache_beyond_shared_buffers(
        memory_gib: int, dedicated: bool, overcommitted: bool, conventional: bool, clients: int) -> None:
    vm = PgVmInputs("vm-h", memory_gib, 4, clients, dedicated, overcommitted, "ssd", 2, 100.0, conventional)
    c = postgres_config(vm)
    ram_mb, sb_mb, ecs_mb = memory_gib * 1024, c.get("shared_buffers").value, c.get("effective_cache_size").value
    share = figure(DS, "ecs_page_cache_share")
    assert sb_mb < ecs_mb < ram_mb
    assert abs((ecs_mb - sb_mb) - share * (ram_mb - sb_mb)) <= 1  # MB rounding
    if sb_mb == int(ram_mb * figure(DS, "pgtune_shared_buffers_ratio")):
        assert abs(ecs_mb - ram_mb * figure(DS, "effective_cache_size_ratio")) <= 1
    reason = c.get("effective_cache_size").reason
    assert f"shared_buffers ({sb_mb} MB)" in reason and f"{ram_mb - sb_mb} MB beyond" in reason


def test_a_study_sized_vm_keeps_page_cache_above_its_75_percent_shared_buffers() -> None:
    # a 6 GiB VM dedicated to one database, not overcommitted: study 001's 75 % shared_buffers
    c = postgres_config(PgVmInputs("vm-s", 6, 2, 10, True, False, "ssd", 2, 100.0))
    sb, ecs = c.get("shared_buffers").value, c.get("effective_cache_size").value
    assert sb == 6 * 1024 * 3 // 4
    assert ecs > sb and ecs - sb >= (6 * 1024 - sb) // 2

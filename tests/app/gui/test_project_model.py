"""The project document: edits are undoable commands; invalid drafts keep the last valid scenario."""

from __future__ import annotations

import pytest

from app.gui.project_model import ProjectDocument
from tests.app.projects import small_project


@pytest.fixture
def doc(qapp) -> ProjectDocument:  # type: ignore[no-untyped-def]
    d = ProjectDocument()
    d.load(small_project(), None)
    return d


def test_edit_then_undo_and_redo(doc: ProjectDocument) -> None:
    uid = doc.entries[0].uid
    doc.edit(uid, ("workload", "data_tb"), 80.0)
    assert doc.entry(uid).scenario.workload.data_tb == 80.0
    assert doc.dirty
    doc.undo_stack.undo()
    assert doc.entry(uid).scenario.workload.data_tb == 20.0
    assert not doc.dirty
    doc.undo_stack.redo()
    assert doc.entry(uid).scenario.workload.data_tb == 80.0


def test_consecutive_edits_of_one_field_merge_into_one_step(doc: ProjectDocument) -> None:
    uid = doc.entries[0].uid
    for value in (1.0, 12.0, 123.0):  # typing "123" key by key
        doc.edit(uid, ("workload", "data_tb"), value)
    doc.edit(uid, ("workload", "concurrent_queries"), 3)
    assert doc.undo_stack.count() == 2
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.entry(uid).scenario.workload.data_tb == 20.0


def test_typing_back_the_old_value_leaves_nothing_to_undo(doc: ProjectDocument) -> None:
    uid = doc.entries[0].uid
    doc.edit(uid, ("workload", "data_tb"), 2.0)
    doc.edit(uid, ("workload", "data_tb"), 20.0)
    assert doc.undo_stack.count() == 0
    assert not doc.dirty


def test_edits_of_different_scenarios_do_not_merge(doc: ProjectDocument) -> None:
    a, b = doc.entries[0].uid, doc.entries[1].uid
    doc.edit(a, ("workload", "data_tb"), 30.0)
    doc.edit(b, ("workload", "data_tb"), 30.0)
    assert doc.undo_stack.count() == 2


def test_an_invalid_edit_keeps_the_last_valid_scenario(doc: ProjectDocument) -> None:
    uid = doc.entries[0].uid
    doc.edit(uid, ("workload", "data_tb"), -5.0)
    entry = doc.entry(uid)
    assert not entry.valid
    assert "workload.data_tb" in entry.issues.by_field
    assert entry.scenario.workload.data_tb == 20.0
    project, stale = doc.to_project()
    assert stale == ["Small DW"] and project.scenarios[0].workload.data_tb == 20.0


def test_add_duplicate_rename_delete_are_undoable(doc: ProjectDocument) -> None:
    first = doc.entries[0].uid
    copy_uid = doc.duplicate(first)
    assert [e.name for e in doc.entries] == ["Small DW", "Small DW (copy)", "Big DW"]
    doc.rename(copy_uid, "Variant")
    new_uid = doc.add_scenario()
    assert doc.entry(new_uid).valid and len(doc.entries) == 4
    doc.delete(first)
    assert [e.name for e in doc.entries] == ["Variant", "Big DW", "Scenario"]
    for _ in range(4):
        doc.undo_stack.undo()
    assert [e.name for e in doc.entries] == ["Small DW", "Big DW"]
    assert not doc.dirty


def test_delete_then_undo_restores_an_invalid_draft_as_it_was(doc: ProjectDocument) -> None:
    uid = doc.entries[0].uid
    doc.edit(uid, ("workload", "data_tb"), "abc")
    doc.delete(uid)
    doc.undo_stack.undo()
    assert doc.entry(uid).draft["workload"]["data_tb"] == "abc"
    assert not doc.entry(uid).valid

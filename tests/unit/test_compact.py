"""svctui.api.compact: kept models share their field-name sets and short strings, and read the same."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from svctui.api import compact
from svctui.api.compact import SHARED_LIMIT, SharedFieldNames, share_repeats, shared_names
from svctui.api.models import CompletedTask, Page, parse_json

CLIENT = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"


def page_of(count: int) -> list[CompletedTask]:
    """`count` tasks with one domain result each, validated from JSON as a page from the server is."""
    data = [
        {
            "id": index,
            "client_id": CLIENT,
            "client_name": "client one",
            "status": 2,
            "execution_time": "2026-11-01T10:00:00Z",
            "domains": ["S-1-5-21-1"],
            "domain_results": [{"id": index, "domain_name": "CORP.EXAMPLE.COM", "success": True, "user_count": 9}],
            "surprise": "kept",
        }
        for index in range(count)
    ]
    return parse_json(Page[CompletedTask], json.dumps({"count": count, "data": data}).encode()).data


def test_every_model_of_a_shape_shares_one_set_and_reads_the_same() -> None:
    tasks = page_of(50)
    before = [task.model_dump(mode="json", exclude_unset=True) for task in tasks]
    share_repeats(tasks)
    assert len({id(task.__pydantic_fields_set__) for task in tasks}) == 1
    assert len({id(task.domain_results[0].__pydantic_fields_set__) for task in tasks}) == 1
    assert len({id(task.domains[0].__pydantic_fields_set__) for task in tasks}) == 1
    assert all(isinstance(task.model_fields_set, SharedFieldNames) for task in tasks)
    assert len({id(task.client_id) for task in tasks}) == 1, "repeated short strings are one object"
    assert len({id(task.domain_results[0].domain_name) for task in tasks}) == 1
    assert [task.model_dump(mode="json", exclude_unset=True) for task in tasks] == before
    assert tasks[0].surprise == "kept", "extra fields are untouched"  # type: ignore[attr-defined]


def test_a_copy_gets_its_own_set_and_a_shared_model_refuses_edits() -> None:
    tasks = page_of(2)
    share_repeats(tasks)
    changed = tasks[0].model_copy(update={"status": 4})
    assert type(changed.model_fields_set) is set and changed.status == 4
    assert type(copy.deepcopy(tasks[0]).model_fields_set) is set
    assert isinstance(tasks[1].model_fields_set, SharedFieldNames), "the original still shares"
    tasks[1].status = 5  # a field the server sent: its name is in the set already
    assert tasks[1].status == 5 and tasks[0].status == 2
    with pytest.raises(TypeError):
        tasks[1].log_path = "x"  # a field it did not send: would change every model's set, so it fails loudly
    assert pickle.loads(pickle.dumps(tasks[1])).model_fields_set == tasks[1].model_fields_set


def test_the_number_of_shared_sets_is_bounded() -> None:
    kept = dict(compact._shared)
    try:
        made = [shared_names({f"field_{index}"}) for index in range(SHARED_LIMIT + 5)]
        assert made[-1] is None, "past the limit a model keeps its own set"
        assert shared_names({"field_0"}) is made[0]
    finally:  # the table is per process: later tests (the same process) must still get shared sets
        compact._shared.clear()
        compact._shared.update(kept)

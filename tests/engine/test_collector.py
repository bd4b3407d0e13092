"""The garbage collector is paused while a save replays, and always turned back on."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from tests.engine.test_load import saved

from fracas.engine import Encounter, SaveError, collector


@pytest.fixture(autouse=True)
def collecting() -> Iterator[None]:
    gc.enable()
    yield
    gc.enable()


def test_blocks_nest_and_the_last_one_out_turns_it_back_on() -> None:
    with collector.paused():
        with collector.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    with collector.paused():
        pass
    assert not gc.isenabled()


def test_two_threads_pausing_at_once_leave_it_on() -> None:
    inside = threading.Barrier(2)
    leave = threading.Event()
    seen: list[bool] = []

    def pause(wait: bool) -> None:
        with collector.paused():
            inside.wait(timeout=10)
            if wait:
                leave.wait(timeout=10)
            seen.append(gc.isenabled())

    slow = threading.Thread(target=pause, args=(True,))
    slow.start()
    pause(False)  # leaves first: the other thread is still inside
    assert not gc.isenabled()
    leave.set()
    slow.join(timeout=10)
    assert seen == [False, False]
    assert gc.isenabled()


def test_a_load_turns_it_back_on_whether_the_save_replays_or_not() -> None:
    data, ruleset = saved()
    loaded = Encounter.load(data, ruleset)
    assert gc.isenabled() and len(loaded.log) == len(data["log"])
    broken: dict[str, Any] = {**data, "log": [*data["log"][:1], {"action": "ylva fly"}]}
    with pytest.raises(SaveError):
        Encounter.load(broken, ruleset)
    assert gc.isenabled()

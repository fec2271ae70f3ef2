"""`focal.evaluation.processes`: usable CPUs where the platform lacks an affinity mask, the start
method chosen per platform or by `FOCAL_START_METHOD`, and a pool that gives, in order, what one
process gives, with its state handed to each worker (spawned here: nothing inherited)."""

from __future__ import annotations

import gc
import multiprocessing
import operator
import os
import sys
from typing import Any

import pytest

from focal import settings
from focal.evaluation import processes
from focal.evaluation.processes import StartMethodError, map_on_processes, start_method, usable_cpus


@pytest.fixture
def bare_os(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """`os` as macOS and Windows have it before Python 3.13: neither `process_cpu_count` nor
    `sched_getaffinity`."""
    monkeypatch.delattr(os, "process_cpu_count", raising=False)
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    return monkeypatch


def test_without_an_affinity_mask_every_cpu_of_the_machine_is_usable(
    bare_os: pytest.MonkeyPatch,
) -> None:
    bare_os.setattr(os, "cpu_count", lambda: 3)
    assert usable_cpus() == 3
    bare_os.setattr(os, "cpu_count", lambda: None)  # "cannot be determined"
    assert usable_cpus() == 1


def test_the_affinity_mask_then_the_process_count_come_first(bare_os: pytest.MonkeyPatch) -> None:
    bare_os.setattr(os, "cpu_count", lambda: 8)
    bare_os.setattr(os, "sched_getaffinity", lambda pid: {0, 5}, raising=False)
    assert usable_cpus() == 2
    bare_os.setattr(os, "process_cpu_count", lambda: 6, raising=False)
    assert usable_cpus() == 6
    bare_os.setattr(os, "process_cpu_count", lambda: None, raising=False)
    assert usable_cpus() == 1


@pytest.mark.parametrize(("platform", "expected"), [("linux", "fork"), ("darwin", "spawn")])
def test_automatic_start_method_forks_on_linux_only(
    monkeypatch: pytest.MonkeyPatch, platform: str, expected: str
) -> None:
    if expected not in multiprocessing.get_all_start_methods():
        pytest.skip(f"this platform has no {expected} start method")
    monkeypatch.delenv("FOCAL_START_METHOD", raising=False)
    monkeypatch.setattr(sys, "platform", platform)
    assert start_method() == expected
    monkeypatch.setenv("FOCAL_START_METHOD", "auto")
    assert start_method() == expected


def test_windows_never_forks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    monkeypatch.delenv("FOCAL_START_METHOD", raising=False)
    assert start_method() == "spawn"  # whatever sys.platform says
    monkeypatch.setenv("FOCAL_START_METHOD", "fork")
    with pytest.raises(StartMethodError) as refused:
        start_method()
    message = str(refused.value)
    assert "FOCAL_START_METHOD=fork" in message and "expected auto, spawn" in message
    assert refused.value.exit_code == 2


def test_the_variable_forces_a_start_method_and_refuses_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FOCAL_START_METHOD", " Spawn ")
    assert start_method() == "spawn"
    monkeypatch.setenv("FOCAL_START_METHOD", "thread")
    with pytest.raises(settings.SettingError, match=r"FOCAL_START_METHOD='thread'.*expected"):
        start_method()


def spied_methods(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The start methods the pools of the test ask `multiprocessing` for, in order."""
    asked: list[str] = []
    real = multiprocessing.get_context

    def spy(method: str | None = None) -> Any:
        asked.append(str(method))
        return real(method)

    monkeypatch.setattr(multiprocessing, "get_context", spy)
    return asked


def test_spawned_workers_give_what_one_process_gives_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked = spied_methods(monkeypatch)
    monkeypatch.setenv("FOCAL_START_METHOD", "spawn")
    items = [1, 2, 3, 4, 6, 8]
    serial = list(map_on_processes(operator.truediv, 24, items, 1))
    assert asked == []  # one job: no pool at all
    assert serial == [24 / item for item in items]
    assert list(map_on_processes(operator.truediv, 24, items, 2)) == serial
    assert asked == ["spawn"]
    assert processes._WORKER == {}  # the state went to the workers, not into this process


def test_the_first_error_in_item_order_is_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOCAL_START_METHOD", "spawn")
    with pytest.raises(ZeroDivisionError):
        list(map_on_processes(operator.truediv, 1, [1, 0, 2, 3], 2))
    with pytest.raises(KeyError, match="b"):  # the first failing item, not the first done
        list(map_on_processes(operator.getitem, {"a": 1}, ["a", "b", "c"], 2))


def test_forked_workers_inherit_and_leave_the_collector_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("this platform cannot fork")
    asked = spied_methods(monkeypatch)
    monkeypatch.setenv("FOCAL_START_METHOD", "fork")
    assert list(map_on_processes(operator.mul, 3, [1, 2, 3], 2)) == [3, 6, 9]
    assert asked == ["fork"]
    assert gc.get_freeze_count() == 0  # frozen for the pool only

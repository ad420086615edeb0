"""Batcher: callers that arrive while a batch is served form the next batch."""
from __future__ import annotations

import threading
import time

import pytest

from server.batching import Batcher


def _wait_until(condition, timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.005)


class _Gated:
    """`serve` that records each batch and holds the first one until released."""

    def __init__(self, results=lambda items: [item * 10 for item in items]):
        self.batches: list[list[int]] = []
        self.first_entered = threading.Event()
        self.release = threading.Event()
        self._results = results

    def __call__(self, items: list[int]):
        self.batches.append(list(items))
        if len(self.batches) == 1:
            self.first_entered.set()
            assert self.release.wait(10)
        return self._results(items)


def _submit_all(batcher: Batcher, gate: _Gated, later: list[int]) -> dict[int, object]:
    """Item 0 first; the `later` items while item 0's batch is held; then release."""
    outcomes: dict[int, object] = {}

    def call(item: int) -> None:
        try:
            outcomes[item] = batcher.submit(item)
        except Exception as exc:  # checked by the caller
            outcomes[item] = exc

    threads = [threading.Thread(target=call, args=(0,))]
    threads[0].start()
    assert gate.first_entered.wait(10)
    for item in later:
        threads.append(threading.Thread(target=call, args=(item,)))
        threads[-1].start()
    _wait_until(lambda: batcher.waiting == len(later))
    gate.release.set()
    for t in threads:
        t.join(10)
    return outcomes


def test_callers_that_wait_are_served_together():
    gate = _Gated()
    batcher = Batcher(gate)
    outcomes = _submit_all(batcher, gate, [1, 2, 3, 4])
    assert gate.batches[0] == [0]
    assert sorted(gate.batches[1]) == [1, 2, 3, 4] and len(gate.batches) == 2
    assert outcomes == {0: 0, 1: 10, 2: 20, 3: 30, 4: 40}
    assert batcher.batches == 2


def test_a_batch_never_exceeds_max_size():
    gate = _Gated()
    batcher = Batcher(gate, max_size=2)
    outcomes = _submit_all(batcher, gate, [1, 2, 3, 4, 5])
    assert [len(b) for b in gate.batches] == [1, 2, 2, 1]
    assert outcomes == {i: i * 10 for i in range(6)}


def test_an_error_for_one_item_reaches_only_its_caller():
    gate = _Gated(lambda items: [ValueError(f"bad {i}") if i == 2 else i for i in items])
    outcomes = _submit_all(Batcher(gate), gate, [1, 2, 3])
    assert isinstance(outcomes[2], ValueError) and str(outcomes[2]) == "bad 2"
    assert {k: v for k, v in outcomes.items() if k != 2} == {0: 0, 1: 1, 3: 3}


def test_an_error_raised_by_serve_reaches_every_caller_in_the_batch():
    def serve(items):
        if len(gate.batches) > 1:
            raise RuntimeError("model crashed")
        return items

    gate = _Gated(serve)
    outcomes = _submit_all(Batcher(gate), gate, [1, 2])
    assert outcomes[0] == 0
    assert all(isinstance(outcomes[i], RuntimeError) for i in (1, 2))


def test_a_wrong_number_of_results_is_an_error_not_a_mismatch():
    batcher = Batcher(lambda items: items[:-1])
    with pytest.raises(RuntimeError, match="1 items in, 0 results out"):
        batcher.submit("x")


def test_a_lone_caller_is_served_at_once_and_max_size_is_checked():
    assert Batcher(lambda items: [len(items)]).submit("only") == 1
    with pytest.raises(ValueError):
        Batcher(lambda items: items, max_size=0)

"""Calls that arrive while another is being served are served together, as one batch.

For work where a batch costs about what one item costs, such as a SQLite commit of several
writes. There is no thread of its own: the caller that finds no batch running serves every
item waiting at that moment (its own included) while later callers wait for their results.
A lone caller pays for two uncontended locks, and nothing here breaks when the process forks
(threads do not survive a fork).
"""
from __future__ import annotations

import threading
from typing import Callable, Generic, Sequence, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


class _Slot:
    __slots__ = ("item", "value", "error", "done")

    def __init__(self, item) -> None:
        self.item = item
        self.value = None
        self.error: BaseException | None = None
        self.done = False


class Batcher(Generic[Item, Result]):
    def __init__(self, serve: Callable[[list[Item]], Sequence[Result | BaseException]], *, max_size: int = 64):
        """`serve` takes a batch and returns one result per item, in order. An exception in that
        list is raised to its item's caller only; an exception `serve` raises reaches every
        caller in the batch."""
        if max_size < 1:
            raise ValueError(f"max_size must be at least 1, got {max_size}")
        self._serve = serve
        self.max_size = max_size
        self._waiting: list[_Slot] = []
        self._waiting_lock = threading.Lock()
        self._serving = threading.Lock()
        self.batches = 0  # how many times `serve` ran

    @property
    def waiting(self) -> int:
        """Items not yet taken into a batch."""
        with self._waiting_lock:
            return len(self._waiting)

    def submit(self, item: Item) -> Result:
        slot = _Slot(item)
        with self._waiting_lock:
            self._waiting.append(slot)
        while not slot.done:
            with self._serving:
                if slot.done:  # a caller before us served it
                    break
                with self._waiting_lock:
                    batch = self._waiting[:self.max_size]
                    del self._waiting[:self.max_size]
                self._serve_batch(batch)
        if slot.error is not None:
            raise slot.error
        return slot.value

    def _serve_batch(self, batch: list[_Slot]) -> None:
        self.batches += 1
        try:
            results = list(self._serve([slot.item for slot in batch]))
            if len(results) != len(batch):
                raise RuntimeError(f"{len(batch)} items in, {len(results)} results out")
        except BaseException as exc:  # handed to every caller in the batch
            results = [exc] * len(batch)
        for slot, result in zip(batch, results):
            if isinstance(result, BaseException):
                slot.error = result
            else:
                slot.value = result
            slot.done = True

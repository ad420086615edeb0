"""Generators for tests that need a specific answer or failure. They implement the same
interface as the real ones; the rest of the pipeline (retrieval, store, sessions) is real."""
from __future__ import annotations

import threading
import time

from server.rag.generators.base import Generation, GenerationInput


class RecordingGenerator:
    """Answers with a fixed text (citing [1]) and remembers what it was given."""

    name = "recording"

    def __init__(self, answer: str = "Here is the answer [1].", delay_s: float = 0.0):
        self.answer = answer
        self.delay_s = delay_s
        self.inputs: list[GenerationInput] = []
        self.cancelled = threading.Event()

    def start(self, request: GenerationInput) -> Generation:
        self.inputs.append(request)
        generation = Generation(tokens=iter(()), generator=self.name, usage={"prompt_tokens": 10, "output_tokens": 5,
                                                                              "total_tokens": 15})

        def tokens():
            for word in self.answer.split(" "):
                if generation.cancelled.is_set():
                    self.cancelled.set()
                    return
                if self.delay_s:
                    time.sleep(self.delay_s)
                yield word + " "
            if generation.cancelled.is_set():
                self.cancelled.set()

        generation.tokens = tokens()
        original_cancel = generation.cancel

        def cancel():
            original_cancel()
            self.cancelled.set()

        generation.cancel = cancel
        return generation


class FailingGenerator:
    name = "failing"

    def __init__(self, during_stream: bool = False):
        self.during_stream = during_stream

    def start(self, request: GenerationInput) -> Generation:
        if not self.during_stream:
            raise RuntimeError("the model is down")

        def tokens():
            yield "Partial "
            raise RuntimeError("the model fell over mid-answer")

        return Generation(tokens=tokens(), generator=self.name)

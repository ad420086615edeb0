"""Generators for tests that need a specific answer or failure. They implement the same
interface as the real ones; the rest of the pipeline (retrieval, store, sessions) is real."""
from __future__ import annotations

import threading
import time

from server.question.compose.generator import Deltas, GenerationInput, Outcome


class RecordingGenerator:
    """Answers with a fixed text (citing [1]) and remembers what it was given."""

    name = "recording"

    def __init__(self, answer: str = "Here is the answer [1].", delay_s: float = 0.0):
        self.answer = answer
        self.delay_s = delay_s
        self.inputs: list[GenerationInput] = []
        self.cancelled = threading.Event()  # set when the reader left and the answer was closed

    def generate(self, request: GenerationInput) -> Deltas:
        self.inputs.append(request)
        try:
            for word in self.answer.split(" "):
                if self.delay_s:
                    time.sleep(self.delay_s)
                yield word + " "
        except GeneratorExit:
            self.cancelled.set()
            raise
        return Outcome(self.name, usage={"prompt_tokens": 10, "output_tokens": 5, "total_tokens": 15})


class FailingGenerator:
    name = "failing"

    def __init__(self, during_stream: bool = False):
        self.during_stream = during_stream

    def generate(self, request: GenerationInput) -> Deltas:
        if not self.during_stream:
            raise RuntimeError("the model is down")
        yield "Partial "
        raise RuntimeError("the model fell over mid-answer")

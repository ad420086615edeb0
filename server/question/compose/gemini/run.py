"""One question's state while Gemini answers it."""
from __future__ import annotations

from dataclasses import dataclass, field

from google.genai import types

from server.question import markers
from server.question.context import Source
from server.question.events import Usage
from server.question.compose.generator import GenerationInput
from server.question.compose.gemini import prompt
from server.question.compose.gemini.client import Budget, GeminiClient


@dataclass
class Run:
    client: GeminiClient
    request: GenerationInput
    budget: Budget
    searches: int = 0
    usage: Usage | None = None
    extra_sources: list[Source] = field(default_factory=list)

    def contents(self) -> list[types.Content]:
        """Recent turns (answered ones only, markers stripped), then the fenced passages and question."""
        request = self.request
        turns: list[types.Content] = []
        history = request.history
        for i, message in enumerate(history):
            if message.role == "user":
                answered = i + 1 < len(history) and history[i + 1].role == "assistant"
                if answered and message.content.strip():
                    turns.append(types.Content(role="user", parts=[types.Part(text=message.content)]))
            elif turns and turns[-1].role == "user":
                text = markers.strip(message.content)
                turns.append(types.Content(role="model", parts=[types.Part(text=text or "…")]))
        if turns and turns[-1].role == "user":
            turns.pop()
        turns.append(types.Content(role="user", parts=[types.Part(text=prompt.user_message(
            request.question, request.sources, selected_text=request.selected_text,
            selection_only=request.selection_only, outline=request.outline,
            code_language=request.code_language))]))
        return turns

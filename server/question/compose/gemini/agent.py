"""Agent mode: the model may call `search_textbook` a few times before it answers.

The loop is driven here, not by the SDK, so the limit and the numbering of sources stay
ours: passages a search finds are numbered after the ones the question came with.
"""
from __future__ import annotations

import logging
import re
from typing import Iterator

from google.genai import types

from server.question.context import Source
from server.question.compose.gemini import prompt
from server.question.compose.gemini.client import add_usage, text_of, usage_of
from server.question.compose.gemini.run import Run

log = logging.getLogger("textbook_chat.gemini")

MAX_SEARCHES = 3  # search_textbook calls per question
SEARCH_TOOL = types.Tool(function_declarations=[types.FunctionDeclaration(
    name="search_textbook",
    description="Search this textbook for passages about a topic. Returns numbered passages to cite by number.",
    parameters_json_schema={
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What to look for, in the book's own terms."},
            "module": {"type": "string",
                       "description": "Optional: only search this module (part) of the book, named as in a "
                                      "passage's module attribute."},
        },
        "required": ["query"],
    })])


def agent_deltas(run: Run) -> Iterator[str]:
    """Tool rounds (non-streamed) until the model answers; the answer in word-sized deltas."""
    client, request = run.client, run.request
    sources = list(request.sources)
    seen = {s.chunk.chunk_id: n for n, s in enumerate(sources, 1)}
    contents = run.contents()
    system = prompt.system_instruction(request.preferences, selection_only=request.selection_only, agent=True,
                                        intent=request.intent)
    response = None
    for round_number in range(1, MAX_SEARCHES + 3):
        allow_search = run.searches < MAX_SEARCHES
        mode = types.FunctionCallingConfigMode.AUTO if allow_search else types.FunctionCallingConfigMode.NONE
        config = client.config(run.budget, system=system, tools=[SEARCH_TOOL], tool_config=types.ToolConfig(
            function_calling_config=types.FunctionCallingConfig(mode=mode)))
        response = client.with_retries(run.budget, lambda: client.call(contents, config, run.budget), "agent")
        run.usage = add_usage(run.usage, usage_of(response.usage_metadata))
        calls = response.function_calls or []
        if not calls or round_number == MAX_SEARCHES + 2:
            break
        contents.append(response.candidates[0].content)
        replies = [_tool_reply(run, call, sources, seen) for call in calls]
        run.extra_sources = sources[len(request.sources):]  # kept even if a later round fails
        contents.append(types.Content(role="user", parts=replies))
    for piece in re.findall(r"\S+\s*|\s+", text_of(response) if response is not None else ""):
        yield piece


def _tool_reply(run: Run, call, sources: list[Source], seen: dict[str, int]) -> types.Part:
    args = dict(call.args or {})
    query = str(args.get("query") or "").strip()
    module = str(args.get("module") or "").strip() or None
    if call.name != "search_textbook":
        return types.Part.from_function_response(name=call.name or "unknown", response={
            "error": f"There is no tool named {call.name!r}; only search_textbook."})
    if run.searches >= MAX_SEARCHES:
        log.info("agent search refused: the limit of %d searches is reached (%r)", MAX_SEARCHES, query)
        return types.Part.from_function_response(name=call.name, response={
            "error": f"Search limit of {MAX_SEARCHES} reached. Answer now from the passages you have."})
    run.searches += 1
    found = run.request.search(query, module) if query else []
    numbered, added = [], 0
    for source in found:
        number = seen.get(source.chunk.chunk_id)
        if number is None:
            sources.append(source)
            number = seen[source.chunk.chunk_id] = len(sources)
            added += 1
        numbered.append((number, source))
    log.info("agent search %d: %r module=%r -> %d passages (%d new)", run.searches, query, module, len(found), added)
    return types.Part.from_function_response(name=call.name, response={
        "result": prompt.search_results(numbered, query)})

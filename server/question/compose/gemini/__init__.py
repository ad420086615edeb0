"""Gemini through `google-genai`: a client with retries and one deadline per request
(client.py, faults.py), the prompt (prompt.py), the answer's cleanup on its way out (answer.py),
the streamed generator (generator.py) with its agent loop (agent.py), and follow-up rewriting
for retrieval (rewrite.py). The extractive fallback is wired around it by the composition root."""
from server.question.compose.gemini.answer import AnswerFilter, clean_answer
from server.question.compose.gemini.client import GeminiClient
from server.question.compose.gemini.generator import GeminiGenerator
from server.question.compose.gemini.rewrite import GeminiRewriter

__all__ = ["AnswerFilter", "GeminiClient", "GeminiGenerator", "GeminiRewriter", "clean_answer"]

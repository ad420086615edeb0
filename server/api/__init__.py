"""The web layer: one blueprint (routes), marshmallow schemas, a presenter between the domain and
JSON/SSE, SSE with keep-alives (sse), noticing a reader who hung up under waitress or gunicorn
(disconnect), a strict JSON parser, body limits, the client's address behind trusted proxies,
and one table from error codes to HTTP statuses (errors)."""

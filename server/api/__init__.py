"""The web layer: one blueprint, marshmallow schemas, a presenter between the domain and
JSON/SSE, and one table from error codes to HTTP statuses."""

"""The HTTP API: one blueprint, marshmallow schemas, one error shape."""

"""Query → QueryContext → rank → gate → generate → validate."""

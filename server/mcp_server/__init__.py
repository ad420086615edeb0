"""The book in readers' own AI tools: an MCP server (stdio and streamable HTTP) over the same
index, pipeline and limits as the HTTP API."""

"""Answer generators: Gemini when a key is configured, extractive otherwise."""

"""Answer generators (base.py: text deltas out, then an immutable Outcome): Gemini when a key is
configured, wrapped with the extractive generator as its fallback (fallback.py); extractive alone
otherwise. No generator knows the pipeline."""

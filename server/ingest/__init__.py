"""Book folder → pages → heading chunks → embeddings in the store."""

"""textbook chat: grounded, cited answers from a Docusaurus textbook."""
import os

# NumPy's work here is one small matrix-vector product per search (local Qdrant) or answer.
# Threaded BLAS gains nothing on that and, under concurrent requests, its threads fight the
# embedding model's threads for the cores. Set before NumPy is first imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"

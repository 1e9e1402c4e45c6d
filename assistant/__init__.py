"""A terminal research assistant for conference paper abstracts."""

import os as _os

# numpy's BLAS pool and onnxruntime's fight over the two cores; one BLAS thread is faster
# for the small matrices this package multiplies (docs/benchmarks.md). Must precede numpy's import.
_os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
_os.environ.setdefault("OMP_NUM_THREADS", "1")
# Chroma's telemetry would try the network; this product runs offline.
_os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

__version__ = "0.1.0"

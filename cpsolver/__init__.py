"""Code generated from protos/ (``make protos``); the package path matches ``cpsolver.v1``."""

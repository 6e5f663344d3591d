"""Clients of the solver: the ``cpsolver`` command line and the typed Python client."""

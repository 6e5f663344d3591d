"""OpenTelemetry tracing of every call, when the ``otel`` extra is installed and configured.

Configured the standard way, by OpenTelemetry's own environment variables: tracing is on when
``OTEL_TRACES_EXPORTER`` names one or more exporters (``otlp``, ``console``; the OTLP exporter
then reads ``OTEL_EXPORTER_OTLP_ENDPOINT`` and friends), with ``OTEL_SERVICE_NAME`` (default
``cpsolver``), ``OTEL_RESOURCE_ATTRIBUTES`` and ``OTEL_TRACES_SAMPLER`` as the SDK reads them.
Unset, or ``none``: no interceptor at all, so tracing costs nothing. Each worker makes its own
provider after the fork (the batch span processor runs a thread) and flushes it on shutdown.
"""

from __future__ import annotations

import logging
import os
from typing import Any

__all__ = ["EXTRA_HINT", "tracing_interceptor"]

log = logging.getLogger("cpsolver.server")

EXTRA_HINT = "pip install 'cpsolver[otel]'"


def tracing_interceptor() -> tuple[Any, Any] | None:
    """``(server interceptor, tracer provider)`` when ``OTEL_TRACES_EXPORTER`` asks for
    tracing, else None. Unknown exporter names and a missing extra are logged, not fatal: a
    server without traces still serves."""
    names = [n.strip() for n in os.environ.get("OTEL_TRACES_EXPORTER", "").split(",") if n.strip()]
    if not names or names == ["none"]:
        return None
    try:
        from importlib.metadata import entry_points

        from opentelemetry.instrumentation.grpc import server_interceptor
        from opentelemetry.sdk.resources import SERVICE_NAME, Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError:
        log.warning("OTEL_TRACES_EXPORTER is set but tracing needs the otel extra: %s", EXTRA_HINT)
        return None
    attributes = {} if os.environ.get("OTEL_SERVICE_NAME") else {SERVICE_NAME: "cpsolver"}
    provider = TracerProvider(resource=Resource.create(attributes))
    for name in names:
        found = entry_points(group="opentelemetry_traces_exporter", name=name)
        if not found:
            log.warning("unknown OTEL_TRACES_EXPORTER %r (installed: %s)", name, _installed())
            continue
        exporter = next(iter(found)).load()()
        provider.add_span_processor(BatchSpanProcessor(exporter))
    return server_interceptor(tracer_provider=provider), provider  # type: ignore[no-untyped-call]


def _installed() -> str:
    from importlib.metadata import entry_points

    return ", ".join(sorted(ep.name for ep in entry_points(group="opentelemetry_traces_exporter")))

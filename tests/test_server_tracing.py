"""OpenTelemetry tracing: spans for each call when OTEL_TRACES_EXPORTER asks for them (here the
SDK's console exporter, which writes each span as JSON on stdout), nothing otherwise."""

from __future__ import annotations

import json
from typing import Any

from conftest import running_server
from helpers import wire

from cpsolver.v1 import chinese_poker_pb2, chinese_poker_pb2_grpc


def _json_objects(text: str) -> list[dict[str, Any]]:
    """The JSON objects written one after another (the console exporter pretty-prints)."""
    decoder, found, at = json.JSONDecoder(), [], 0
    while (at := text.find("{", at)) != -1:
        value, at = decoder.raw_decode(text, at)
        found.append(value)
    return found


def _two_calls(env: dict[str, str]) -> tuple[list[str], list[str]]:
    with (
        running_server("--workers", "1", "--log-format", "json", env=env) as server,
        server.channel() as channel,
    ):
        stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(channel)
        request = chinese_poker_pb2.EvaluateHandRequest(cards=wire("Jh Js 4c 4d Jd"))
        stub.EvaluateHand(request, timeout=30)
        stub.EvaluateHand(request, timeout=30)
    return server.stdout, server.stderr


def test_each_call_is_a_span_when_an_exporter_is_configured() -> None:
    stdout, _ = _two_calls({"OTEL_TRACES_EXPORTER": "console", "OTEL_SERVICE_NAME": "cpsolver-t"})
    spans = [s for s in _json_objects("".join(stdout)) if "span_id" in s.get("context", {})]
    calls = [s for s in spans if s["name"] == "/cpsolver.v1.ChinesePokerService/EvaluateHand"]
    assert len(calls) == 2
    assert calls[0]["kind"] == "SpanKind.SERVER"
    assert calls[0]["resource"]["attributes"]["service.name"] == "cpsolver-t"
    assert calls[0]["attributes"]["rpc.grpc.status_code"] == 0


def test_tracing_is_off_without_the_environment() -> None:
    stdout, stderr = _two_calls({"OTEL_TRACES_EXPORTER": "none"})
    assert stdout == []
    stdout, stderr = _two_calls({})
    assert stdout == [] and not any("OTEL" in line for line in stderr)


def test_an_unknown_exporter_is_logged_and_the_server_still_serves() -> None:
    _, stderr = _two_calls({"OTEL_TRACES_EXPORTER": "zipkin-nope"})
    warnings = [json.loads(x)["msg"] for x in stderr if "OTEL_TRACES_EXPORTER" in x]
    assert warnings and "unknown OTEL_TRACES_EXPORTER 'zipkin-nope'" in warnings[0]
    assert "console" in warnings[0]

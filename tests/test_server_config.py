"""``cpsolver serve`` configured the twelve-factor way: every option from the environment,
flags win, bad values name the variable, and a ready line that is JSON like the rest of the log.
"""

from __future__ import annotations

import json
import subprocess
import sys

import click
import grpc
import pytest
from conftest import running_server
from helpers import wire

from cpsolver.client.cli.main import main
from cpsolver.server.cli import env_var
from cpsolver.v1 import chinese_poker_pb2, chinese_poker_pb2_grpc

SERVE = [sys.executable, "-c", "from cpsolver.client.cli import main; main()", "serve"]


def _serve_command() -> click.Command:
    command = main.get_command(click.Context(main), "serve")
    assert command is not None
    return command


def test_every_serve_option_has_its_environment_variable_in_help() -> None:
    """One rule for all: --max-batch is CPSOLVER_MAX_BATCH, and --help says so for each."""
    command = _serve_command()
    options = [p for p in command.params if isinstance(p, click.Option) and p.name != "help"]
    assert len(options) >= 13
    help_text = " ".join(command.get_help(click.Context(command, info_name="serve")).split())
    for param in options:
        long_option = max(param.opts, key=len)
        assert param.envvar == env_var(long_option), param.name
        assert f"env var: {param.envvar}" in help_text


@pytest.mark.parametrize(
    ("variable", "value", "expected"),
    [
        ("CPSOLVER_PORT", "abc", "'abc' is not a valid integer range"),
        ("CPSOLVER_PORT", "70000", "70000 is not in the range 0<=x<=65535"),
        ("CPSOLVER_WORKERS", "0", "0 is not in the range x>=1"),
        ("CPSOLVER_ACCESS_LOG", "maybe", "'maybe' is not a valid boolean"),
        ("CPSOLVER_LOG_FORMAT", "xml", "'xml' is not one of 'json', 'text'"),
    ],
)
def test_a_bad_environment_value_is_a_usage_error_naming_the_variable(
    variable: str, value: str, expected: str
) -> None:
    run = subprocess.run(
        SERVE,
        env={"PATH": "/usr/bin:/bin", variable: value},
        capture_output=True,
        text=True,
        timeout=60,  # a variable that is ignored would start a server that never exits
    )
    assert run.returncode == 2, run.stderr
    assert f"(env var: '{variable}')" in run.stderr and expected in run.stderr
    assert "Traceback" not in run.stderr


def _batch_of(hands: int) -> chinese_poker_pb2.BatchSolveRequest:
    one = chinese_poker_pb2.SolveRequest(cards=wire("As Kd Qh Jc 9s 9d 8h 7c 5s 5d 4h 3c 2s"))
    return chinese_poker_pb2.BatchSolveRequest(requests=[one] * hands)


def test_environment_configures_the_server_and_flags_win() -> None:
    """CPSOLVER_MAX_BATCH=3 caps BatchSolve; CPSOLVER_WORKERS=2 loses to --workers 1."""
    env = {"CPSOLVER_MAX_BATCH": "3", "CPSOLVER_WORKERS": "2", "CPSOLVER_LOG_FORMAT": "json"}
    with running_server("--workers", "1", env=env) as server:
        ready = [json.loads(x) for x in list(server.stderr) if '"event": "ready"' in x]
        assert len(ready) == 1 and ready[0]["workers"] == 1
        with server.channel() as channel:
            stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(channel)
            assert len(list(stub.BatchSolve(_batch_of(3), timeout=30))) == 3
            with pytest.raises(grpc.RpcError) as refused:
                list(stub.BatchSolve(_batch_of(4), timeout=30))
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_json_log_format_makes_the_ready_line_a_log_event() -> None:
    """--log-format json: nothing on stdout; every stderr line is JSON, the ready one included,
    with the address, the services and the commands to try."""
    with (
        running_server("--workers", "1", "--log-format", "json") as server,
        server.channel() as channel,
    ):
        stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(channel)
        request = chinese_poker_pb2.EvaluateHandRequest(cards=wire("Jh Js 4c 4d Jd"))
        stub.EvaluateHand(request, timeout=30)
    events = [json.loads(line) for line in server.stderr]  # raises if a line is not JSON
    assert any(e["event"] == "rpc" and e["method"].endswith("/EvaluateHand") for e in events)
    ready = [e for e in events if e["event"] == "ready"]
    assert len(ready) == 1
    assert ready[0]["address"] == server.address and ready[0]["port"] > 0
    assert "cpsolver.v1.ChinesePokerService" in ready[0]["services"]
    assert any(
        cmd.split()[0].endswith("cpsolver") and " solve --server " in cmd for cmd in ready[0]["try"]
    )
    assert server.stdout == []


def test_text_log_format_prints_the_ready_line_and_readable_logs() -> None:
    with running_server("--workers", "1", "--log-format", "text") as server:
        pass
    assert server.stdout[0].startswith(f"cpsolver serve: ready on {server.address} (1 worker")
    assert any(
        line.startswith("try: ") and line.split()[1].endswith("cpsolver") and " solve " in line
        for line in server.stdout
    )
    assert server.stderr and not any(line.startswith("{") for line in server.stderr)
    assert any(" INFO " in line and "serving on" in line for line in server.stderr)


def test_text_log_format_writes_calls_as_readable_lines() -> None:
    with (
        running_server("--workers", "1", "--log-format", "text") as server,
        server.channel() as channel,
    ):
        stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(channel)
        request = chinese_poker_pb2.EvaluateHandRequest(cards=wire("Jh Js 4c 4d Jd"))
        stub.EvaluateHand(request, timeout=30)
    calls = [line for line in server.stderr if "/EvaluateHand" in line]
    assert len(calls) == 1
    assert " OK " in calls[0] and calls[0].rstrip().endswith(" ms")

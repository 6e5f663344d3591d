"""Operational behaviour of ``cpsolver serve`` (issue 4): auth, TLS, limits, shutdown.

Each test starts its own small server (one worker) because it changes the server's options or
stops it.
"""

from __future__ import annotations

import datetime
import ipaddress
import signal
import time
from pathlib import Path

import grpc
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from grpc_health.v1 import health_pb2, health_pb2_grpc

from cpsolver.v1 import cards_pb2, chinese_poker_pb2, chinese_poker_pb2_grpc

SERVICE = "cpsolver.v1.ChinesePokerService"
TRIPS = [cards_pb2.Card(rank=cards_pb2.RANK_TWO, suit=s) for s in (1, 2, 3)]


def evaluate_call(
    channel: grpc.Channel, **kwargs: object
) -> chinese_poker_pb2.EvaluateHandResponse:
    stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(channel)
    return stub.EvaluateHand(
        chinese_poker_pb2.EvaluateHandRequest(cards=TRIPS), timeout=10, **kwargs
    )


# --- bearer token ---------------------------------------------------------------------------


def test_bearer_token_required_except_for_health(serve_grpc) -> None:
    with serve_grpc("--workers", "1", env={"CPSOLVER_TOKEN": "s3cret"}) as server:
        channel = server.channel()
        for metadata in (None, [("authorization", "Bearer wrong")], [("authorization", "s3cret")]):
            with pytest.raises(grpc.RpcError) as caught:
                evaluate_call(channel, metadata=metadata)
            assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED
        reply = evaluate_call(channel, metadata=[("authorization", "Bearer s3cret")])
        assert reply.hand.name == "three twos"
        health = health_pb2_grpc.HealthStub(channel)
        status = health.Check(health_pb2.HealthCheckRequest(service=SERVICE), timeout=5).status
        assert status == health_pb2.HealthCheckResponse.SERVING


def test_the_bearer_scheme_is_matched_case_insensitively(serve_grpc) -> None:
    """RFC 7235 section 2.1: the authentication scheme is case-insensitive, so ``bearer`` and
    ``BEARER`` carry the token as ``Bearer`` does (they were refused); the token itself is
    compared exactly, and another scheme or no space after the scheme is still refused."""
    with serve_grpc("--workers", "1", env={"CPSOLVER_TOKEN": "s3cret"}) as server:
        channel = server.channel()
        for value in ("bearer s3cret", "BEARER s3cret", "bEaReR s3cret", "Bearer  s3cret"):
            reply = evaluate_call(channel, metadata=[("authorization", value)])
            assert reply.hand.name == "three twos", value
        for value in ("bearer S3CRET", "Basic s3cret", "Bearers3cret", "bearer", "s3cret"):
            with pytest.raises(grpc.RpcError) as caught:
                evaluate_call(channel, metadata=[("authorization", value)])
            assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED, value


# --- TLS and mutual TLS -----------------------------------------------------------------------


def _key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def _pem_key(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def _cert(
    subject: str,
    key: ec.EllipticCurvePrivateKey,
    issuer: tuple[x509.Certificate, ec.EllipticCurvePrivateKey] | None,
    *,
    ca: bool = False,
    server: bool = False,
) -> x509.Certificate:
    now = datetime.datetime.now(datetime.UTC)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)])
    builder = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(issuer[0].subject if issuer else name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if server:
        builder = builder.add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
    return builder.sign(issuer[1] if issuer else key, hashes.SHA256())


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A throwaway CA, a server certificate for 127.0.0.1 and a client certificate."""
    folder = tmp_path_factory.mktemp("pki")
    ca_key = _key()
    ca = _cert("cpsolver test CA", ca_key, None, ca=True)
    server_key, client_key = _key(), _key()
    files = {
        "ca": ca.public_bytes(serialization.Encoding.PEM),
        "server": _cert("127.0.0.1", server_key, (ca, ca_key), server=True).public_bytes(
            serialization.Encoding.PEM
        ),
        "server_key": _pem_key(server_key),
        "client": _cert("client", client_key, (ca, ca_key)).public_bytes(
            serialization.Encoding.PEM
        ),
        "client_key": _pem_key(client_key),
    }
    paths = {}
    for name, data in files.items():
        paths[name] = folder / f"{name}.pem"
        paths[name].write_bytes(data)
    return paths


def _tls_channel(address: str, pki: dict[str, Path], client_cert: bool) -> grpc.Channel:
    credentials = grpc.ssl_channel_credentials(
        root_certificates=pki["ca"].read_bytes(),
        private_key=pki["client_key"].read_bytes() if client_cert else None,
        certificate_chain=pki["client"].read_bytes() if client_cert else None,
    )
    return grpc.secure_channel(address, credentials)


def test_tls_serves_tls_only(serve_grpc, pki) -> None:
    args = ["--workers", "1", "--tls-cert", str(pki["server"]), "--tls-key", str(pki["server_key"])]
    with serve_grpc(*args) as server:
        reply = evaluate_call(_tls_channel(server.address, pki, client_cert=False))
        assert reply.hand.name == "three twos"
        with pytest.raises(grpc.RpcError) as caught:
            evaluate_call(server.channel(), wait_for_ready=False)
        assert caught.value.code() == grpc.StatusCode.UNAVAILABLE


def test_mutual_tls_requires_a_client_certificate(serve_grpc, pki) -> None:
    args = [
        "--workers", "1", "--tls-cert", str(pki["server"]), "--tls-key", str(pki["server_key"]),
        "--tls-client-ca", str(pki["ca"]),
    ]  # fmt: skip
    with serve_grpc(*args) as server:
        reply = evaluate_call(_tls_channel(server.address, pki, client_cert=True))
        assert reply.hand.name == "three twos"
        with pytest.raises(grpc.RpcError) as caught:
            evaluate_call(_tls_channel(server.address, pki, client_cert=False))
        assert caught.value.code() == grpc.StatusCode.UNAVAILABLE


# --- limits ---------------------------------------------------------------------------------


def test_calls_over_the_concurrency_cap_get_resource_exhausted(serve_grpc) -> None:
    """With a cap of 1 call per worker and a 0.3 s queue, a second call while a long one runs
    is shed; health Watch streams do not take the slot (issue 15, D4)."""
    from cpsolver.cards import parse_cards
    from cpsolver.v1 import chlust_pb2, chlust_pb2_grpc
    from cpsolver.wire.cards import cards_to_wire

    env = {"CPSOLVER_MAX_QUEUE_WAIT": "0.3"}
    with serve_grpc("--workers", "1", "--max-concurrent-rpcs", "1", env=env) as server:
        channel = server.channel()
        health = health_pb2_grpc.HealthStub(channel)
        watch = health.Watch(health_pb2.HealthCheckRequest(service=SERVICE))  # stays open
        assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
        assert evaluate_call(channel).hand.name == "three twos"  # the watch took no slot
        advise = chlust_pb2.AdvisePlayRequest(
            hand=cards_to_wire(parse_cards("Qd Qh Tc")), trump=cards_pb2.SUIT_SPADES,
            seat=0, seats=[0, 1, 2, 3], trick=chlust_pb2.TrickRecord(leader=0),
            turned=cards_to_wire(parse_cards("Js"))[0], samples=5000,
        )  # fmt: skip
        long_call = chlust_pb2_grpc.ChlustServiceStub(channel).AdvisePlay.future(advise, timeout=3)
        time.sleep(0.3)
        with pytest.raises(grpc.RpcError) as caught:
            evaluate_call(channel)
        assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        long_call.cancel()
        watch.cancel()
        for _ in range(50):  # the slot frees once the server sees the cancellation
            try:
                assert evaluate_call(channel).hand.name == "three twos"
                break
            except grpc.RpcError as exc:
                assert exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                time.sleep(0.05)
        else:
            pytest.fail("the slot was never released")


def test_oversized_message_is_refused(serve_grpc) -> None:
    with serve_grpc("--workers", "1", "--max-message-bytes", "1024") as server:
        stub = chinese_poker_pb2_grpc.ChinesePokerServiceStub(server.channel())
        request = chinese_poker_pb2.EvaluateHandRequest(cards=TRIPS * 200)
        with pytest.raises(grpc.RpcError) as caught:
            stub.EvaluateHand(request, timeout=10)
        assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


# --- graceful shutdown ------------------------------------------------------------------------


def test_sigterm_turns_health_not_serving_then_exits_cleanly(serve_grpc) -> None:
    # A drain keeps the server up while health says NOT_SERVING, so a watcher is told before
    # the streams are cancelled. Without one (--drain 0) the update races the GOAWAY, and under
    # load the GOAWAY won (CI, 2026-12-03): watchers then learn it from the GOAWAY instead.
    with serve_grpc("--workers", "1", "--drain", "1", "--grace", "1") as server:
        health = health_pb2_grpc.HealthStub(server.channel())
        watch = health.Watch(health_pb2.HealthCheckRequest(service=SERVICE))
        assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
        server.proc.send_signal(signal.SIGTERM)
        assert next(watch).status == health_pb2.HealthCheckResponse.NOT_SERVING
        assert server.proc.wait(timeout=20) == 0

"""The typed client (issue 5): LocalSolver and RemoteSolver give the same library types and
errors; retries on UNAVAILABLE, deadlines, round_robin and the bearer token work over gRPC.

The real server (``cpsolver serve``, the ``grpc_server`` fixture) answers the equality, error
and deadline tests; retries and load balancing need a server that fails on purpose or several
servers, so those use in-test gRPC servers that serve the real servicer
(:class:`cpsolver.server.chinese_poker.ChinesePokerServicer`) behind a counter.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent import futures

import grpc
import pytest

from cpsolver import InvalidInputError, evaluate, parse_cards, solve
from cpsolver.client import (
    DeadlineExceededError,
    LocalSolver,
    RemoteError,
    RemoteSolver,
    RetryPolicy,
    ServerUnavailableError,
    Solver,
    connect,
)
from cpsolver.server.chinese_poker import ChinesePokerServicer
from cpsolver.server.services import ServiceLimits
from cpsolver.v1 import cards_pb2, chinese_poker_pb2, chinese_poker_pb2_grpc

HANDS = [
    "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s",
    "As Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s",  # CP-E10 dragon
    "2c 3d 4h Ah Kd Qc Jd Ts As Ks Qd Jc Th",  # CP-E3
    "2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As",  # CP-E9 six pairs
]


@pytest.fixture(scope="module")
def remote(grpc_server) -> Iterator[RemoteSolver]:  # type: ignore[no-untyped-def]
    with RemoteSolver(grpc_server.address, timeout=30) as client:
        yield client


def test_both_solvers_implement_the_protocol(remote: RemoteSolver) -> None:
    assert isinstance(remote, Solver) and isinstance(LocalSolver(), Solver)
    assert isinstance(connect(None), LocalSolver)


@pytest.mark.parametrize("hand", HANDS)
def test_remote_solution_equals_the_library(remote: RemoteSolver, hand: str) -> None:
    """The same Solution value (rows, hands, royalties, naturals, alternatives) either way."""
    cases = (
        ("standard", {}),
        ("eastern", {}),
        ("eastern", {"order": "strict", "objective": "strength"}),  # ev: no tables for strict
    )
    for rules, overrides in cases:
        expected = solve(hand, rules, alternatives=3, **overrides)
        got = remote.solve(hand, rules, alternatives=3, **overrides)
        assert got == expected
        assert got.to_dict() == expected.to_dict()
        assert got.natural == expected.natural


def test_remote_batch_equals_local_batch_with_errors_in_place(remote: RemoteSolver) -> None:
    hands = [*HANDS, "As Ks", HANDS[0]]
    local = list(LocalSolver().solve_batch(hands, "two_four"))
    got = list(remote.solve_batch(hands, "two_four"))
    assert len(got) == len(hands)
    for mine, theirs in zip(got, local, strict=True):
        if isinstance(theirs, Exception):
            assert isinstance(mine, InvalidInputError) and str(mine) == str(theirs)
        else:
            assert mine == theirs
    assert got[1].natural is None  # type: ignore[union-attr]  # two_four: naturals off


def test_remote_evaluate_equals_the_library(remote: RemoteSolver) -> None:
    """CP-E4 under both wheel options: the same HandValue (strength, category, cards, name)."""
    for text in ("Ah 2d 3h 4s 5c", "6s 5h 4d 3c 2s", "Qs Qd 2c"):
        for wheel in ("lowest", "second_highest"):
            expected = evaluate(text, wheel_second_highest=wheel == "second_highest")
            got = remote.evaluate(text, wheel=wheel)
            assert (got.strength, got.category, got.cards, got.name, got.is_royal) == (
                expected.strength,
                expected.category,
                expected.cards,
                expected.name,
                expected.is_royal,
            )


def _library_error(hand: str) -> InvalidInputError:
    with pytest.raises(InvalidInputError) as caught:
        solve(hand)
    return caught.value


def test_invalid_argument_is_the_library_error(remote: RemoteSolver) -> None:
    """INVALID_ARGUMENT + BadRequest -> InvalidInputError with the library's violations: the
    same structured paths (the wire shows cards[12], the library's text cards[13])."""
    short = HANDS[0].rsplit(" ", 1)[0]
    with pytest.raises(InvalidInputError) as caught:
        remote.solve(short)
    assert caught.value.violations == _library_error(short).violations
    # a duplicate card reaches the server only from a raw request (the client parses first)
    duplicate = HANDS[0].replace("3s", "As")
    cards = [
        cards_pb2.Card(rank=int(c.rank), suit="cdhs".index(c.suit.value) + 1)
        for c in parse_cards(duplicate.split()[:12])
    ]
    cards.append(cards[0])
    request = chinese_poker_pb2.SolveRequest(cards=cards)
    with pytest.raises(InvalidInputError) as caught:
        remote.backend._call(remote.backend._chinese.Solve, request, None)
    assert caught.value.violations == _library_error(duplicate).violations
    assert caught.value.violations[0].field == "cards[12]"
    assert caught.value.violations[0].path == ("cards", 12)


def test_deadline_exceeded_on_a_long_batch(remote: RemoteSolver) -> None:
    """A per-call deadline shorter than the work ends the call with DeadlineExceededError."""
    many = [HANDS[0]] * 1000
    started = time.monotonic()
    with pytest.raises(DeadlineExceededError):
        list(remote.solve_batch(many, timeout=0.05))
    assert time.monotonic() - started < 10
    assert remote.evaluate("Qs Qd 2c").name == "pair of queens, 2 kicker"  # still usable


def test_unreachable_server_is_server_unavailable() -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with RemoteSolver(f"127.0.0.1:{port}", timeout=10) as client:
        with pytest.raises(ServerUnavailableError) as caught:
            client.evaluate("Qs Qd 2c")
        assert caught.value.code == "UNAVAILABLE"
        with pytest.raises(ServerUnavailableError):
            client.wait_ready(timeout=0.2)


# --- retries, round_robin and the token, with in-test servers -----------------------------


class Flaky(ChinesePokerServicer):
    """The real servicer, answering UNAVAILABLE to the first ``failures`` calls and counting
    calls and the authorization header it saw."""

    def __init__(self, failures: int = 0) -> None:
        super().__init__(ServiceLimits())
        self.failures = failures
        self.calls = 0
        self.authorization: list[str] = []
        self._lock = threading.Lock()

    def EvaluateHand(self, request, context):  # type: ignore[no-untyped-def]
        with self._lock:
            self.calls += 1
            failing = self.calls <= self.failures
        metadata = dict(context.invocation_metadata())
        self.authorization.append(metadata.get("authorization", ""))
        if failing:
            context.abort(grpc.StatusCode.UNAVAILABLE, "warming up")
        return super().EvaluateHand(request, context)


@pytest.fixture
def flaky_servers() -> Iterator[list[tuple[Flaky, int]]]:
    """Two in-process servers on loopback (set ``failures`` on them before calling)."""
    made = []
    for _ in range(2):
        servicer = Flaky()
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        chinese_poker_pb2_grpc.add_ChinesePokerServiceServicer_to_server(servicer, server)
        port = server.add_insecure_port("127.0.0.1:0")
        server.start()
        made.append((servicer, port, server))
    yield [(s, p) for s, p, _ in made]
    for _, _, server in made:
        server.stop(None)


def test_unavailable_is_retried_with_backoff(flaky_servers) -> None:  # type: ignore[no-untyped-def]
    servicer, port = flaky_servers[0]
    servicer.failures = 2
    policy = RetryPolicy(max_attempts=4, initial_backoff=0.05, max_backoff=0.2)
    with RemoteSolver(f"127.0.0.1:{port}", retry=policy, token="s3cret") as client:
        hand = client.evaluate("Jh Js 4c 4d Jd")
    assert hand.name == "full house, jacks over fours" and hand.strength == 7705
    assert servicer.calls == 3  # two UNAVAILABLE answers, then the retry that worked
    assert servicer.authorization == ["Bearer s3cret"] * 3


def test_without_retries_unavailable_surfaces(flaky_servers) -> None:  # type: ignore[no-untyped-def]
    servicer, port = flaky_servers[0]
    servicer.failures = 1
    client = RemoteSolver(f"127.0.0.1:{port}", retry=None)
    with client, pytest.raises(ServerUnavailableError, match="warming up"):
        client.evaluate("Qs Qd 2c")
    assert servicer.calls == 1


def test_attempts_are_capped(flaky_servers) -> None:  # type: ignore[no-untyped-def]
    servicer, port = flaky_servers[0]
    servicer.failures = 100
    policy = RetryPolicy(max_attempts=3, initial_backoff=0.01, max_backoff=0.05)
    client = RemoteSolver(f"127.0.0.1:{port}", retry=policy)
    with client, pytest.raises(ServerUnavailableError):
        client.evaluate("Qs Qd 2c")
    assert servicer.calls == 3


def test_round_robin_spreads_calls_over_every_address(flaky_servers) -> None:  # type: ignore[no-untyped-def]
    """A target that resolves to two addresses: round_robin sends calls to both."""
    (first, p1), (second, p2) = flaky_servers
    with RemoteSolver(f"ipv4:127.0.0.1:{p1},127.0.0.1:{p2}") as client:
        client.wait_ready(5)
        for _ in range(20):
            assert client.evaluate("Qs Qd 2c").category.name == "PAIR"
    assert first.calls + second.calls == 20
    assert first.calls >= 5 and second.calls >= 5
    with RemoteSolver(f"ipv4:127.0.0.1:{p1},127.0.0.1:{p2}", load_balancing="pick_first") as one:
        before = (first.calls, second.calls)
        for _ in range(6):
            one.evaluate("Qs Qd 2c")
        assert sorted((first.calls - before[0], second.calls - before[1])) == [0, 6]


def test_other_statuses_are_remote_errors(flaky_servers) -> None:  # type: ignore[no-untyped-def]
    _, port = flaky_servers[0]
    """A status that is neither a library error nor a transport one is a RemoteError."""
    with RemoteSolver(f"127.0.0.1:{port}") as client:
        method = "/cpsolver.v1.ChinesePokerService/NoSuchMethod"
        missing = client.backend._channel.unary_unary(method)
        with pytest.raises(RemoteError) as caught:
            client.backend._call(missing, b"", None)
    assert caught.value.code == "UNIMPLEMENTED"
    assert not isinstance(caught.value, ServerUnavailableError)


def _self_signed() -> tuple[bytes, bytes]:
    """A throwaway certificate (and key) for 127.0.0.1, valid for a day."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    pem_key = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return cert.public_bytes(serialization.Encoding.PEM), pem_key


def test_tls_with_a_custom_root(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """root_certificates (a path here) makes a TLS channel that verifies the server."""
    cert, key = _self_signed()
    servicer = Flaky()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    chinese_poker_pb2_grpc.add_ChinesePokerServiceServicer_to_server(servicer, server)
    port = server.add_secure_port("127.0.0.1:0", grpc.ssl_server_credentials([(key, cert)]))
    server.start()
    try:
        (tmp_path / "ca.pem").write_bytes(cert)
        with RemoteSolver(f"127.0.0.1:{port}", root_certificates=tmp_path / "ca.pem") as client:
            assert client.evaluate("Qs Qd 2c").name == "pair of queens, 2 kicker"
        plain = RemoteSolver(f"127.0.0.1:{port}", retry=None, timeout=5)
        with plain, pytest.raises(ServerUnavailableError):  # plaintext to a TLS port
            plain.evaluate("Qs Qd 2c")
    finally:
        server.stop(None)
    assert servicer.calls == 1


def test_remote_score_equals_the_library(remote: RemoteSolver) -> None:
    """ScoreTable settles like solver.score: CP-E6 (royalties) and a declared natural
    (CP-E9 six pairs collects 3 from each opponent)."""
    from cpsolver import score

    cp_e6 = {
        "A": {"front": "8s 8h 8d", "middle": "4c 4d 4h Ks Kd", "back": "Qs Qh Qd Qc 2c"},
        "B": {"front": "As Ah 3c", "middle": "9s 9h 9c 7h 7c", "back": "3s 4s 5s 6s 7s"},
    }
    for overrides in ({}, {"royalty_mode": "add"}, {"royalties": "none"}):
        got = remote.score(cp_e6, **overrides)
        expected = score(cp_e6, **overrides)
        assert got.to_dict() == expected.to_dict()
        assert got.pairings == expected.pairings
    assert remote.score(cp_e6).net == (-4, 4)  # CP-E6
    listed = remote.score(list(cp_e6.values()))  # seat by seat: seats N, E
    assert listed == score(list(cp_e6.values())) and listed.seats == ("N", "E")
    with_natural = {
        "N": {"cards": "2s 2h 5d 5c 7s 7h 9d 9c Js Jh Kd Kc As", "natural": True},
        "E": {"front": "Ah Qd 3c", "middle": "Tc Td 6h 6c Ks", "back": "8d 9s Th Jc Qc"},
        "S": solve("Ad Qh 8s 8h 6s 4s 4h 3s 3h 2d 6d 7c 5s"),
    }
    got = remote.score(with_natural)
    assert got.to_dict() == score(with_natural).to_dict()
    assert got.net[0] == 6
    with pytest.raises(InvalidInputError) as caught:
        remote.score({"N": with_natural["N"], "E": {"front": "Ah Qd", "middle": "", "back": ""}})
    assert caught.value.field.startswith("players.E.")
    with pytest.raises(InvalidInputError) as caught:
        remote.score([with_natural["N"], {"front": "Ah Qd", "middle": "", "back": ""}])
    assert caught.value.field.startswith("players[1].")

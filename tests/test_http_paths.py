"""Every RPC has one HTTP/JSON path (issue 30): its ``google.api.http`` annotation is
``POST /v1/<service>:<method>`` with the whole request as the body, by one rule (the service's
name without ``Service`` in kebab case, the method's in lower camel case), and docs/API.md's
table of paths names every service's prefix. Envoy's transcoder reads these annotations
(deploy/envoy/envoy.yaml, ``auto_mapping: false``), so an RPC without one has no HTTP path."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("grpc")

from google.api import annotations_pb2

from cpsolver.v1 import chinese_poker_pb2, chlust_pb2, open_face_pb2, three_leaves_pb2

ROOT = Path(__file__).resolve().parent.parent
MODULES = (chinese_poker_pb2, chlust_pb2, three_leaves_pb2, open_face_pb2)
# Written out, not derived: the rule the tests hold the annotations to.
PREFIXES = {
    "ChinesePokerService": "chinese-poker",
    "ChlustService": "chlust",
    "ThreeLeavesService": "three-leaves",
    "OpenFaceService": "open-face",
}


def _services():
    for module in MODULES:
        yield from module.DESCRIPTOR.services_by_name.values()


def test_every_rpc_has_its_http_path() -> None:
    seen = []
    for service in _services():
        for method in service.methods:
            rule = method.GetOptions().Extensions[annotations_pb2.http]
            verb = method.name[0].lower() + method.name[1:]
            assert rule.post == f"/v1/{PREFIXES[service.name]}:{verb}", method.full_name
            assert rule.body == "*", method.full_name
            assert not rule.additional_bindings, method.full_name
            seen.append(rule.post)
    assert len(seen) == len(set(seen)) == 26
    assert {s.name for s in _services()} == set(PREFIXES)


def test_api_md_lists_every_service_path() -> None:
    text = (ROOT / "docs" / "API.md").read_text()
    found = re.findall(r"^\| `/v1/([a-z-]+):<method>`.* \| `cpsolver\.v1\.(\w+)` \|$", text, re.M)
    rows = {service: prefix for prefix, service in found}
    assert rows == PREFIXES

"""The deploy story, tested by what runs here (no container runtime, no cluster):

* the image recipe passes hadolint, and its entry point, run with the recipe's own environment
  as its non-root user would (read-only files, a baked kernel cache), serves and answers its
  own HEALTHCHECK command;
* every Kubernetes manifest validates offline against the Kubernetes schemas (strict: unknown
  fields fail), and the manifests agree with each other and with the server (ports, labels,
  environment variables that are real options, resources that match the workers, a drain
  that fits the termination grace period).
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import kubernetes_validate
import pytest
import yaml
from conftest import NO_OVERRIDE, RunningServer, clean_env, running_server

from cpsolver.client.cli.main import main
from cpsolver.server.cli import env_var

ROOT = Path(__file__).resolve().parent.parent
CONTAINERFILE = ROOT / "deploy" / "Containerfile"
MANIFESTS = sorted((ROOT / "deploy" / "kubernetes").glob("*.yaml"))
KUBERNETES = kubernetes_validate.latest_version()


def _instructions() -> list[tuple[str, str]]:
    """The Containerfile as (INSTRUCTION, arguments), continuation lines joined."""
    text = CONTAINERFILE.read_text().replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines()]
    found = []
    for line in lines:
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def _final_stage() -> list[tuple[str, str]]:
    instructions = _instructions()
    last_from = max(i for i, (k, _) in enumerate(instructions) if k == "FROM")
    return instructions[last_from:]


def _image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for keyword, rest in _final_stage():
        if keyword == "ENV":
            for pair in shlex.split(rest):
                name, _, value = pair.partition("=")
                env[name] = value
    return env


def test_the_recipe_passes_hadolint() -> None:
    hadolint = Path(sys.executable).with_name("hadolint")
    run = subprocess.run([str(hadolint), str(CONTAINERFILE)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_hadolint_can_fail() -> None:
    """The lint is real: a recipe running as root with an unpinned apt-get install fails."""
    hadolint = Path(sys.executable).with_name("hadolint")
    bad = "FROM python:3.11-slim\nRUN apt-get install curl\n"
    run = subprocess.run([str(hadolint), "-"], input=bad, capture_output=True, text=True)
    assert run.returncode != 0 and "DL3008" in run.stdout


def test_the_recipe_is_multi_stage_slim_non_root_and_compiles_the_kernels() -> None:
    instructions = _instructions()
    assert sum(1 for keyword, _ in instructions if keyword == "FROM") >= 2
    # ARG NAME=default (a later bare ARG NAME only brings it into a stage)
    args = dict(r.split("=", 1) for k, r in instructions if k == "ARG" and "=" in r)
    assert "slim" in args["PYTHON_IMAGE"]
    final = dict(_final_stage())
    assert final["USER"].split(":")[0] not in ("", "0", "root")
    assert "cpsolver compile /opt/cpsolver/kernels" in final["RUN"]
    assert "grpc" in args["EXTRAS"].split(",") and "[${EXTRAS}]" in final["RUN"]
    assert _image_env()["CPSOLVER_KERNEL_CACHE"] == "/opt/cpsolver/kernels"
    assert json.loads(final["ENTRYPOINT"]) == ["cpsolver", "serve"]
    assert _image_env()["CPSOLVER_HOST"] == "0.0.0.0"


def test_the_entry_point_serves_read_only_and_answers_its_healthcheck(kernel_cache: Path) -> None:
    """The recipe's ENV and ENTRYPOINT as the image's user runs them: files read-only, the
    kernel cache baked (here: compiled by the fixture, then made read-only)."""
    image_env = {k: v for k, v in _image_env().items() if k != "PATH"}  # no /opt/cpsolver here
    env = clean_env(**image_env)
    env.update(CPSOLVER_KERNEL_CACHE=str(kernel_cache), CPSOLVER_PORT="0")
    env.update(CPSOLVER_METRICS_PORT="0")  # the image's 9090 may be taken on this machine
    entry = json.loads(dict(_final_stage())["ENTRYPOINT"])
    assert entry[:2] == ["cpsolver", "serve"]
    with running_server(*entry[2:], env=env, wrap=NO_OVERRIDE, bare=True) as server:
        healthcheck = dict(_final_stage())["HEALTHCHECK"]
        command = json.loads(healthcheck.split(" CMD ", 1)[1])
        assert command[:2] == ["cpsolver", "health"]
        port = server.address.rsplit(":", 1)[1]
        command = [c.replace("127.0.0.1:50051", f"127.0.0.1:{port}") for c in command]
        cpsolver = Path(sys.executable).with_name("cpsolver")
        run = subprocess.run([str(cpsolver), *command[1:]], capture_output=True, text=True)
        assert run.returncode == 0 and run.stdout.strip() == "server: SERVING", run.stderr
    assert server.address.startswith("0.0.0.0:")
    events = [json.loads(line) for line in server.stderr]  # the image logs JSON
    assert any(e.get("event") == "ready" for e in events)


def test_health_exits_nonzero_when_nothing_serves() -> None:
    cpsolver = Path(sys.executable).with_name("cpsolver")
    run = subprocess.run(
        [str(cpsolver), "health", "--server", "127.0.0.1:1", "--timeout", "1"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert run.returncode == 3 and "server unreachable" in run.stderr


# --- Kubernetes ---------------------------------------------------------------------------


def _documents() -> dict[str, dict[str, Any]]:
    """Every manifest document by kind (one resource per file, kinds are unique)."""
    found: dict[str, dict[str, Any]] = {}
    for path in MANIFESTS:
        for document in yaml.safe_load_all(path.read_text()):
            name = (
                document["kind"] if document["kind"] != "Service" else document["metadata"]["name"]
            )
            assert name not in found, f"{path.name}: a second {name}"
            found[name] = document
    return found


def test_the_manifests_are_the_expected_set() -> None:
    assert set(_documents()) == {
        "Deployment", "cpsolver", "cpsolver-headless", "PodDisruptionBudget",
        "HorizontalPodAutoscaler",
    }  # fmt: skip


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.name)
def test_each_manifest_validates_against_the_kubernetes_schemas(path: Path) -> None:
    for document in yaml.safe_load_all(path.read_text()):
        kubernetes_validate.validate(document, KUBERNETES, strict=True)


def test_the_validation_can_fail() -> None:
    deployment = _documents()["Deployment"]
    broken = json.loads(json.dumps(deployment))
    broken["spec"]["template"]["spec"]["containers"][0]["livenessProbe"]["grpc"]["portt"] = 1
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, KUBERNETES, strict=True)


def _container() -> dict[str, Any]:
    containers = _documents()["Deployment"]["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1
    return containers[0]


def _env() -> dict[str, Any]:
    return {e["name"]: e.get("value", e.get("valueFrom")) for e in _container()["env"]}


def test_every_environment_variable_is_a_serve_option() -> None:
    command = main.get_command(click.Context(main), "serve")
    assert command is not None
    options = {env_var(max(p.opts, key=len)) for p in command.params if isinstance(p, click.Option)}
    assert set(_env()) <= options, set(_env()) - options


def test_probes_are_native_grpc_on_the_serving_port() -> None:
    container = _container()
    port = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert str(port["grpc"]) == _env()["CPSOLVER_PORT"]
    assert str(port["metrics"]) == _env()["CPSOLVER_METRICS_PORT"]
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[probe]["grpc"]["port"] == port["grpc"], probe
    annotations = _documents()["Deployment"]["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/port"] == str(port["metrics"])


def test_resources_match_the_workers_and_the_token_comes_from_a_secret() -> None:
    workers = int(_env()["CPSOLVER_WORKERS"])
    resources = _container()["resources"]
    assert resources["requests"]["cpu"] == resources["limits"]["cpu"] == str(workers)
    assert "secretKeyRef" in _env()["CPSOLVER_TOKEN"]


def test_the_drain_fits_the_termination_grace_period() -> None:
    """preStop (endpoints move away while the pod still serves) + the server's drain (health
    NOT_SERVING, still serving) + its grace for calls in flight + 5 s for the workers to exit
    <= terminationGracePeriodSeconds (the supervisor waits drain + grace + 5 s)."""
    spec = _documents()["Deployment"]["spec"]["template"]["spec"]
    pre_stop = _container()["lifecycle"]["preStop"]["sleep"]["seconds"]
    drain = float(_env().get("CPSOLVER_DRAIN", 0))
    grace = float(_env()["CPSOLVER_GRACE"])
    assert pre_stop + drain + grace + 5 <= spec["terminationGracePeriodSeconds"]


def test_read_only_root_with_a_writable_tmp() -> None:
    container = _container()
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert {m["mountPath"] for m in container["volumeMounts"]} == {"/tmp"}


def test_every_selector_matches_the_pods() -> None:
    documents = _documents()
    labels = documents["Deployment"]["spec"]["template"]["metadata"]["labels"]
    selectors = [
        documents["Deployment"]["spec"]["selector"]["matchLabels"],
        documents["PodDisruptionBudget"]["spec"]["selector"]["matchLabels"],
        documents["cpsolver"]["spec"]["selector"],
        documents["cpsolver-headless"]["spec"]["selector"],
    ]
    for selector in selectors:
        assert selector.items() <= labels.items()
    assert documents["cpsolver-headless"]["spec"]["clusterIP"] == "None"
    target = documents["HorizontalPodAutoscaler"]["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == (
        "Deployment",
        documents["Deployment"]["metadata"]["name"],
    )


def test_the_configuration_example_of_deploy_md_runs_as_written() -> None:
    """docs/DEPLOY.md's console block: the command and its whole output (stderr)."""
    text = (ROOT / "docs" / "DEPLOY.md").read_text()
    block = text.split("```console\n", 1)[1].split("```", 1)[0]
    first, *expected = block.splitlines()
    assignment, command = first.removeprefix("$ ").split(" ", 1)
    name, _, value = assignment.partition("=")
    cpsolver = Path(sys.executable).with_name("cpsolver")
    run = subprocess.run(
        [str(cpsolver), *shlex.split(command)[1:]], env={**clean_env(), name: value},
        capture_output=True, text=True,
    )  # fmt: skip
    assert run.returncode == 2
    assert run.stdout + run.stderr == "\n".join(expected) + "\n"


def test_health_of_an_unknown_service_is_bad_input(grpc_server: RunningServer) -> None:
    cpsolver = Path(sys.executable).with_name("cpsolver")
    known = subprocess.run(
        [str(cpsolver), "health", "--server", grpc_server.address,
         "--service", "cpsolver.v1.ChlustService"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert known.returncode == 0 and known.stdout == "cpsolver.v1.ChlustService: SERVING\n"
    unknown = subprocess.run(
        [str(cpsolver), "health", "--server", grpc_server.address, "--service", "nope"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert unknown.returncode == 2 and "unknown service 'nope'" in unknown.stderr

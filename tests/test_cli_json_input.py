"""The CLI's JSON input (issue 27, defects 8 and 10), through the installed entry point.

D8: the same bad JSON was reported four ways (``file: null: not valid JSON``, ``deal: invalid
JSON: ...``, ``input: malformed JSON in ... at line 1 column 1``...); every command that reads
JSON now says it one way, naming the path (or stdin) and the line and column.

D10: ``cpsolver batch`` read a line whole however long it was (a 1.2 MB line took 3.4 s and
436 MB); a line longer than ``MAX_LINE_BYTES`` is now that line's error, in place, read a chunk
at a time.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cpsolver.client.cli.jsonin import MAX_LINE_BYTES

CLI = "from cpsolver.client.cli import main; main(prog_name='cpsolver')"
HAND = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s"
BAD = '{"hands": 3'  # Expecting ',' delimiter at line 1 column 12
WORDING = "input: {where}: not valid JSON at line {line} column {column}: Expecting ',' delimiter"


def run(
    *args: str, stdin: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CLI, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=cwd,
    )


COMMANDS = [
    ("score",),
    ("chlust", "play"),
    ("leaves", "play"),
    ("leaves", "resolve"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_bad_json_in_a_file_names_the_path_and_the_position(
    command: tuple[str, ...], tmp_path: Path
) -> None:
    (tmp_path / "bad.json").write_text("\n" + BAD)
    out = run(*command, "bad.json", cwd=tmp_path)
    assert (out.returncode, out.stdout) == (2, "")
    wanted = WORDING.format(where="bad.json", line=2, column=12)
    assert out.stderr == f"error: {wanted}\n"


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_bad_json_on_stdin_names_stdin_and_the_position(command: tuple[str, ...]) -> None:
    out = run(*command, "-", stdin=BAD)
    assert (out.returncode, out.stdout) == (2, "")
    assert out.stderr == f"error: {WORDING.format(where='stdin', line=1, column=12)}\n"


def test_bad_json_on_a_batch_line_names_the_path_and_the_position(tmp_path: Path) -> None:
    (tmp_path / "hands.jsonl").write_text(f"{HAND}\n# comment\n  {BAD}\n{HAND}\n")
    out = run("batch", "hands.jsonl", "--objective", "strength", cwd=tmp_path)
    assert out.returncode == 2, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(r["line"], r["ok"]) for r in records] == [(1, True), (3, False), (4, True)]
    wanted = WORDING.format(where="hands.jsonl", line=3, column=14)
    assert records[1]["error"]["message"] == wanted
    stop = run("batch", "-", "--on-error", "stop", "--objective", "strength", stdin=BAD)
    assert stop.returncode == 2
    wanted = WORDING.format(where="stdin", line=1, column=12)
    assert stop.stderr == f"error: line 1: {wanted}\n"


def test_a_missing_file_is_named_the_same_way(tmp_path: Path) -> None:
    for command in COMMANDS:
        out = run(*command, "absent.json", cwd=tmp_path)
        assert out.returncode == 2, command
        assert "absent.json" in out.stderr and len(out.stderr.splitlines()) == 1, out.stderr


def _batch_peak_kib(tmp_path: Path, text: bytes) -> tuple[subprocess.CompletedProcess[str], int]:
    """``cpsolver batch`` over ``text`` in a child of a fresh interpreter, and that child's peak
    resident memory (KiB)."""
    source = tmp_path / "in.jsonl"
    source.write_bytes(text)
    probe = (
        "import resource, subprocess, sys\n"
        f"run = subprocess.run([sys.executable, '-c', {CLI!r}, 'batch', {str(source)!r},"
        " '--objective', 'strength'], capture_output=True, text=True)\n"
        "sys.stdout.write(run.stdout)\n"
        "sys.stderr.write(run.stderr)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
        "sys.exit(run.returncode)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, check=False
    )
    *rest, peak = out.stderr.splitlines()
    out.stderr = "\n".join(rest)
    return out, int(peak)


def test_batch_refuses_an_over_long_line_in_place_without_reading_it_whole(
    tmp_path: Path,
) -> None:
    long_line = b'{"cards": "' + b"As " * (64 * 1024 * 1024 // 3) + b'"}'
    text = f"{HAND}\n".encode() + long_line + f"\n{HAND}\n".encode()
    out, peak = _batch_peak_kib(tmp_path, text)
    assert out.returncode == 2, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(r["line"], r["ok"]) for r in records] == [(1, True), (2, False), (3, True)]
    assert records[1]["error"]["message"] == (
        f"input: line longer than {MAX_LINE_BYTES:,} bytes, the most a batch line may hold;"
        " not read"
    )
    _, baseline = _batch_peak_kib(tmp_path, f"{HAND}\n{HAND}\n".encode())
    assert peak - baseline < 16 * 1024, (peak, baseline)  # the 64 MB line was never held


def test_a_line_of_exactly_the_limit_is_read(tmp_path: Path) -> None:
    padding = " " * (MAX_LINE_BYTES - len(HAND))
    (tmp_path / "in.txt").write_text(f"{HAND}{padding}\n{HAND}{padding} \n")
    out = run("batch", "in.txt", "--objective", "strength", cwd=tmp_path)
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(r["line"], r["ok"]) for r in records] == [(1, True), (2, False)]

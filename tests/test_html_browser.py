"""``--html`` pages of ``solve``, ``rate`` and ``review`` opened in a real headless Chromium
(issue 29): a screenshot is taken, the page logs nothing to the console, and the cards and
numbers are in the DOM Chromium built. CI installs Debian's ``chromium`` (.ci/run).
"""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from helpers import run_cli

from cpsolver import rate, solve
from cpsolver.cards import parse_cards

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--enable-logging=stderr", "--v=0",
]  # fmt: skip
HAND = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 7c 5d 3s"
PLAYED = ("Ah Kd 9s 9c 2s", "7h 7d 5c 4s Jc", "3h 3d Td")


def chromium(page: Path, tmp: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    if not Path(CHROMIUM).exists():
        pytest.fail("chromium is not installed: apt-get install -y chromium (.ci/run does)")
    profile = tmp / f"profile-{len(list(tmp.glob('profile-*')))}"
    profile.mkdir()
    return subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *extra, page.as_uri()],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip


def dom_and_console(page: Path, tmp: Path) -> tuple[str, list[str]]:
    """The DOM Chromium built and the page's console messages (its log's CONSOLE lines)."""
    run = chromium(page, tmp, "--dump-dom")
    return run.stdout, [line for line in run.stderr.splitlines() if ":CONSOLE" in line]


def screenshot(page: Path, tmp: Path) -> tuple[int, int, int]:
    """Width, height and size in bytes of a screenshot of the page."""
    shot = tmp / f"{page.stem}.png"
    chromium(page, tmp, f"--screenshot={shot}", "--window-size=1000,1200")
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height, len(data)


def cards_in(dom: str) -> list[str]:
    return re.findall(r'data-card="([2-9TJQKA][cdhs])"', dom)


def test_the_console_check_can_fail(tmp_path: Path) -> None:
    """A page that logs an error is caught: the check below is not vacuous."""
    bad = tmp_path / "bad.html"
    bad.write_text("<!DOCTYPE html><p>x</p><script>console.error('boom'); nosuch();</script>")
    _, console = dom_and_console(bad, tmp_path)
    assert any("boom" in line for line in console) and any("nosuch" in line for line in console)


def test_solve_page(tmp_path: Path) -> None:
    page = tmp_path / "solve.html"
    code, _, err = run_cli(["solve", HAND, "--estimator", "model", "--arrangements", "3",
                            "--html", str(page)])  # fmt: skip
    assert code == 0, err
    dom, console = dom_and_console(page, tmp_path)
    assert console == []
    best = solve(HAND, estimator="model", arrangements=3)
    shown = cards_in(dom)
    assert shown[:13] == [str(c) for row in (best.back, best.middle, best.front) for c in row]
    assert sorted(shown[:13]) == sorted(str(c) for c in parse_cards(HAND))
    assert best.ev is not None and f"{best.ev:+.4f}" in dom
    assert "royal flush" in dom and "Alternatives" in dom
    width, height, size = screenshot(page, tmp_path)
    assert (width, height) == (1000, 1200) and size > 10_000


def test_rate_page_of_a_choice_and_of_a_foul(tmp_path: Path) -> None:
    for rows, name in ((PLAYED, "rate"), ((PLAYED[1], PLAYED[0], PLAYED[2]), "foul")):
        page = tmp_path / f"{name}.html"
        code, _, err = run_cli(["rate", *rows, "--estimator", "model", "--html", str(page)])
        assert code == 0, err
        dom, console = dom_and_console(page, tmp_path)
        assert console == []
        rating = rate(rows, estimator="model")
        shown = cards_in(dom)
        assert shown[:13] == [str(c) for r in rating.rows for c in r.cards]
        assert shown[13:26] == [str(c) for r in rating.best_rows for c in r.cards]
        assert f"{rating.ev:+.4f}" in dom and f"{rating.best_ev:+.4f}" in dom
        assert re.search(rf'class="ev-lost">{rating.ev_lost:.4f}<', dom)
        assert ("fouled" in dom) == rating.fouled
        width, _, size = screenshot(page, tmp_path)
        assert width == 1000 and size > 10_000


def test_review_page_plots_every_hand(tmp_path: Path) -> None:
    hands = [
        {"player": "ann", "back": PLAYED[0], "middle": PLAYED[1], "front": PLAYED[2]},
        {"player": "bob", "back": PLAYED[1], "middle": PLAYED[0], "front": PLAYED[2]},
        {"player": "ann", "back": "As Ks Qs Js Ts", "middle": "9h 9d 9c 2h 2d",
         "front": "7c 5d 3s"},
    ]  # fmt: skip
    history = tmp_path / "h.jsonl"
    history.write_text("".join(json.dumps(h) + "\n" for h in hands))
    page = tmp_path / "review.html"
    code, out, err = run_cli(["review", str(history), "--json", "--html", str(page)])
    assert code == 0, err
    doc = json.loads(out)
    dom, console = dom_and_console(page, tmp_path)
    assert console == []
    plot = re.search(r'<svg class="ev-lost-plot".*?</svg>', dom, re.S)
    assert plot is not None and len(re.findall(r"<rect ", plot.group(0))) == 3
    for summary in doc["players"]:
        assert f"{summary['total_ev_lost']:.3f}" in dom
    worst = [str(c) for row in PLAYED for c in parse_cards(row)]
    assert set(worst) <= set(cards_in(dom))
    # The worst hands, each played beside the best arrangement (solve's rows, row by row).
    section = cards_in(dom.split("Worst hands", 1)[1])
    listed = [h for p in doc["players"] for h in p["worst"]]
    assert [h["player"] for h in listed] == ["ann", "bob"] and len(section) == 26 * 2
    for k, hand in enumerate(listed):
        played = [c for row in ("back", "middle", "front") for c in hand["played"][row]]
        assert section[26 * k : 26 * k + 13] == played
        best = solve(" ".join(played))
        shown = section[26 * k + 13 : 26 * k + 26]
        assert [set(shown[:5]), set(shown[5:10]), set(shown[10:])] == [
            {str(c) for c in row} for row in (best.back, best.middle, best.front)
        ]
    width, _, size = screenshot(page, tmp_path)
    assert width == 1000 and size > 10_000

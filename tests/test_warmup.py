"""The warm-up leaves nothing to load for the first request (issue 31's warm-up gap): after the
steps a server's supervisor runs before it forks its workers (``steps(parallel=False)``), the
open-face calls - street advice of both variants, simulated and exact, fantasyland sets of
14-17 cards, a table settled - add no signature to any numba dispatcher, so neither a compile
nor a load from numba's cache falls on a request.

Run in a fresh interpreter: this test process may have called the kernels already. A
dispatcher's signatures are the ones compiled or loaded in its own process, so the check does
not depend on what numba's disk cache holds (with a cold cache the warm-up compiles first,
and the test takes longer).
"""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = r"""
import json
import warnings

# the warm-up asks the way users are told to (a deprecated name of ours would warn in every
# server's log at start)
warnings.filterwarnings("error", ".* is deprecated; use ", DeprecationWarning)

from cpsolver import jit, ofc
from cpsolver.warmup import steps

for _, call in steps(parallel=False):
    call()
warm = jit.signatures()

board = {"back": "As Ad Ac 9s 9d", "middle": "Ks Kd 4c 4d", "front": "Qs 3h"}
done = {"back": "Ts 9h 8c 7d 6s", "middle": "Jh Jd 5c 5d 2s", "front": "Th Td 3c"}
ofc.advise({"street": 1, "hand": "As Kd 7c 7h 2s", "opponents": [{}, {}]}, samples=16, seed=3)
ofc.advise({"street": 5, "hand": "Qd 2c 7h", "board": board, "opponents": [done]},
           fantasyland_value=12)
ofc.advise({"street": 5, "hand": "Qd 2c 7h", "board": board,
            "opponents": [{"back": "Ts 9h 8c", "middle": "Jh Jd", "front": "Th Td"}]},
           samples=16)
ofc.advise({"street": 3, "hand": "Qd 2c 7h", "board": {"back": "As Ad", "middle": "Ks Kd 4c",
            "front": "Qs 3h"}, "opponents": [{}]}, "pineapple", samples=16,
           fantasyland="progressive", budget_ms=5000.0, fills=4)
ofc.advise({"street": 1, "hand": "As Kd 7c 7h 2s", "opponents": [{}, {}, {}]}, "classic",
           samples=8)
ofc.advise({"street": 9, "hand": "Qd", "board": {**board, "middle": "Ks Kd 4c 4d 7h"},
            "opponents": [done]}, "classic")
ofc.fantasyland("As Ah Ad Kh Kd Ks Qs Jh Th 9c 8c 7c 6c 2d", fantasyland_value=10)
ofc.fantasyland("As Ah Ad Kh Kd Ks Qs Jh Th 9c 8c 7c 6c 2d")
ofc.fantasyland("As Ah Ad Kh Kd Ks Qs Jh Th 9c 8c 7c 6c 2d 3d 4d 5h", fantasyland="progressive",
                fantasyland_value=3)
ofc.fantasyland("As Ah Ad Kh Kd Ks Qs Jh Th 9c 8c 7c 6c 2d", objective="ev", samples=16, seed=1)
ofc.fantasyland("As Ah Ad Kh Kd Ks Qs Jh Th 9c 8c 7c 6c 2d 3d 4d", objective="ev", samples=8,
                fantasyland="progressive", fantasyland_value=5, players=2)
ofc.score({"A": {"back": "2s 2h 2d 2c Ks", "middle": "As Ah Ad Kh Kd", "front": "Qs Qh 3c"},
           "B": {"back": "9s 8s 7s 6s 5s", "middle": "Th Td Tc 3h 3d", "front": "Jc Jd 4s"}})
ofc.deal(7)
print(json.dumps({"warm": warm, "after": jit.signatures()}))
"""


def test_open_face_calls_load_no_kernel_after_the_warm_up() -> None:
    run = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=900
    )
    assert run.returncode == 0, run.stderr[-3000:]
    found = json.loads(run.stdout.splitlines()[-1])
    warm, after = found["warm"], found["after"]
    added = {name: n - warm.get(name, 0) for name, n in after.items() if n != warm.get(name, 0)}
    assert added == {}, f"kernels loaded or compiled by the first open-face calls: {added}"
    # the probe did reach the open-face kernels (else it would prove nothing)
    assert after.get("cpsolver.ofc.simulate.play_rollouts", 0) >= 1, sorted(after)
    assert after.get("cpsolver.ofc.simulate.play_fantasyland", 0) >= 1, sorted(after)

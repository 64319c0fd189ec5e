"""Determinism (issue 15 item 4): a busy scene gives the same bits in this process, in another
process, after its rows were used by bodies destroyed before, and after a pickle taken
midway (the hash of every column of every store); and the hash of its motion after N steps
matches the one stored for this platform (Box2D v3's "falling hinges" check, our own scene).

The stored hash is kept per :func:`impulse2d.snapshot.platform_key` (CPU architecture, OS, C
library, Python, NumPy and Numba versions, SVML): the cross-process and in-process checks run
everywhere, the stored one where a hash was recorded for the platform (here, the CI machine)
and is skipped, saying so, elsewhere. A deliberate change of the step's arithmetic (a solver
change, a new default such as continuous collision) changes the hash: record it again with
``IMPULSE2D_RECORD_HASHES=1 pytest tests/test_determinism.py`` and say so in the commit.
"""

from __future__ import annotations

import json
import math
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

import impulse2d as i2d
from impulse2d.snapshot import platform_key

DT = 1.0 / 60.0
STEPS = 400
HASHES = Path(__file__).with_name("determinism_hashes.json")
SRC = str(Path(__file__).resolve().parents[1] / "src")


def falling_hinges(world, columns=4, rows=24, half=0.25):
    """Columns of boxes hinged corner to corner, each box shifted sideways a little and turned
    a little (alternately), so that every column buckles, folds and falls onto its
    neighbours: hundreds of contacts and joints in one island, and sleep at the end."""
    ground = world.create_body(type="static")
    ground.create_box(20.0, 1.0, center=(0.0, -1.0))
    for i in range(columns):
        x = (i - 0.5 * (columns - 1)) * 10.0 * half
        previous = None
        for j in range(rows):
            shift = 0.4 * half * (1 if j % 2 else -1) * (1 + 0.1 * i)
            angle = 0.05 * (1 if (i + j) % 2 else -1)
            body = world.create_body(position=(x + shift, half + 2.0 * half * j), angle=angle)
            body.create_box(half, half, friction=0.6)
            if previous is not None:
                corner = (x + (half if j % 2 else -half), 2.0 * half * j)
                world.create_revolute_joint(previous, body, corner, enable_spring=True,
                                            hertz=4.0, damping_ratio=0.5)
            previous = body
    return world


def hinges_hash(steps=STEPS, motion_only=False) -> str:
    world = falling_hinges(i2d.World())
    for _ in range(steps):
        world.step(DT)
    return world.state_hash(motion_only)


def _in_subprocess(code: str) -> str:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + str(Path(__file__).parent)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def here():
    return hinges_hash()


def test_the_scene_is_busy():
    world = falling_hinges(i2d.World())
    for _ in range(120):
        world.step(DT)
    # every contact the solver works on, speculative ones included (world.contacts now lists
    # only the touching ones: 42 of them here)
    assert len(world.joints) == 4 * 23 and len(world.get_contacts(touching_only=False)) > 50
    tops = [b.position.y for b in world.bodies[1:]]
    assert max(tops) < 24 * 0.5 - 1.0      # the columns have folded, not stood


def test_same_scene_same_bits_in_this_process(here):
    assert hinges_hash() == here


def test_two_processes_give_the_same_hash(here):
    code = "import test_determinism as t; print(t.hinges_hash())"
    assert _in_subprocess(code) == here
    assert _in_subprocess(code) == here


def test_a_world_pickled_midway_steps_alike_in_another_process(tmp_path):
    world = falling_hinges(i2d.World())
    for _ in range(150):
        world.step(DT)
    path = tmp_path / "world.pickle"
    path.write_bytes(pickle.dumps(world))
    for _ in range(150):
        world.step(DT)
    code = ("import pickle, pathlib; w = pickle.loads(pathlib.Path(%r).read_bytes())\n"
            "for _ in range(150): w.step(1.0 / 60.0)\n"
            "print(w.state_hash())" % str(path))
    assert _in_subprocess(code) == world.state_hash()


def test_reused_rows_give_the_same_bits(here):
    """Bodies, shapes and joints made, stepped and destroyed first: the scene then takes
    their freed rows (lowest first) and steps to the same bits as in a fresh world."""
    world = i2d.World()
    junk = [world.create_body(position=(k - 60.0, 0.45)) for k in range(120)]  # at rest ...
    for k, body in enumerate(junk):
        body.create_circle(0.45) if k % 2 else body.create_box(0.45, 0.45)
    for a, b in zip(junk[:-1:2], junk[1::2]):
        world.create_distance_joint(a, b, tuple(a.position), tuple(b.position))
    junk.append(world.create_body(type="static"))                 # ... on a ground made last
    junk[-1].create_box(80.0, 1.0, center=(0.0, -1.0))
    for _ in range(40):
        world.step(DT)
    assert world._bodies.island_sleep[0] > 0.0    # row 0, the scene's ground next, kept this
    for body in junk:
        world.destroy_body(body)
    falling_hinges(world)
    assert max(b._index for b in world.bodies) < len(junk)   # every row was used before
    for _ in range(STEPS):
        world.step(DT)
    assert world.state_hash() == here


def test_falling_hinges_hash_matches_the_stored_one():
    """The motion's hash (bodies' positions, angles, velocities: a new column or store leaves
    it as it is), stored per platform."""
    here = hinges_hash(motion_only=True)
    key = platform_key()
    stored = json.loads(HASHES.read_text()) if HASHES.exists() else {}
    if os.environ.get("IMPULSE2D_RECORD_HASHES") == "1":
        stored[key] = here
        HASHES.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
    if key not in stored:
        pytest.skip(f"no falling-hinges hash stored for this platform ({key}); record one "
                    "with IMPULSE2D_RECORD_HASHES=1 (the cross-process checks ran)")
    assert here == stored[key], (
        "the falling-hinges scene no longer gives the stored bits on this platform: the step's "
        "arithmetic changed (a deliberate change: record the hash again, see the docstring)")


def test_state_hash_sees_every_change():
    world = falling_hinges(i2d.World(), columns=1, rows=3)
    world.step(DT)
    before, motion = world.state_hash(), world.state_hash(motion_only=True)
    body = world.bodies[2]
    body.angular_velocity = math.nextafter(body.angular_velocity, math.inf)  # one ulp
    assert world.state_hash() != before and world.state_hash(motion_only=True) != motion
    before, motion = world.state_hash(), world.state_hash(motion_only=True)
    world.bodies[1].sleep_threshold = 0.06            # not motion: only the full hash sees it
    assert world.state_hash() != before and world.state_hash(motion_only=True) == motion


if __name__ == "__main__":
    print(hinges_hash())

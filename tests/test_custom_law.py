"""Constraint laws (impulse2d.custom): the generated J and Jdot v against finite differences of
C, and the laws refused with a clear error (the world left as it was)."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import numpy as np
import pytest

sp = pytest.importorskip("sympy")

import impulse2d as i2d  # noqa: E402
from impulse2d.custom import ConstraintLaw, Pose, norm  # noqa: E402
from impulse2d.law_kernels import LawKernel  # noqa: E402

import custom_laws  # noqa: E402

PARAMS = {
    "distance": [0.3, -0.2, 0.1, 0.4, 1.5],
    "point_on_line": [0.2, 0.1, -0.3, 0.2, 0.6, 0.8, 0.1],
    "parabola": [0.7],
    "cycloid": [1.3],
    "rolling": [0.4, 0.2],
    "above_curve": [0.3, 2.0],
    "rope_over_circle": [0.0, 3.0, 0.5, 8.0],
}


def _state(q, qdot):
    """The kernel's state of poses ``q`` (6) and pose rates ``qdot`` (6)."""
    s = np.zeros(16)
    for o, k in ((0, 0), (8, 3)):
        x, y, t = q[k:k + 3]
        s[o:o + 8] = (x, y, t, math.cos(t), math.sin(t), *qdot[k:k + 3])
    return s


def _random_pose(rng, name):
    q = rng.uniform(-1.0, 1.0, 6)
    if name == "rope_over_circle":  # A left and B right, both below the circle at (0, 3)
        q[0], q[1], q[3], q[4] = -2.0 + 0.5 * q[0], 0.5 * q[1], 2.0 + 0.5 * q[3], 0.5 * q[4]
    return q


@pytest.mark.parametrize("make", custom_laws.ALL, ids=lambda f: f.__name__)
def test_jacobian_and_products_match_finite_differences(make):
    """J = dC/dq to 1e-7 (central differences, step 1e-6) and Jdot qdot = d^2C/dt^2 along the
    free motion q + t qdot (second central difference) to 1e-5, at 20 random states."""
    law = make()
    kernel = law.kernel
    params = PARAMS[make.__name__]
    rng = np.random.default_rng(7)
    eps = 1e-6
    for _ in range(20):
        q = _random_pose(rng, make.__name__)
        qdot = rng.uniform(-1.0, 1.0, 6)
        out = kernel.evaluate(_state(q, qdot), params, mode=2)

        def c(x):
            return kernel.evaluate(_state(x, qdot), params)[:, 0]

        for i in range(6):
            dq = np.zeros(6)
            dq[i] = eps
            fd = (c(q + dq) - c(q - dq)) / (2 * eps)
            assert np.allclose(out[:, 1 + i], fd, rtol=0, atol=1e-7), (make.__name__, i)
        h = 1e-4
        second = (c(q + h * qdot) - 2 * c(q) + c(q - h * qdot)) / (h * h)
        assert np.allclose(out[:, 7], second, rtol=1e-5, atol=1e-5), make.__name__


def test_pose_helpers():
    a = Pose("a")
    p = a.world_point((1.0, 0.0)).subs({a.x: 2.0, a.y: 1.0, a.angle: math.pi / 2})
    assert float(p[0]) == pytest.approx(2.0, abs=1e-15)
    assert float(p[1]) == pytest.approx(2.0, abs=1e-15)
    assert Pose("a").x == a.x  # one name, one symbol


@pytest.mark.parametrize("rows, params, error, words", [
    ([sp.nan], [], ValueError, "not finite"),
    ([custom_laws.b.x + sp.zoo], [], ValueError, "not finite"),
    ([float("nan")], [], ValueError, "not finite"),
    ([sp.Symbol("L") - 1], ["L"], ValueError, "depends on no pose"),
    ([sp.Integer(3)], [], ValueError, "depends on no pose"),
    ([custom_laws.b.x] * 4, [], ValueError, "1 to 3 rows"),
    ([], [], ValueError, "1 to 3 rows"),
    ([custom_laws.b.x - sp.Symbol("q")], [], ValueError, "unknown symbols ['q']"),
    (["b.x"], [], TypeError, "SymPy expression"),
    ([custom_laws.b.x], ["L", "L"], ValueError, "named twice"),
    ([custom_laws.b.x], ["b.x"], TypeError, "identifier"),
    ([custom_laws.b.x], [f"p{k}" for k in range(9)], ValueError, "at most 8"),
])
def test_bad_laws_are_refused(rows, params, error, words):
    with pytest.raises(error) as caught:
        ConstraintLaw(rows, params=params)
    assert words in str(caught.value)


def test_inequality_flags_checked():
    with pytest.raises(ValueError, match="2 flags for 1 rows"):
        ConstraintLaw([custom_laws.b.x], inequality=[True, False])
    with pytest.raises(TypeError, match="bools"):
        ConstraintLaw([custom_laws.b.x], inequality=[1])


def test_bad_joints_are_refused_and_change_nothing():
    """A bad parameter, a bad bound, a law that is not finite where the joint starts (two
    coinciding points of a distance law), or not a law at all: a clear error, and the world
    is as it was (no joint, no law, the same state hash)."""
    world = i2d.World()
    ground = world.create_body(type="static")
    bob = world.create_body(position=(0.0, 0.0))
    bob.create_circle(0.1)
    law = custom_laws.distance()
    before = world.state_hash()
    good = {"ax": 0.0, "ay": 0.0, "bx": 0.0, "by": 0.0, "L": 1.0}
    cases = [
        (dict(params={**good, "L": float("nan")}), ValueError, "finite"),
        (dict(params={**good, "M": 1.0}), ValueError, "unknown parameters ['M']"),
        (dict(params={"ax": 0.0}), ValueError, "'ay'"),
        (dict(params=good, lower=2.0, upper=1.0), ValueError, "above upper"),
        (dict(params=good, hertz=-1.0), ValueError, "hertz"),
        (dict(params=good, lower=[0.0, 1.0]), ValueError, "2 entries"),
        (dict(params=good), ValueError, "not finite"),  # |0| has no derivative: J is NaN
    ]
    for kwargs, error, words in cases:
        with pytest.raises(error) as caught:
            world.create_custom_joint(ground, bob, law, **kwargs)
        assert words in str(caught.value), kwargs
    with pytest.raises(TypeError, match="ConstraintLaw"):
        world.create_custom_joint(ground, bob, "not a law")
    with pytest.raises(ValueError, match="same body"):
        world.create_custom_joint(bob, bob, law, params={**good, "bx": 1.0})
    assert world.joints == [] and world._laws == []
    assert world.state_hash() == before


def test_kernel_source_is_keyed_and_loads_in_a_second_process(tmp_path):
    """The generated file is named by the hash of its text; a second process loads the
    compiled law from Numba's cache instead of compiling it (Numba counts a cache hit)."""
    law = custom_laws.parabola()
    kernel = law.kernel
    law.compile()
    path = kernel.path()
    assert os.path.basename(path) == f"law_{kernel.key}.py"
    cache = kernel.dispatcher()._cache._cache_path  # Numba's own locator decides where
    assert any(name.startswith(f"law_{kernel.key}") and name.endswith(".nbi")
               for name in os.listdir(cache))
    code = ("import pickle, sys; k = pickle.loads(sys.stdin.buffer.read()); k.address(); "
            "s = k.dispatcher().stats; print(sum(s.cache_hits.values()), "
            "sum(s.cache_misses.values()))")
    import pickle
    done = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(kernel),
                          capture_output=True, check=True)
    hits, misses = map(int, done.stdout.split())
    assert (hits, misses) == (1, 0)  # loaded from the disk cache, not compiled
    assert pickle.loads(pickle.dumps(kernel)).key == kernel.key
    assert isinstance(pickle.loads(pickle.dumps(kernel)), LawKernel)


def test_cos_and_sin_of_an_angle_cost_no_call():
    """A law written with world points reads the bodies' cos and sin, not their angles."""
    assert not custom_laws.distance().kernel.uses_angle
    assert custom_laws.rolling().kernel.uses_angle
    assert "math.cos" not in custom_laws.distance().kernel.source


def test_norm_of_a_vector():
    b = custom_laws.b
    law = ConstraintLaw([norm(b.position) - 1])
    out = law.kernel.evaluate(_state(np.array([0, 0, 0, 3.0, 4.0, 0]), np.zeros(6)), [])
    assert out[0, 0] == pytest.approx(4.0, abs=1e-15)

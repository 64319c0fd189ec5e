"""Graph colouring: the solve order is a permutation in which no colour repeats a dynamic body."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from impulse2d._core.state import DYNAMIC, STATIC
from impulse2d._dynamics.constraint_graph import color_contacts

EVERY = np.empty(0, dtype=np.int64)  # the rows argument, not read with n_rows = -1: every contact


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(0, 2)), max_size=200),
    st.lists(st.booleans(), min_size=n, max_size=n),
    st.integers(1, 8))))
def test_colours_never_share_a_dynamic_body_and_cover_every_touching_contact(case):
    n, contacts, static, color_count = case
    contacts = [(a, b, c) for a, b, c in contacts if a != b]
    body_a = np.array([a for a, _, _ in contacts], dtype=np.int64)
    body_b = np.array([b for _, b, _ in contacts], dtype=np.int64)
    count = np.array([c for _, _, c in contacts], dtype=np.int64)
    body_type = np.where(np.array(static), STATIC, DYNAMIC).astype(np.int64)
    order, starts = color_contacts(count, body_a, body_b, body_type, np.zeros(n, dtype=np.bool_),
                                   n, color_count, EVERY, -1)
    assert sorted(order.tolist()) == [k for k in range(len(contacts)) if count[k] > 0]
    assert starts[0] == 0 and starts[-1] == len(order) and np.all(np.diff(starts) >= 0)
    for c in range(color_count):  # every colour but the overflow
        members = order[starts[c]:starts[c + 1]]
        assert np.all(np.diff(members) > 0)  # key order inside a colour
        bodies = [b for k in members for b in (body_a[k], body_b[k]) if body_type[b] == DYNAMIC]
        assert len(bodies) == len(set(bodies))


def test_contacts_with_a_static_body_are_solved_after_dynamic_pairs():
    # Bodies 0-2 dynamic, 3 static: a chain 0-1-2 and each resting on the ground 3.
    body_a = np.array([0, 1, 0, 1, 2], dtype=np.int64)
    body_b = np.array([1, 2, 3, 3, 3], dtype=np.int64)
    body_type = np.array([DYNAMIC, DYNAMIC, DYNAMIC, STATIC], dtype=np.int64)
    order, starts = color_contacts(np.ones(5, dtype=np.int64), body_a, body_b, body_type,
                                   np.zeros(4, dtype=np.bool_), 4, 24, EVERY, -1)
    position = {int(k): i for i, k in enumerate(order)}
    assert max(position[0], position[1]) < min(position[2], position[3], position[4])

"""pybox2d's testbed framework on the layer and the example programs written for it
(``impulse2d.compat.box2d.examples``): each example is run headless (SDL's dummy driver, an
off-screen surface) and its physics checked against what the scene must do (analytic where
there is a formula: bounce heights, slides, stops, ray hits)."""

import math
import os

import numpy as np
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
pygame = pytest.importorskip("pygame")

from impulse2d.compat.box2d.examples import EXAMPLES, load, names  # noqa: E402
from impulse2d.compat.box2d.examples.__main__ import main as cli  # noqa: E402
from impulse2d.compat.box2d.framework import Framework, Keys, fwSettings  # noqa: E402

G = 10.0


def run(name, frames, before=None):
    fw = load(name)()
    if before is not None:
        before(fw)
    fw.run(frames, window=False)
    return fw


def gaps(world):
    """The largest distance between a joint's two world anchors, m."""
    return max((j.anchorA - j.anchorB).length for j in world.joints)


def test_every_listed_example_exists_and_unknown_names_are_refused():
    assert names() == list(EXAMPLES) and len(EXAMPLES) >= 26
    for name in EXAMPLES:
        cls = load(name)
        assert issubclass(cls, Framework) and isinstance(cls.name, str) and cls.description
    with pytest.raises(ValueError, match="unknown example 'nope'"):
        load("nope")


def test_vertical_stack_stands():
    fw = run("vertical_stack", 300)
    for x, column in zip((-10.0, -5.0, 0.0, 5.0, 10.0), fw.columns):
        for i, box in enumerate(column):
            assert abs(box.position[0] - x) < 0.15
            assert abs(box.angle) < 0.05
            # resting one box (1 m) above the other, less a slop of overlap each
            assert box.position[1] == pytest.approx(0.5 + i, abs=0.08)
        assert not column[-1].awake or column[-1].linearVelocity.length < 0.05


@pytest.mark.parametrize("name", ["pyramid", "tiles"])
def test_pyramids_stand(name):
    fw = run(name, 300)
    for row, box in fw.boxes:
        assert box.position[1] == pytest.approx(0.5 + row, abs=0.1)
        assert abs(box.angle) < 0.05


def test_tumbler_turns_at_its_motor_speed_and_keeps_its_boxes():
    fw = run("tumbler", 300)
    assert len(fw.boxes) == 200
    assert fw.drum.angularVelocity == pytest.approx(0.05 * math.pi, rel=1e-3)
    for box in fw.boxes:   # inside the 20 m drum (walls 0.5 m thick), in its own frame
        local = fw.drum.GetLocalPoint(box.position)
        assert max(abs(local[0]), abs(local[1])) < 9.5 - 0.1


def test_bridge_sags_within_bounds_and_its_hinges_hold():
    fw = run("bridge", 300)
    lowest = min(p.position[1] for p in fw.planks)
    assert 2.5 < lowest < 4.8              # sagged under its 1,500 kg and the load, not broken
    assert fw.planks[0].position[1] > 4.6 and fw.planks[-1].position[1] > 4.6  # ends held
    assert gaps(fw.world) < 0.02


def test_chain_hangs_without_stretching():
    fw = run("chain", 300)
    assert gaps(fw.world) < 0.01
    # 30 links of 1 m between hinges: no point of it is farther from the top hinge
    for link in fw.links:
        assert (link.position - (0.0, 25.0)).length < 30.0 + 0.05


def test_rope_joint_holds_the_heavy_end_and_lets_go_on_j():
    fw = run("rope", 300)
    assert (fw.links[-1].position - (0.0, 15.0)).length <= fw.maxLength + 0.01
    fw.Keyboard(Keys.K_j)                  # cut: the hinges alone now (no length bound)
    assert fw.rope is None and fw.world.jointCount == 10


def test_pulley_keeps_its_rope_length():
    fw = load("pulley")()
    la, lb = fw.lengths()
    total = la + 1.5 * lb
    assert total == pytest.approx(12.0 + 1.5 * 12.0, abs=1e-9)
    for _ in range(5):
        fw.run(60, window=False)
        la, lb = fw.lengths()
        # while the boxes move at up to 10 m/s the position sweeps leave up to 3.3 cm
        assert la + 1.5 * lb == pytest.approx(total, abs=0.05)
    assert la + 1.5 * lb == pytest.approx(total, abs=0.005)   # at rest again
    # the boxes are equal and the ratio 1.5 > 1: side A is the heavier, it went down
    assert fw.left.position[1] < 16.0 - 5.0 and fw.right.position[1] > 16.0 + 3.0


def test_gears_couple_the_wheels_and_the_rack():
    fw = load("gears")()
    for _ in range(4):
        fw.run(15, window=False)
        a1, a2, t = fw.hinge1.angle, fw.hinge2.angle, fw.slide.translation
        assert a1 + 2.0 * a2 == pytest.approx(0.0, abs=0.01)   # gear 1, ratio R2 / R1
        assert a2 - 0.5 * t == pytest.approx(0.0, abs=0.01)    # gear 2, ratio -1 / R2
    assert t < -0.5   # the rack fell and drove them


def test_web_breaking_a_box_destroys_its_four_springs():
    fw = run("web", 120)
    assert len(fw.joints) == 10
    fw.Keyboard(Keys.K_b)
    assert len(fw.destroyed) == 4 and len(fw.joints) == 6 and fw.world.jointCount == 6
    fw.run(60, window=False)
    for box in fw.boxes:
        assert all(np.isfinite(box.position)) and abs(box.position[0]) < 15.0


def test_car_drives_right_on_d_and_left_on_a():
    fw = run("car", 180, lambda f: f.Keyboard(Keys.K_d))
    assert fw.car.position[0] > 8.0 and abs(fw.car.angle) < 0.6
    fw = run("car", 120, lambda f: f.Keyboard(Keys.K_a))
    assert fw.car.position[0] < -4.0 and abs(fw.car.angle) < 0.6


def test_varying_friction_slides_as_the_incline_formula():
    fw = load("varying_friction")()
    start = [b.position.copy() for b in fw.boxes]
    fw.run(60, window=False)   # 1 s
    slope = 0.25
    for box, p0, mu in zip(fw.boxes, start, (0.75, 0.5, 0.35, 0.1, 0.0)):
        moved = (box.position - p0).length
        mixed = math.sqrt(mu * 0.2)        # Box2D's mixing with the ramp's default 0.2
        a = G * (math.sin(slope) - mixed * math.cos(slope))
        if a <= 0.0:
            assert moved < 0.02            # friction holds it (mixed mu > tan 0.25 = 0.255)
        else:
            assert moved == pytest.approx(0.5 * a, rel=0.05)   # s = a t^2 / 2


def test_varying_restitution_bounces_to_e_squared_of_the_drop():
    fw = load("varying_restitution")()
    tops = [0.0] * len(fw.balls)
    rising = [False] * len(fw.balls)
    for _ in range(400):
        fw.run(1, window=False)
        for k, ball in enumerate(fw.balls):
            rising[k] |= ball.linearVelocity[1] > 0.0
            if rising[k]:
                tops[k] = max(tops[k], ball.position[1])
    for top, e in zip(tops[1:], (0.1, 0.3, 0.5, 0.75, 0.9, 1.0)):
        # the centre falls 19 m to touch; it rises e^2 of that
        assert top - 1.0 == pytest.approx(e * e * 19.0, abs=0.05 + 0.02 * e * e * 19.0)
    assert fw.balls[0].position[1] == pytest.approx(1.0, abs=0.02)   # e = 0 stays down


def test_apply_force_thrust_and_friction_joint_stops():
    fw = run("apply_force", 30, lambda f: f.Keyboard(Keys.K_w))
    # 200 N on 4 kg (two triangles of 2 kg) for 0.5 s with linear damping 0.1:
    # v = F / (m c) (1 - exp(-c t))
    m = fw.ship.mass
    assert m == pytest.approx(4.0, rel=1e-6)
    expected = 200.0 / (m * 0.1) * (1.0 - math.exp(-0.1 * 0.5))
    assert fw.ship.linearVelocity.length == pytest.approx(expected, rel=0.02)
    fw.KeyboardUp(Keys.K_w)
    box = fw.boxes[0]
    box.linearVelocity = (5.0, 0.0)
    x0 = box.position[0]
    fw.run(45, window=False)
    # the friction joint's bound m g decelerates it at 10 m/s^2: stopped after 0.5 s, 1.25 m
    assert box.linearVelocity.length < 1e-3
    assert box.position[0] - x0 == pytest.approx(1.25, abs=0.05)


def test_breakable_breaks_on_impact_and_the_pieces_go_on():
    fw = run("breakable", 120)
    assert fw.broke and fw.largest_impulse > 15.0
    # the framework's groundbody, the ground edge's body, the two pieces
    assert len(fw.pieces) == 2 and fw.world.bodyCount == 4
    assert all(len(p.fixtures) == 1 for p in fw.pieces)
    for piece in fw.pieces:
        assert piece.position[1] > 0.0 and piece.mass == pytest.approx(1.0)


def test_confined_balls_stay_in_their_box():
    fw = run("confined", 300)
    for ball in fw.balls:
        x, y = ball.position
        assert -10.0 + 0.49 <= x <= 10.0 - 0.49 and 0.49 <= y <= 20.0 - 0.49


def test_mobile_hangs_balanced():
    fw = run("mobile", 300)
    assert len(fw.bars) == 31
    assert gaps(fw.world) < 0.01
    for bar in fw.bars:
        assert abs(bar.angle) < 1e-3 and bar.linearVelocity.length < 0.01


def test_one_sided_platform_lets_the_ball_up_and_holds_it_on_top():
    fw = load("one_sided_platform")()
    fw.run(60, window=False)
    # thrown up at 16 m/s from 2 m: 13 m after 1 s, through the platform's 9-10 m
    assert fw.ball.position[1] == pytest.approx(2.0 + 16.0 - 0.5 * G, abs=0.1)
    fw.run(240, window=False)
    assert fw.ball.position[1] == pytest.approx(10.5, abs=0.02)  # and rests on it
    assert abs(fw.ball.linearVelocity[1]) < 0.01


def test_raycast_hits_the_nearest_shape_where_geometry_says():
    fw = run("raycast", 2)
    # straight down: the ground at (0, 0), normal up
    c, _ = fw.cast(-0.5 * math.pi)
    assert c.hit and c.point[1] == pytest.approx(0.0, abs=1e-9)
    assert c.normal[1] == pytest.approx(1.0)
    # toward the circle of radius 1 at (-2, 3): hits at its distance less the radius
    d = np.array([-2.0, -7.0])
    c, _ = fw.cast(math.atan2(d[1], d[0]))
    hit = np.array(fw.origin) + d / np.linalg.norm(d) * (np.linalg.norm(d) - 1.0)
    assert np.allclose(tuple(c.point), hit, atol=1e-6)
    assert np.allclose(tuple(c.normal), -d / np.linalg.norm(d), atol=1e-6)


def test_body_types_kinematic_drives_static_holds():
    fw = run("body_types", 60)
    fw.Keyboard(Keys.K_k)
    x0, payload0 = fw.platform.position[0], fw.payload.position[0]
    fw.run(60, window=False)
    # kinematic: exactly its set velocity for 1 s, unturned, whatever rests on it or pulls
    assert fw.platform.position[0] - x0 == pytest.approx(-3.0, abs=1e-9)
    assert abs(fw.platform.angle) < 1e-9
    assert fw.payload.position[0] - payload0 < -2.0     # the box rode along (and slid a bit)
    fw.Keyboard(Keys.K_s)
    p0 = fw.platform.position.copy()
    fw.run(60, window=False)
    assert (fw.platform.position - p0).length == 0.0 and fw.platform.type == 0
    with pytest.raises(ValueError, match="type must be"):
        fw.platform.type = 5


def test_collision_filtering_groups_and_categories():
    fw = run("collision_filtering", 300)
    touching = {frozenset((c.fixtureA, c.fixtureB)) for c in fw.world.contacts if c.touching}
    info = {f: (kind, size) for kind, size, f in fw.shapes}
    pairs = [tuple(info[f] for f in pair) for pair in touching if all(f in info for f in pair)]
    # the small ones of each kind landed on each other; no two large ones touch
    assert sorted(pairs) == [((k, "small"), (k, "small")) for k in (2, 4, 8)]
    for kind in (2, 4, 8):
        large = [f.body for k, size, f in fw.shapes if k == kind and size == "large"]
        small = [f.body for k, size, f in fw.shapes if k == kind and size == "small"]
        # the large pair fell through each other onto the ground: both at the same height
        assert large[0].position[1] == pytest.approx(large[1].position[1], abs=0.02)
        # the small pair stands one on the other
        assert abs(small[0].position[1] - small[1].position[1]) > 0.9


def test_character_collision_slides_smoothly_over_the_chain_and_tiles():
    fw = load("character_collision")()
    for _ in range(4):
        fw.run(30, window=False)
        for body in (fw.on_chain, fw.on_tiles):
            # frictionless: no vertex or seam takes any of its speed, nor lifts it
            assert tuple(body.linearVelocity) == pytest.approx((5.0, 0.0), abs=1e-6)
    assert fw.on_chain.position[1] == pytest.approx(0.5, abs=0.01)
    assert fw.on_tiles.position[1] == pytest.approx(5.5, abs=0.01)
    assert fw.on_chain.position[0] == pytest.approx(-18.0 + 10.0, abs=1e-6)


def _polyline_distance(p, xs, f):
    best = math.inf
    for x0, x1 in zip(xs, xs[1:]):
        a = np.array([x0, f(x0)])
        d = np.array([x1, f(x1)]) - a
        t = min(max(np.dot(np.asarray(p) - a, d) / np.dot(d, d), 0.0), 1.0)
        best = min(best, float(np.linalg.norm(np.asarray(p) - (a + t * d))))
    return best


def test_edge_shapes_hold_what_falls_on_them():
    from impulse2d.compat.box2d.examples.edge_shapes import terrain
    fw = run("edge_shapes", 300)
    xs = [-20.0 + 0.5 * k for k in range(81)]
    alone = 0
    for k, body in enumerate(fw.drops):
        x, y = body.position
        assert y > terrain(x) - 0.05           # nothing went through the ground
        if k % 3 == 2:   # a ball: its centre at least a radius from the edges (less 1 cm)
            resting = _polyline_distance((x, y), xs, terrain)
            assert resting > 0.5 - 0.01
            touching = [e.other.type for e in body.contacts if e.contact.touching]
            if touching and set(touching) == {0}:
                # on the ground alone (resting or rolling): a radius from its edges
                assert resting == pytest.approx(0.5, abs=0.01)
                alone += 1
    assert alone >= 1   # (the others came to rest on the boxes and triangles in the valleys)


def test_cantilever_bends_as_box2d_does():
    fw = run("cantilever", 300)
    # Box2D 2.3 (pybox2d 2.3.10, the same program, 300 steps): the rigid beam's tip at
    # (-7.70, 13.36) turned -0.31 rad (its welds give under 8 velocity iterations), the soft
    # beam's (5 Hz) at (-10.01, 3.13) turned -1.31 rad
    assert tuple(fw.rigid[-1].position) == pytest.approx((-7.70, 13.36), abs=0.2)
    assert fw.rigid[-1].angle == pytest.approx(-0.31, abs=0.05)
    assert tuple(fw.soft[-1].position) == pytest.approx((-10.01, 3.13), abs=0.05)
    assert fw.soft[-1].angle == pytest.approx(-1.31, abs=0.02)


def test_collision_processing_destroys_the_lighter_of_each_touching_pair():
    fw = run("collision_processing", 300)
    dynamic = [b for b in fw.world.bodies if b.type == 2]
    assert len(dynamic) == 12 - len(fw.destroyed) and len(dynamic) >= 1
    assert all(lighter <= heavier for lighter, heavier in fw.destroyed)
    # what is left touches nothing but the ground
    for c in fw.world.contacts:
        if c.touching:
            assert 0 in (c.fixtureA.body.type, c.fixtureB.body.type)
    assert all(p["state"] in (1, 2) for p in fw.points)   # b2_addState, b2_persistState


def test_theo_jansen_walks_on_its_crank_and_stops_with_it():
    fw = run("theo_jansen", 300)
    assert fw.chassis.position[0] > 8.0 and abs(fw.chassis.angle) < 0.1   # walked, level
    hinges = [j for j in fw.world.joints if type(j).__name__ == "b2RevoluteJoint"]
    assert len(hinges) == 7
    links = [j for j in fw.world.joints if type(j).__name__ == "b2DistanceJoint"]
    assert len(links) == 24
    for link in links:   # stiff springs (10 Hz): each link within 10 cm of its length
        assert (link.anchorB - link.anchorA).length == pytest.approx(link.length, abs=0.1)
    assert max((j.anchorA - j.anchorB).length for j in hinges) < 0.01
    assert fw.motor.speed == pytest.approx(2.0, abs=0.3)    # the crank at its motor's speed
    fw.Keyboard(Keys.K_s)
    fw.run(60, window=False)
    x = fw.chassis.position[0]
    fw.run(120, window=False)
    assert abs(fw.chassis.position[0] - x) < 0.3            # the motor holds the crank: it stands


def test_framework_mouse_drags_a_body_and_bombs_fly():
    fw = load("vertical_stack")()
    box = fw.columns[2][0]
    fw.MouseDown(box.position)
    assert fw.mouseJoint is not None and fw.mouseJoint.bodyB is box
    fw.MouseMove((0.0, 8.0))
    fw.run(60, window=False)
    assert box.position[1] > 3.0            # lifted toward the mouse
    fw.MouseUp((0.0, 8.0))
    assert fw.mouseJoint is None and fw.world.jointCount == 0
    fw.ShiftMouseDown((-20.0, 10.0))
    fw.MouseUp((-21.0, 10.0))
    assert fw.bomb is not None and fw.bomb.linearVelocity[0] == pytest.approx(30.0)


def test_framework_settings_pause_single_step_and_text():
    fw = load("pyramid")()
    fw.settings.pause = True
    fw.run(3, window=False)
    assert fw.stepCount == 0
    fw.settings.singleStep = True
    fw.run(1, window=False)
    assert fw.stepCount == 1 and not fw.settings.singleStep
    with pytest.raises(TypeError, match="no setting .hzz."):
        fwSettings(hzz=30)
    fw.settings = fwSettings(hz=30.0, pause=False)
    ball = fw.world.CreateDynamicBody(position=(30.0, 30.0))
    ball.CreateCircleFixture(radius=0.5, density=1.0)
    fw.run(1, window=False)
    # one step of 1 / hz s in free fall (symplectic Euler): v = g dt, y drops g dt^2
    assert fw.stepCount == 2
    assert ball.linearVelocity[1] == pytest.approx(-G / 30.0, rel=1e-9)
    assert ball.position[1] == pytest.approx(30.0 - G / 900.0, rel=1e-9)
    fw.Print("a line")
    assert fw.textLine > fw.TEXTLINE_START


def test_screenshot_shows_the_scene_where_the_camera_puts_it(tmp_path):
    out = tmp_path / "tumbler.png"
    assert cli(["tumbler", "--headless", "--frames", "30", "--out", str(out)]) == 0
    img = pygame.image.load(str(out))
    assert img.get_size() == (1280, 720)
    fw = load("tumbler")()
    fw.run(1, window=False)
    # the drum's bottom wall, 10 m under its centre at (0, 10), is drawn at the camera's pixel;
    # the middle of the drum is empty background
    px = fw.camera.to_screen((0.0, 10.0 - 10.0 + 0.0), img.get_size())
    wall = img.get_at((int(px[0]), int(px[1])))[:3]
    inside = img.get_at(tuple(int(v) for v in fw.camera.to_screen((0.0, 14.0), img.get_size())))[:3]
    assert wall != (18, 20, 25) and inside == (18, 20, 25)
    outside = img.get_at((int(px[0]), int(px[1]) + 40))[:3]    # 2.7 m under it: nothing
    assert outside == (18, 20, 25)


def test_the_same_programs_on_pybox2d_agree_on_counts_and_resting_heights():
    """The examples' scenes built by the same code on the real pybox2d (if installed) and on
    the layer, 360 steps each (benchmarks/box2d_examples.py, each engine in a subprocess):
    the same bodies, in the settled stacks touching contacts within 10 % and each box as
    high as Box2D's less its skins (Box2D's polygons rest 2 cm apart per contact, 1 cm skin
    each; here they are sharp and rest a slop inside each other)."""
    import importlib.util
    import sys
    from pathlib import Path
    if importlib.util.find_spec("Box2D") is None:
        pytest.skip("the real pybox2d is not installed (pip install box2d==2.3.10)")
    bench = Path(__file__).resolve().parent.parent / "benchmarks"
    sys.path.insert(0, str(bench))
    try:
        import box2d_examples as m
        layer = m._child("layer", 300, 60)
        real = m._child("pybox2d", 300, 60)
    finally:
        sys.path.remove(str(bench))
    for scene in m.SCENES:
        assert layer[scene]["bodies"] == real[scene]["bodies"]
    for scene in m.SETTLED:   # (the tumbler's boxes and the bridge's load still roll about)
        a, r = layer[scene]["touching_contacts"], real[scene]["touching_contacts"]
        assert abs(a - r) <= 0.1 * r, (scene, a, r)
    # a box of row k rests on k + 1 contacts (the ground's included): Box2D's skins lift it
    # 2 cm per contact less Box2D's slop of overlap (0.5 cm), the layer's slop lowers it 0.5 cm
    rows = [k for k in range(12)] * 5
    for (xa, ya), (xr, yr), k in zip(layer["vertical_stack"]["positions"],
                                     real["vertical_stack"]["positions"], rows):
        assert yr - ya == pytest.approx((k + 1) * 0.02, abs=0.02 + 0.005 * (k + 1))
    for (xa, ya), (xr, yr), k in zip(layer["pyramid"]["positions"], real["pyramid"]["positions"],
                                     [r for r in range(20) for _ in range(20 - r)]):
        assert yr - ya == pytest.approx((k + 1) * 0.02, abs=0.03 + 0.005 * (k + 1))


def test_the_examples_run_in_the_testbed_window():
    """``impulse2d testbed``'s browser lists the examples (group pybox2d): a pane steps the
    example's own Step (the tumbler adds its boxes) and the testbed draws its world; side by
    side builds it anew per solver."""
    from impulse2d.testbed import Testbed, catalog
    listed = [e for e in catalog.entries() if e.group == "pybox2d"]
    assert {e.name for e in listed} == {f"pybox2d_{n}" for n in names()}
    bed = Testbed("pybox2d_tumbler", size=(800, 480), window=False)
    try:
        bed.run(60)
        pane = bed.panes[0]
        assert pane.steps == 60 and len(pane.framework.boxes) == 60
        assert pane.framework.drum.angularVelocity == pytest.approx(0.05 * math.pi, rel=1e-3)
        assert bed.world is pane.framework.world.engine
        # the drum's bottom wall (10 m below its hinge at (0, 10), 0.5 m thick) is drawn
        x, y = bed.to_screen((0.0, 0.0))
        assert bed.screen.get_at((int(x), int(y)))[:3] != (18, 20, 25)
        # a launched ball is the example's bomb (a body the layer knows), and the step goes on
        bed.launch((-5.0, 25.0), (10.0, 0.0))
        bomb = pane.framework.bomb
        assert bomb is not None and bomb.linearVelocity[0] == pytest.approx(10.0)
        bed.run(10)
        assert bomb.position[0] > -5.0 + 1.0 and pane.steps == 70
        bed.side_by_side(["pgs_block", "soft_step"])
        assert len(bed.panes) == 2 and bed.panes[1].framework is not bed.panes[0].framework
        bed.run(5)
        assert [p.steps for p in bed.panes] == [5, 5]
    finally:
        bed.close()

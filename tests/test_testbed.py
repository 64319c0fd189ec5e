"""The testbed driven as a person would (issue 27 part 4): every scene opens and runs, a drag
follows the mouse, pause and single step, solver switches, side by side, the inspector, a
recording and its replay, screenshots. Runs without a display (SDL's dummy video driver)."""

from __future__ import annotations

import math
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

pygame = pytest.importorskip("pygame")

from impulse2d import draw  # noqa: E402
from impulse2d.settings import SOLVERS  # noqa: E402
from impulse2d.types import BodyType  # noqa: E402
from impulse2d.testbed import Testbed as Bed  # noqa: E402  (not "Test...": pytest would collect it)
from impulse2d.testbed import catalog, config  # noqa: E402
from impulse2d.testbed.panes import copy_pane  # noqa: E402

BACKGROUND = (18, 20, 25)

# Smaller variants of the scenes too big to run 60 frames quickly (each still opened).
SMALL = {
    "pyramid": {"base": 10}, "many_pyramids": {"grid": 2, "base": 5}, "rain": {"count": 200},
    "large_pyramid": {"base": 10}, "joint_grid": {"n": 12}, "tumbler": {"count": 60},
    "chain_terrain": {"count": 40}, "bridge": {"planks": 40}, "chain": {"links": 30},
    "mixed_rain": {"count": 80},
}


@pytest.fixture(autouse=True)
def config_home(tmp_path, monkeypatch):
    """Every test remembers into a temporary directory, never the user's."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("APPDATA", str(tmp_path / "config"))
    return tmp_path / "config"


@pytest.fixture
def tb():
    bed = Bed("stack", size=(1000, 640))
    yield bed
    bed.close()


def _finite(world) -> bool:
    return bool(np.all(np.isfinite(world.get_positions())) and
                np.all(np.isfinite(world.get_velocities())) and
                np.all(np.isfinite(world.get_angles())))


def _poses(world):
    return world.get_positions().copy(), world.get_angles().copy(), world.get_velocities().copy()


def _same(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b))


def _pixels(path):
    return pygame.surfarray.array3d(pygame.image.load(str(path))).swapaxes(0, 1)


# -- the browser -------------------------------------------------------------------------------

def test_browser_lists_every_scene_grouped():
    from impulse2d.scenes import SCENES, _load
    _load()
    names = [e.name for e in catalog.entries()]
    assert set(SCENES) <= set(names)
    groups = [e.group for e in catalog.entries()]
    # grouped: each group's entries are contiguous
    assert len(set(groups)) == sum(1 for k, g in enumerate(groups) if k == 0 or groups[k - 1] != g)
    assert [e.name for e in catalog.matching("pyram")][:2] == ["pyramid", "many_pyramids"]
    found = catalog.matching("stress chain")   # every word, in the label or the description
    assert {"ball_and_chain", "stretched_chain"} <= {e.name for e in found}
    assert all(e.group == "stress" and "chain" in f"{e.name} {e.description}".lower()
               for e in found)
    if catalog.gym_available():
        assert {"LunarLander", "BipedalWalker", "CarRacing"} <= set(names)


def test_every_scene_opens_and_runs_60_frames():
    bed = Bed("stack", size=(800, 480))
    try:
        for name in bed.scenes:
            bed.open(name, **SMALL.get(name, {}))
            assert bed.scene == name
            bed.run(60)
            assert bed.panes[0].steps == 60, name
            assert _finite(bed.world), f"{name}: a NaN or an infinity in the state"
    finally:
        bed.close()


# -- the clock ---------------------------------------------------------------------------------

def test_pause_then_single_step_advances_exactly_one_step(tb):
    tb.run(20)
    tb.pause()
    before, count = _poses(tb.world), tb.world.step_count
    tb.run(10)                                     # paused: drawn, not stepped
    assert tb.world.step_count == count and _same(_poses(tb.world), before)
    twin = copy_pane(tb.panes[0])
    tb.single_step()
    twin.step(tb.dt)
    assert tb.world.step_count == count + 1
    assert _same(_poses(tb.world), _poses(twin.world))
    assert not _same(_poses(tb.world), before)
    tb.resume()
    tb.run(1)
    assert tb.world.step_count == count + 2


# -- solvers -----------------------------------------------------------------------------------

def test_solver_switch_keeps_the_state_and_every_member_runs(tb):
    tb.open("pyramid", base=6)
    tb.run(15)
    for name in [s for s in SOLVERS if s != "soft_step"] + ["soft_step"]:
        before, digest = _poses(tb.world), tb.world.state_hash()
        tb.set_solver(name)
        assert tb.world.settings.solver == name
        assert _same(_poses(tb.world), before) and tb.world.state_hash() == digest
        tb.run(10)
        assert _finite(tb.world)
    tb.set_solver("direct", level="acceleration")
    assert tb.world.settings.direct_level == "acceleration"
    tb.run(5)
    assert _finite(tb.world)


def test_panel_settings_reach_the_world_and_bad_values_change_nothing(tb):
    tb.configure(substeps=8, velocity_iterations=20, contact_hertz=60.0, warm_starting=False,
                 enable_sleep=False, enable_continuous=False, joint_damping_ratio=5.0)
    s = tb.world.settings
    assert (s.substeps, s.velocity_iterations, s.contact_hertz, s.warm_starting, s.enable_sleep,
            s.enable_continuous, s.joint_damping_ratio) == (8, 20, 60.0, False, False, False, 5.0)
    with pytest.raises(ValueError, match="substeps"):
        tb.configure(substeps=0, velocity_iterations=4)
    assert (tb.world.settings.substeps, tb.world.settings.velocity_iterations) == (8, 20)
    with pytest.raises(TypeError, match="gravity"):
        tb.configure(gravity=1.0)
    with pytest.raises(ValueError, match="solver"):
        tb.set_solver("jacobi")
    world = tb.world
    with pytest.raises(ValueError, match="unknown scene"):
        tb.open("no_such_scene")
    with pytest.raises(TypeError, match="no_such_param"):
        tb.open("pyramid", no_such_param=1)
    assert tb.scene == "stack" and tb.world is world


# -- the mouse ---------------------------------------------------------------------------------

def test_dragged_box_follows_the_mouse_within_5_cm(tb):
    tb.run(30)
    top = max(tb.world.bodies, key=lambda b: b.position[1])
    start = tuple(top.position)
    target = (start[0] + 2.0, start[1] + 2.5)
    tb.drag(start, target, 60)
    assert math.dist(top.position, target) < 0.05
    assert not tb.world.joints or all(j.__class__.__name__ != "MouseJoint"
                                      for j in tb.world.joints)   # let go after the drag
    with pytest.raises(ValueError, match="body_point"):
        tb.drag((100.0, 100.0), (0.0, 0.0), 5)


def test_mouse_events_pick_through_the_camera(tb):
    tb.run(30)
    top = max(tb.world.bodies, key=lambda b: b.position[1])
    x, y = tb.to_screen(top.position)
    assert tb.to_world((x, y))[1] == pytest.approx(tuple(top.position), abs=1e-9)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(round(x), round(y)),
                                         button=1))
    tb.run(1)
    assert tb.mouse.active
    tx, ty = tb.to_screen((top.position[0], top.position[1] + 3.0))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(round(tx), round(ty)),
                                         rel=(0, 0), buttons=(1, 0, 0)))
    tb.run(60)
    want = tb.to_world((round(tx), round(ty)))[1]
    assert math.dist(top.position, want) < 0.05
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(round(tx), round(ty)),
                                         button=1))
    tb.run(1)
    assert not tb.mouse.active


def test_keys_pause_step_and_toggle(tb):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0,
                                         unicode=" "))
    tb.run(1)
    assert tb.paused
    count = tb.world.step_count
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_o, mod=0, unicode="o"))
    tb.run(1)
    assert tb.world.step_count == count + 1
    contacts = tb.flags.contacts
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_4, mod=0, unicode="4"))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s, mod=0, unicode="s"))
    tb.run(1)
    assert tb.flags.contacts is not contacts
    assert tb.world.settings.solver == SOLVERS[1]


def test_launch_ball(tb):
    n = len(tb.world.bodies)
    tb.launch((-4.0, 3.0), (6.0, 0.0))
    assert len(tb.world.bodies) == n + 1
    ball = tb.world.bodies[-1]
    tb.run(10)
    assert ball.position[0] > -4.0 + 6.0 * 10 / 60 * 0.9


# -- side by side ------------------------------------------------------------------------------

def test_side_by_side_same_solver_stays_bit_identical(tb):
    tb.open("pyramid", base=6)
    tb.run(10)
    tb.side_by_side(["pgs", "pgs"])
    assert len(tb.worlds) == 2 and tb.worlds[0] is not tb.worlds[1]
    tb.run(30)
    top = max(tb.world.bodies, key=lambda b: b.position[1])
    tb.drag(tuple(top.position), (top.position[0] + 3.0, top.position[1] + 2.0), 30)
    tb.run(30)
    a, b = tb.worlds
    assert a.state_hash() == b.state_hash()
    assert tb.divergence.position == 0.0
    assert tb.divergence.energies[0] == tb.divergence.energies[1] > 0.0
    with pytest.raises(ValueError, match="2 to 4"):
        tb.side_by_side(["pgs"])
    tb.side_by_side(None)
    assert len(tb.worlds) == 1


@pytest.mark.parametrize("solvers", [["soft_step", "pgs"], ["soft_step", "pgs", "pgs_ngs"]])
def test_side_by_side_keeps_what_one_pane_showed_in_view(tb, solvers):
    # the pyramid framed whole in one pane is whole in each of the narrower panes
    tb.open("pyramid")
    def inside(pane):
        rect = tb.pane_rects()[pane]
        return all(rect.collidepoint(tb.to_screen(b.position, pane)) for b in tb.worlds[pane].bodies
                   if b.type == "dynamic")
    assert inside(0)
    tb.side_by_side(solvers)
    assert all(inside(k) for k in range(len(solvers)))
    tb.side_by_side(None)                     # and back: the scale comes back with the width
    assert inside(0)


def test_side_by_side_soft_step_holds_the_stack_pgs_drops(tmp_path):
    bed = Bed("vertical_stack", size=(1000, 640))
    try:
        bed.side_by_side(["soft_step", "pgs"])   # default settings: pgs drops it by 7 s
        bed.run(420)
        div = bed.divergence
        assert div.position > 5.0, div
        soft, pgs = bed.worlds
        # soft_step's stack stands (its top box rests at 14.4 m); pgs's has fallen
        assert max(p[1] for p in soft.get_positions()) > 14.0
        assert max(p[1] for p in pgs.get_positions()) < 10.0
        shot = _pixels(bed.screenshot(tmp_path / "sbs.png"))
        left, right = bed.pane_rects()
        # the column of the stack, in each pane: x within 1.5 m of the stack's axis
        x0, y0 = bed.camera.to_screen((-1.5, 14.5), left.size)
        x1, y1 = bed.camera.to_screen((1.5, 0.5), left.size)
        ys, xs = slice(int(y0), int(y1)), slice(int(x0), int(x1))
        a = shot[left.y:left.bottom, left.x:left.right][ys, xs]
        b = shot[right.y:right.bottom, right.x:right.right][ys, xs]
        differ = np.any(a != b, axis=2).mean()
        assert differ > 0.05, differ
    finally:
        bed.close()


# -- inspector ---------------------------------------------------------------------------------

def test_inspector_impulses_equal_the_contacts_to_the_bit(tb):
    tb.configure(enable_sleep=False)   # a sleeping island is not solved: it has no rows
    tb.run(40)
    contact = max(tb.world.contacts, key=lambda c: c.points[0].point[1])
    rows = tb.inspect(contact.points[0].point)
    normals = [r for r in rows if r.kind == "contact_normal"]
    assert len(normals) == len(contact.points)
    for row in normals:
        assert row.impulse == contact.points[row.index].normal_impulse   # bit for bit
        assert row.owner.shape_a == contact.shape_a
    assert any(r.kind == "contact_friction" for r in rows)
    tb.run(1)   # live: the rows of the next step
    again = {(c.shape_a, c.shape_b): c for c in tb.world.contacts}[(contact.shape_a,
                                                                     contact.shape_b)]
    rows = [r for r in tb.inspect(contact.points[0].point) if r.kind == "contact_normal"]
    assert [r.impulse for r in rows] == [p.normal_impulse for p in again.points]


def test_inspector_joint_and_body(tb):
    tb.open("pendulum")
    tb.run(10)
    joint = tb.world.joints[0]
    rows = tb.inspect(tuple(joint.world_anchor_a))
    assert rows and all(r.owner == joint for r in rows)
    body = tb.world.bodies[-1]
    assert tb.inspect(tuple(body.position)) == [] or tb.selection.kind != "body"
    tb.run(1)   # the panel draws the selection


# -- drawing -----------------------------------------------------------------------------------

def test_screenshot_shows_a_body_where_it_is(tb, tmp_path):
    tb.open("stack", count=3)
    tb.run(30)
    shot = _pixels(tb.screenshot(tmp_path / "shot.png"))
    assert shot.shape[:2] == (640, 1000)
    for body in tb.world.bodies:
        if body.type != BodyType.DYNAMIC:
            continue
        x, y = tb.to_screen(body.position)
        assert tuple(shot[round(y), round(x)]) != BACKGROUND
        # 2 m to the side of the stack (boxes are 1 m): background
        x, y = tb.to_screen((body.position[0] + 2.0, body.position[1]))
        assert tuple(shot[round(y), round(x)]) == BACKGROUND


def test_flags_change_what_is_drawn_where_their_items_are(tb, tmp_path):
    tb.run(30)
    tb.pause()
    off = _pixels(tb.screenshot(tmp_path / "off.png"))
    tb.flags = draw.Flags(contacts=True)
    assert tb.flags.contacts
    on = _pixels(tb.screenshot(tmp_path / "on.png"))
    rect = tb.pane_rects()[0]
    changed = np.argwhere(np.any(on != off, axis=2)[rect.y:rect.bottom, rect.x:rect.right])
    assert len(changed) > 0
    points = np.array([tb.to_screen(p.point) for c in tb.world.contacts for p in c.points])
    points -= (rect.x, rect.y)
    for y, x in changed:
        assert np.min(np.hypot(points[:, 0] - x, points[:, 1] - y)) < 12.0
    with pytest.raises(TypeError, match="flags"):
        tb.flags = {"contacts": True}


# -- recording and replay ----------------------------------------------------------------------

def test_replay_re_renders_the_same_frames(tb, tmp_path):
    from PIL import Image, ImageSequence

    from impulse2d.testbed import replay
    tb.run(5)
    tb.configure(substeps=8)
    tb.start_recording(tmp_path / "run.gif")
    tb.launch((-4.0, 2.0), (8.0, 1.0))
    tb.run(8)
    tb.set_solver("pgs")
    top = max(tb.world.bodies, key=lambda b: b.position[1])
    tb.drag(tuple(top.position), (top.position[0] - 2.0, top.position[1] + 1.0), 8)
    tb.flags = draw.Flags(contacts=True)
    tb.show_panels(False)              # the view widens; the recording keeps its size
    tb.run(4)
    replay_path = tb.stop_recording()
    assert replay_path == tmp_path / "run.replay.json"
    out = replay(replay_path, tmp_path / "again.gif")

    def frames(path):
        with Image.open(path) as im:
            return [np.asarray(f.convert("RGB")) for f in ImageSequence.Iterator(im)]

    recorded, replayed = frames(tmp_path / "run.gif"), frames(out)
    assert len(recorded) == len(replayed) == 20
    for a, b in zip(recorded, replayed):
        assert np.array_equal(a, b)
    assert not np.array_equal(recorded[0], recorded[-1])


# -- remembered state --------------------------------------------------------------------------

def test_state_is_remembered_between_runs(config_home):
    bed = Bed("bridge", size=(800, 480), remember=True, params={"planks": 20})
    bed.toggle_flag("aabbs")
    bed.configure(substeps=8)
    bed.close()
    assert config.config_path() == config_home / "impulse2d" / "testbed.json"
    assert config.config_path().exists()
    again = Bed(size=(800, 480), remember=True, params={"planks": 20})
    try:
        assert again.scene == "bridge"
        assert again.flags.aabbs
        assert again.world.settings.substeps == 8
    finally:
        again.close()
    config.config_path().write_text("{ not json", encoding="utf-8")   # damaged: defaults
    third = Bed(size=(800, 480), remember=True, window=False)
    try:
        assert third.scene == "pyramid" and not third.flags.aabbs
    finally:
        third.close()


# -- the command -------------------------------------------------------------------------------

def test_command_opens_runs_and_screenshots(tmp_path, capsys):
    from impulse2d.cli import main
    shot = tmp_path / "cli.png"
    assert main(["testbed", "stack", "--param", "count=2", "--frames", "5", "--size", "800x480",
                 "--solvers", "soft_step,pgs", "--screenshot", str(shot), "--forget"]) == 0
    assert _pixels(shot).shape[:2] == (480, 800)
    assert main(["testbed", "stack", "--size", "big", "--forget"]) == 2
    assert "--size" in capsys.readouterr().err
    assert main(["testbed", "no_such_scene", "--frames", "1", "--forget"]) == 2


def test_search_opens_the_first_match_and_wheel_zooms_about_the_cursor(tb):
    for event in (pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SLASH, mod=0, unicode="/"),
                  pygame.event.Event(pygame.TEXTINPUT, text="/"),   # SDL types the key too
                  pygame.event.Event(pygame.TEXTINPUT, text="vertical_st"),
                  pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r")):
        pygame.event.post(event)
    tb.run(1)
    assert tb.scene == "vertical_stack" and tb.search is None
    rect = tb.pane_rects()[0]
    pixel = (rect.x + 100, rect.y + 120)
    before = tb.to_world(pixel)[1]
    scale = tb.camera.scale
    pygame.mouse.set_pos(pixel)
    if pygame.mouse.get_pos() != pixel:   # the dummy driver may not move the pointer
        pytest.skip("the video driver does not place the mouse pointer")
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2, flipped=False))
    tb.run(1)
    assert tb.camera.scale == pytest.approx(scale * 1.1 ** 2)
    assert tb.to_world(pixel)[1] == pytest.approx(before, abs=1e-9)

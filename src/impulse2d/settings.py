"""World settings: every tunable of the step, defined once, with units and defaults.

Fields may be changed between steps (``world.settings.substeps = 8``); each assignment is
validated on the spot, so a bad value raises and the old value stays.

Sources for the defaults: Box2D v3 (``b2DefaultWorldDef``), Solver2D, and Catto's GDC talks
"Soft Constraints" (2011) and "Solver2D" (2024).
"""

from __future__ import annotations

import inspect
import re
from dataclasses import MISSING, dataclass, fields
from pathlib import Path

from . import _lock, _validate

DIRECT_MAX_ROWS = 400
"""Default of ``WorldSettings.direct_max_rows`` (see there)."""

SOLVERS = ("soft_step", "soft_step_v31", "pgs", "pgs_ngs", "pgs_block", "direct")
DIRECT_LEVELS = ("velocity", "acceleration")
PRECISIONS = ("float64", "float32")
MIXING_RULES = ("sqrt", "max", "min", "product", "mean")


class PerMeter(float):
    """A setting's default that is a length or a speed: ``metres`` (m or m/s) times the world's
    ``length_units_per_meter``, which it follows when that changes (Box2D v3's
    ``b2DefaultWorldDef`` scales the same defaults by ``b2_lengthUnitsPerMeter``). It reads as
    its value; a value the user assigns is a plain float, taken as given in length units."""

    def __new__(cls, value: float, metres: float):
        self = super().__new__(cls, value)
        self.metres = metres
        return self

    def __repr__(self) -> str:
        return float.__repr__(self)

    def __reduce__(self):
        return PerMeter, (float(self), self.metres)


PER_METER = ("contact_speed", "restitution_threshold", "max_linear_speed", "hit_event_threshold")
"""The settings whose defaults are :class:`PerMeter` (speeds: m/s by default)."""


@dataclass
class WorldSettings:
    """Tunables of :class:`impulse2d.World`. Pass any field to ``World(...)`` as a keyword.

    >>> import impulse2d as i2d
    >>> world = i2d.World(solver="pgs", velocity_iterations=20)
    >>> world.settings.substeps = 8          # any field, between steps; checked on the spot
    >>> world.settings.baumgarte = 2.0
    Traceback (most recent call last):
    ...
    ValueError: baumgarte must be in [0, 1], got 2.0
    >>> world.settings.baumgarte
    0.2

    Every field is listed below with its type, default, units and meaning (the list is made
    from the fields' own documentation in ``settings.py`` when the module is imported)."""

    solver: str = "soft_step"
    """``"soft_step"`` (default): Box2D v3's sub-stepped soft solver — per substep integrate
    velocities, warm start, one soft (biased) iteration, integrate positions, one relax
    (unbiased) iteration; then restitution once. Stacks and chains hold far better than with
    ``"pgs"`` at the same cost. Speeds are clamped before the constraints (Box2D v3.0/v3.1:
    joints may spin a body past the quarter turn per step where they must, so a whipping
    chain's end keeps its joint, 0.064 m as Box2D v3.1), and at twice the limits as positions
    are integrated (a body its constraints cannot satisfy comes to rest).
    ``"soft_step_v31"``: the same without the second clamp, exactly as Box2D v3.1: a chain
    stretched to twice its length and dropped horizontal pulls itself together (0.05 m vs
    1.6 m), but a body its constraints cannot satisfy keeps flailing at the speed limits.
    ``"pgs"``: classic sequential impulses (projected Gauss-Seidel) of Box2D-lite: one step of
    semi-implicit Euler with ``velocity_iterations`` sweeps and Baumgarte position bias.
    ``"pgs_ngs"``: Box2D v2.4's solver: ``velocity_iterations`` rigid sweeps without position
    bias (speculative gaps and restitution kept), integrate positions, then up to
    ``position_iterations`` sweeps of nonlinear Gauss-Seidel that move the bodies apart
    directly (no velocity is injected, so overlap is removed without launching anything).
    ``"pgs_block"``: ``"pgs_ngs"`` with each two-point manifold's normal impulses solved
    together as one 2x2 complementarity problem (Box2D v2.4's block solver): boxes resting on
    a face push equally on both corners and do not rock.
    ``"direct"``: the exact solution of the system ``"pgs"`` iterates on (same biases, slop,
    restitution and bounds), island by island: joints eliminated by a factorisation, contacts
    and Coulomb friction solved as a linear complementarity problem by Lemke's algorithm. Its
    cost grows as the cube of an island's contact rows (joint rows: about linearly for chains
    and nets): see ``direct_max_rows``."""

    substeps: int = 4
    """soft_step, soft_step_v31, and direct at ``direct_level="acceleration"``: substeps per
    step (h = dt / substeps). More substeps: stiffer, more accurate, proportionally slower.
    Box2D v3 default: 4 at 60 Hz."""

    velocity_iterations: int = 8
    """pgs, pgs_ngs, pgs_block: Gauss-Seidel sweeps over all constraints per step, in
    [1, 1000]. Box2D v2 default: 8."""

    velocity_tolerance: float = 0.0
    """pgs, pgs_ngs, pgs_block: m/s, in [0, 1e5]. Stop the velocity sweeps of a step early,
    after the first sweep that changed no body's velocity by more than this (measured at the
    body's farthest point: ``|dv| + |dw| extent``); at most ``velocity_iterations`` sweeps
    either way. 0 (the default): every sweep runs. The accumulated impulses are those of the
    last sweep run. A stop is no bound on the error left: where sweeps converge slowly (light
    bodies on heavy ones, motors against limits, point-by-point ``pgs_ngs`` stacks) a small
    change per sweep can hide a large remaining error. LunarLander's legs (0.07 kg on a 5 kg
    lander) stop sleeping at 3e-4 m/s; the compat layer leaves it off (measured 2026-11-24)."""

    position_iterations: int = 3
    """pgs_ngs, pgs_block: at most this many nonlinear Gauss-Seidel sweeps over the positions
    per step, in [1, 1000]; they stop early once every overlap is within 3 x 5 mm and every
    joint within its slop. Box2D v2.4 default: 3."""

    warm_starting: bool = True
    """Start each step from the impulses of the previous one (matched by contact feature ids).
    Turning it off shows why it exists: stacks sink and jitter."""

    contact_hertz: float = 30.0
    """soft_step: stiffness of contact position correction, Hz, in (0, 1e6]. Capped at a
    quarter of the substep rate (Nyquist margin); doubled against static and kinematic bodies."""

    contact_damping_ratio: float = 10.0
    """soft_step: damping ratio of the contact spring, in [0, 1e6] (10 = heavily over-damped, so
    overlap is removed without bounce)."""

    contact_speed: float = PerMeter(3.0, 3.0)
    """m/s, in (0, 1e5] (in a world of other units, units/s, the default and the bound times
    ``length_units_per_meter``). Largest speed at which position correction pushes overlapping
    shapes apart (soft_step, pgs), so that a deep overlap resolves smoothly instead of
    launching bodies. pgs_ngs and pgs_block push no velocity: they move the bodies apart, at
    most 0.2 m per position iteration."""

    joint_hertz: float = 60.0
    """soft_step: stiffness with which joints are held together, Hz, in (0, 1e6] (capped at a
    quarter of the substep rate). Joints are "rigid stabilised softly": the drift a rigid joint
    accumulates is removed like a stiff spring instead of all at once (Box2D v3: 60 Hz)."""

    joint_damping_ratio: float = 2.0
    """soft_step: damping ratio of that joint stabilisation, in [0, 1e6] (Box2D v3: 2)."""

    baumgarte: float = 0.2
    """pgs: fraction of the overlap (beyond the slop), or of a joint's drift, removed per step
    through velocity bias. (The position pass of pgs_ngs and pgs_block uses Box2D's fixed 0.2,
    ``impulse2d.constants.POSITION_BAUMGARTE``.)"""

    restitution_threshold: float = PerMeter(1.0, 1.0)
    """m/s, in [0, 1e5] (units/s: see ``contact_speed``). Impacts slower than this do not
    bounce; stops resting bodies from jittering."""

    max_linear_speed: float = PerMeter(400.0, 400.0)
    """m/s, in (0, 1e5] (units/s: see ``contact_speed``). Body speeds are clamped to this to
    keep a blown-up scene finite (Box2D: 400 m/s). The clamp squares it, one reason for the
    bound."""

    enable_contact_events: bool = False
    """Make the contact events of each step (``World.contact_events()``: begin and end touching,
    hits): a pass over the contacts and one over the solver's rows a step. Off by default, so
    that a world that does not read them pays nothing (Box2D has them on)."""

    enable_body_events: bool = False
    """Make the body move events of each step (``World.body_events()``): a copy of the bodies'
    positions and angles a step. Off by default."""

    enable_sleep: bool = True
    """Let islands of bodies that have all been slow for ``time_to_sleep`` fall asleep: a
    sleeping body is not simulated (it costs nearly nothing and keeps its position exactly)
    until something wakes it (a touch by an awake body, a force, a set velocity or position,
    ``body.is_awake = True``). On by default, as in Box2D, pybox2d and pymunk. Turning it off
    wakes every sleeping body."""

    time_to_sleep: float = 0.5
    """s, in [0, 1e6]. How long every body of an island must stay below its
    ``sleep_threshold`` before the island falls asleep (Box2D: 0.5 s)."""

    enable_continuous: bool = True
    """Continuous collision (on by default, as in Box2D): a dynamic body that moves more than
    half its thinnest half-width in a step is swept from its start to its end pose against
    static and kinematic bodies (``bullet`` bodies also against dynamic ones) and, if the sweep
    hits, put back at the time of impact with its velocity kept, so that it cannot pass
    through a thin wall. Slow bodies cost one comparison a step; the sweep compiles the first
    time a world has a fast body. Off: fast bodies may tunnel."""

    continuous_box2d23: bool = False
    """With ``enable_continuous``: Box2D 2.3's rules for the sweep instead of Box2D v3's. A hit
    counts only if the body would end the step more than three slops inside the obstacle (Box2D
    2.3's polygon skins), on its far side, or past it, so a body that ends resting on the
    surface it met is not put back; a body that hits loses its velocity into the obstacle.
    Off (the default): every hit puts the body back with its velocity. The pybox2d layer
    (``impulse2d.compat.box2d``) turns it on; :mod:`impulse2d._dynamics.continuous_box2d23`."""

    hit_event_threshold: float = PerMeter(1.0, 1.0)
    """m/s, in [0, 1e5] (units/s: see ``contact_speed``). A contact point whose approach speed
    exceeds this makes a hit event (Box2D: 1 m/s)."""

    direct_max_rows: int = DIRECT_MAX_ROWS
    """direct: the most constraint rows (scalar impulses: two per contact point, one to three
    per joint) one island may have, in [1, 100000]. A step with a larger island takes
    ``direct_fallback``'s solver, or raises ``ValueError`` with no body changed. Measured
    per step of one island (2-core machine under heavy load, ``benchmarks/direct_sizes.py``,
    2026-11-24): joints alone (assembled sparse and factored over the rows' envelope,
    reordered when the joints were made out of order: about linear in the rows), chains of
    100 / 400 / 1000 / 2000 / 5000 links (200 / 800 / 2000 / 4000 / 10000 rows): 0.07 / 0.23 /
    0.58 / 1.2 / 12 ms, bridges of 400 planks (802 rows): 0.25 ms, nets of 14 x 14 / 30 x 30
    bodies (732 / 3484 rows): 1.4 / 67 ms; a dense block (one body with 200 joints, 402 rows;
    LAPACK's Cholesky): 17-19 ms under that load (48-52 ms before); contacts (Lemke: pivots of O(m^2), m about
    twice the rows, and about m of them), pyramids of base 4 / 6 / 8 / 10 (88 / 204 / 368 /
    580 rows): 0.95 / 9-45 / 50-260 / 350-1900 ms. The default, 400, keeps a step within
    about a tenth of a second whatever the island; an island of joints alone (no limits,
    motors or contacts) stays practical at ten thousand rows and more: raise it for such
    worlds."""

    direct_fallback: str | None = None
    """direct: the solver (one of the others) that takes a step whose largest island is above
    ``direct_max_rows``; None (default): such a step raises ``ValueError`` instead."""

    diagnostics: bool | str = False
    """Measure the solver in each step (``World.solver_stats``): the residual of the rows it
    iterates on after every iteration, complementarity and friction-cone errors, penetration,
    joint errors, kinetic energy. ``"exact"`` also solves each step's velocity system exactly
    (the ``direct`` solver's Lemke solve, cubic in an island's rows) and reports how far the
    solver's answer is from it. Off by default; on, it costs a pass over the rows per
    iteration."""

    direct_level: str = "velocity"
    """direct: ``"velocity"`` (default) solves for impulses, the system ``"pgs"`` iterates on;
    ``"acceleration"`` solves the force-based formulation instead: the constraint forces from
    ``J M^-1 J^T f = -(J M^-1 F_ext + Jdot v + 2 w Cdot + w^2 C)`` (contacts and Coulomb friction
    as an LCP at the force level), integrated with the external forces, after an impulse phase
    that resolves impacts and restitution, in ``substeps`` substeps of ``h = dt / substeps``.
    ``w = baumgarte / h`` (Baumgarte stabilisation, critically damped; ``baumgarte = 0`` turns
    it off). Every joint type and option: rigid rows as above, limits, ropes and the pulley as
    complementarity while at their bound, motors (and the motor joint) boxed by their maximum
    force toward their target speed, springs (and the soft weld, the mouse joint) as implicit
    spring-dampers (a compliance on the diagonal). An island above ``direct_max_rows`` is handed
    to ``direct_fallback`` or raises. Ignored by the other solvers."""

    friction_mixing: str = "sqrt"
    """How two shapes' friction combine: ``"sqrt"`` (Box2D: sqrt(fa fb)), ``"max"``, ``"min"``,
    ``"product"`` (Chipmunk), ``"mean"``."""

    restitution_mixing: str = "max"
    """How two shapes' restitution combine: ``"max"`` (Box2D), or another rule of
    ``friction_mixing``'s list."""

    length_units_per_meter: float = 1.0
    """Length units per metre, finite and positive: 1 (default) for a world in metres, 100 for
    centimetres, for pixels the pixels a metre is drawn at (30-100 in most games). Every length
    tolerance and speed limit of the engine is this many units: the linear slop, speculative
    distance, fat boxes' margin, continuous collision's gaps, the NGS solvers' largest
    correction, and the defaults of ``contact_speed``, ``max_linear_speed``,
    ``restitution_threshold``, ``hit_event_threshold`` and of a new body's
    ``sleep_threshold``; so a world sized in these units behaves as its twin in metres (Box2D
    v3's ``b2SetLengthUnitsPerMeter``). A speed setting assigned a value is taken as given, in
    units/s, and keeps it when this changes (Box2D v3: the defaults are scaled, the user's values
    are not); a body's sleep threshold is its world's default when it is made. Angles, times,
    masses and dimensionless settings are unchanged, and so are the input bounds of the public
    boundary (coordinates and sizes within 1e5, body speeds within 1e5 per second). Set it
    first: ``World(gravity=(0, -500), length_units_per_meter=50)``."""

    threads: int = 1
    """Chunks, run on Numba's threads, that the step's parallel passes of one world are cut
    into, in [1, 1024]. The contact rows of a colour touch disjoint bodies (Box2D v3's graph
    colouring), so the default solver (``soft_step``) runs each colour's warm start, solve,
    relax and restitution, the preparation of the rows, the integration of the bodies and the
    narrowphase (every solver's) in that many chunks at once; the results are the same bits for
    every value. The pairs, the colouring, joints, finalize, sleep and continuous collision
    stay serial, and so do the other solvers' contact passes. A pass of fewer than 256 rows
    runs serially (a launch costs more), and a step of fewer than 256 touching contact rows
    and 256 awake bodies calls the serial solver and narrowphase themselves (the same bits),
    so that a small world steps as fast as at 1 thread. A value above 1 compiles the threaded
    kernels the first time a world asks (about 70 s of CPU on the loaded 2-core machine, once:
    cached), and needs Numba's TBB or OpenMP threading layer (else it is ignored, with a
    warning); ``pip install impulse2d[threads]`` adds TBB, whose launches cost a twentieth of
    OpenMP's on a busy machine. A world stepped in a ``WorldBatch`` runs serially there (the
    batch's threads are over its worlds). Default 1, from measurements on the 2-core machine
    (BENCHMARKS.md, "Threads inside one world" and "Small worlds' fixed costs, third round"):
    small worlds step alike at 1 and 2 threads, the big pyramids gain 1.1-1.2x at 2, but
    worlds above the threshold whose work is light or serial lose (``rain_2000`` 0.69x,
    ``joint_grid`` 0.79x), on a machine whose cores are busy the threads wait for each other,
    and a default above 1 would compile the threaded entries on every first run (about 55 s
    of CPU, where the whole cold start's target is 30 s)."""

    solver_precision: str = "float64"
    """The floating type of the contact passes of ``soft_step`` and ``soft_step_v31`` (the
    threaded ``soft_step`` too): ``"float64"`` (default) or ``"float32"``, Box2D v3's, which
    solves the contact rows 8 to an AVX2 register instead of 4, in half the bytes: the passes
    ran 1.6-2.3x faster on the big pyramids and 1.4-1.5x on ``rain_2000`` (BENCHMARKS.md,
    session 13, ``lanes38``). Bodies, integration, restitution, joints and the rest of the step
    stay float64; the results are bit-identical for any thread count, but not those of float64
    (a pyramid's bodies move about as far from float64's as with gravity one float32 ulp
    larger). The other solvers (and ``direct``'s fallback) solve in float64 whatever it says,
    and so does a small world (under 32 dynamic bodies at its first step or the first after a
    change of settings, the float64 lanes' threshold), whose contacts go row by row, where lanes
    do not pay: its results are float64's bits. A float32 world conserves linear momentum
    to about 1e-7 of its scale (float64: to rounding, about 1e-12). The first float32 world
    compiles its passes (a few seconds of CPU, once: cached)."""

    _lock = None  # the world's StepLock (_lock.bind): changes are refused while it holds

    def __setattr__(self, name: str, value) -> None:
        lock = self._lock
        if lock is not None and lock.stepping:
            raise _lock.locked(f"WorldSettings.{name} = ...")
        if lock is not None and lock.seat is not None:
            lock.seat.mark()  # (its world's batch checks the world's settings again)
        units = self.__dict__.get("length_units_per_meter", 1.0)
        value = _check(name, value, units)
        if type(value) is PerMeter and float(value) != value.metres * units:
            value = float(value)  # another world's default, assigned here: a value as given
        super().__setattr__(name, value)
        if name == "length_units_per_meter":
            for scaled in PER_METER:
                default = self.__dict__.get(scaled)
                if type(default) is PerMeter:
                    super().__setattr__(scaled, PerMeter(default.metres * value, default.metres))
        # Whoever derives values from the settings caches them here (the step packs them into
        # its kernel's arguments once per change, not once per step); any change clears it.
        object.__setattr__(self, "_derived", None)

    def __getstate__(self) -> dict:
        # A copy or a pickle is a free-standing settings object: the lock is its world's.
        return {k: v for k, v in self.__dict__.items() if k != "_lock"}

    def replace(self, **changes) -> WorldSettings:
        """A validated copy with ``changes`` applied (defaults that follow the unit still do)."""
        _known(changes)
        return WorldSettings._with_changes(
            **{**{f.name: getattr(self, f.name) for f in fields(self)}, **changes})

    @classmethod
    def _with_changes(cls, **changes) -> WorldSettings:
        """``WorldSettings().replace(**changes)``, validating each field once (a new world's
        settings: every Gymnasium reset makes a world). The unit is set before the speeds, which
        are validated against bounds in it."""
        key = _made_key(cls, changes)
        made = _MADE.get(key) if key is not None else None
        if made is not None:
            # the same changes validated before (every Gymnasium reset of the pybox2d layer
            # makes a world of the same settings): a copy of that result, checked then
            settings = object.__new__(cls)
            settings.__dict__.update(made)
            return settings
        _known(changes)
        if "length_units_per_meter" not in changes:
            settings = cls(**changes)
        else:
            settings = cls(length_units_per_meter=changes.pop("length_units_per_meter"))
            for name, value in changes.items():
                setattr(settings, name, value)
        if key is not None:
            if len(_MADE) >= 64:
                _MADE.clear()
            _MADE[key] = dict(settings.__dict__)
        return settings


def _document_fields(cls) -> None:
    """Append every field's attribute docstring to ``cls.__doc__``.

    ``help()`` and ``inspect.getdoc`` drop the string that follows a field in a class body (only
    Sphinx reads those), so the class docstring would otherwise say nothing about the settings.
    The docstrings are read from this file's text with one regular expression (a field line,
    then a triple-quoted string), not ``ast`` (8 ms at import against 0.3 ms, measured);
    without the source (a zip import) the class keeps its short docstring."""
    try:
        source = Path(__file__).read_text(encoding="utf-8")
    except OSError:  # pragma: no cover - only without the source file
        return
    docs = dict(re.findall(r'^    (\w+): [^\n]*\n    """(.*?)"""', source, re.S | re.M))
    entries = []
    for f in fields(cls):
        text = inspect.cleandoc(docs.get(f.name, "(undocumented)")).replace("\n", "\n    ")
        default = f.default_factory() if f.default is MISSING else f.default
        entries.append(f"{f.name} : {f.type} = {default!r}\n    {text}")
    cls.__doc__ = f"{inspect.cleandoc(cls.__doc__)}\n\nFields:\n\n" + "\n\n".join(entries) + "\n"


_document_fields(WorldSettings)


_MADE: dict = {}  # _made_key -> the fields of WorldSettings._with_changes' result then
_PLAIN = (bool, int, str, type(None))


def _made_key(cls, changes: dict):
    """A key under which ``_with_changes(**changes)`` is a function of the key alone: the
    names, exact types and values in order, when every value is a bool, int, str, None or a
    float other than 0 and NaN (0.0 and -0.0 are equal as keys, and would be kept apart by the
    fields); else None (not cached)."""
    key = [cls]
    for name, value in changes.items():
        t = type(value)
        if not (t in _PLAIN or (t is float and value == value and value != 0.0)):
            return None
        key.append((name, t, value))
    return tuple(key)


def _known(changes: dict) -> None:
    """TypeError for a name in ``changes`` that is not a setting."""
    if not _FIELD_NAMES:
        _FIELD_NAMES.update(f.name for f in fields(WorldSettings))
    for name in changes:
        if name not in _FIELD_NAMES:
            raise TypeError(f"unknown setting {name!r}; known settings: "
                            f"{', '.join(sorted(_FIELD_NAMES))}")


_FIELD_NAMES: set = set()  # WorldSettings' field names (filled on first use)


def _check(name: str, value, units: float = 1.0):
    """``value`` for setting ``name``, validated (speeds against bounds in the world's
    ``units`` per metre), or ValueError/TypeError naming it."""
    if name == "solver":
        if value not in SOLVERS:
            raise ValueError(f"solver must be one of {SOLVERS}, got {value!r}")
        return value
    if name == "direct_fallback":
        if value is not None and (value not in SOLVERS or value == "direct"):
            raise ValueError(f"direct_fallback must be None or one of "
                             f"{tuple(x for x in SOLVERS if x != 'direct')}, got {value!r}")
        return value
    if name == "solver_precision":
        if value not in PRECISIONS:
            raise ValueError(f"solver_precision must be one of {PRECISIONS}, got {value!r}")
        return value
    if name == "direct_level":
        if value not in DIRECT_LEVELS:
            raise ValueError(f"direct_level must be one of {DIRECT_LEVELS}, got {value!r}")
        return value
    if name == "direct_max_rows":
        value = _validate.integer(value, name)
        if not 1 <= value <= 100_000:
            raise ValueError(f"direct_max_rows must be between 1 and 100000, got {value}")
        return value
    if name == "threads":
        value = _validate.integer(value, name)
        if not 1 <= value <= 1024:
            raise ValueError(f"threads must be between 1 and 1024, got {value}")
        return value
    if name == "diagnostics":
        if isinstance(value, str):
            if value != "exact":
                raise ValueError(f"diagnostics must be True, False or 'exact', got {value!r}")
            return value
        return _validate.flag(value, name)
    if name in ("friction_mixing", "restitution_mixing"):
        if value not in MIXING_RULES:
            raise ValueError(f"{name} must be one of {MIXING_RULES}, got {value!r}")
        return value
    if name in ("substeps", "velocity_iterations", "position_iterations"):
        value = _validate.integer(value, name)
        if not 1 <= value <= 1000:
            raise ValueError(f"{name} must be between 1 and 1000, got {value}")
        return value
    if name in ("warm_starting", "enable_contact_events", "enable_body_events", "enable_sleep",
                "enable_continuous", "continuous_box2d23"):
        return _validate.flag(value, name)
    # Upper bounds and their reasons: _validate (MAX_HERTZ, MAX_SPEED, MAX_FACTOR).
    if name in ("contact_hertz", "joint_hertz"):
        return _validate.hertz(value, name, allow_zero=False)
    if name in ("contact_speed", "max_linear_speed"):
        checked = _validate.speed_limit(value, name, units=units)
        return value if type(value) is PerMeter else checked  # (a default: kept as the marker)
    if name in ("restitution_threshold", "hit_event_threshold", "velocity_tolerance"):
        checked = _validate.speed_limit(value, name, positive_only=False, units=units)
        return value if type(value) is PerMeter else checked
    if name == "length_units_per_meter":
        return _validate.positive(value, name, 1.0e6)
    if name in ("contact_damping_ratio", "joint_damping_ratio"):
        return _validate.factor(value, name)
    if name == "time_to_sleep":
        return _validate.non_negative(value, name, 1.0e6, "s")
    if name == "baumgarte":
        value = _validate.non_negative(value, name)
        if value > 1.0:
            raise ValueError(f"baumgarte must be in [0, 1], got {value}")
        return value
    raise AttributeError(f"WorldSettings has no setting {name!r}")


MIXING_CODES = {rule: i for i, rule in enumerate(MIXING_RULES)}
"""Integer codes of the mixing rules, as the narrowphase kernel reads them."""

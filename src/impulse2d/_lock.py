"""The world's lock while its step runs user code, and the work deferred to after the step.

The only Python a step runs that is not the engine's is the callbacks of :mod:`.callbacks`
(the pair filter and ``pre_solve``), called between the narrowphase and the solver with the
step's arrays half-way: a body destroyed or created there would leave the contact rows, the
constraint order and the stores the compiled step holds pointing at rows that no longer mean
what they did (a coin destroyed in ``pre_solve`` raised ``IndexError`` from inside the step,
and a body created there was silently half-stepped). Box2D locks its world for the whole step
(``b2World::IsLocked``, ``world->locked``) and asserts in every mutating call.

Here :class:`StepLock` ``.stepping`` is True exactly while a callback runs (:meth:`.callbacks.
Callbacks.run` sets it), so a world without callbacks never touches it in its step. Every
public mutating entry point (creating and destroying bodies, shapes, chains and joints, the
setters of bodies, shapes, joints and settings, ``apply_*``, ``World.step``, ``restore``, the
gravity and the callbacks themselves) starts with :func:`check`: one attribute read when the
world is not stepping, and a :class:`WorldLockedError` naming the call, before anything is
written, when it is (the calls a game makes every frame, ``apply_*`` and the position and
velocity setters, test ``world._lock.stepping`` inline, without the call). User data and
everything that only reads stay free.

What a game wants to do from a callback (destroy the coin the player touched) it hands to
``World.after_step(fn)``: the functions run once, in the order given, right after the step
that is running (or the next one) returns, with the world consistent and unlocked.
"""

from __future__ import annotations


class WorldLockedError(RuntimeError):
    """A call that would change the world was made while the world is stepping (from a step
    callback). Nothing was changed; do it after ``world.step`` returns (``world.after_step``)."""


class StepLock:
    """One world's lock flag and its queue of after-step functions."""

    __slots__ = ("stepping", "after", "seat")

    def __init__(self) -> None:
        self.stepping = False
        self.after: list = []  # callables, run in order after the next step returns
        # the world's place in a WorldBatch (_batch_worlds.Seat), which every change to the
        # world marks so that the batch's next step checks that world again; None outside one
        self.seat = None

    def run_after(self) -> None:
        """Run the queued functions, in order, each once. The queue is taken first, so a
        function that queues another (or steps the world) queues it for the next step. If
        any raises, the rest still run (each is a separate request, e.g. one coin each) and
        the first exception is raised once all have run."""
        queued, self.after = self.after, []
        first = None
        for fn in queued:
            try:
                fn()
            except Exception as error:  # noqa: BLE001 (re-raised below, after the rest)
                if first is None:
                    first = error
        if first is not None:
            raise first


def check(world, call: str) -> None:
    """Raise :class:`WorldLockedError` if ``world`` is stepping; ``call`` names what was
    attempted (``"Body.position = ..."``, ``"World.destroy_body"``)."""
    lock = world._lock
    if lock.stepping:
        raise locked(call)
    if lock.seat is not None:
        lock.seat.mark()  # (a change is coming: the world's batch checks it again)


def locked(call: str) -> WorldLockedError:
    return WorldLockedError(
        f"the world is stepping: {call} is not allowed inside a step callback (pre_solve, "
        f"pair_filter), where the step's arrays are half-way; do it after world.step "
        f"returns, for example with world.after_step(lambda: ...)")


def bind(settings, lock: StepLock) -> None:
    """Make the world's ``settings`` object refuse changes while ``lock`` holds
    (``WorldSettings.__setattr__`` reads it)."""
    object.__setattr__(settings, "_lock", lock)


def check_callable(fn) -> None:
    if not callable(fn):
        raise TypeError(f"fn must be a callable taking no arguments, got {type(fn).__name__}")

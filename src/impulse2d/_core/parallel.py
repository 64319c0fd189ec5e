"""Compiling a world's kernels in several processes at once.

Numba compiles in one thread at a time (a global compiler lock), so the first step of a world,
which needs the pair search (about 15 s), the narrowphase, a solver and the step kernel itself,
compiled them one after the other: 30 s on the 2-core CI machine. These are independent units
(:class:`.lazy.LazyKernel`), so when a world needs several that are neither compiled in this
process nor in the cache, :func:`compile_units` gives some of them to helper processes and
compiles the rest here meanwhile.

A helper is ``python -c`` importing this package from the same directory. It compiles its units
into a cache of its own, a temporary directory, and says where it put each unit's files; this
process then copies those files (Numba's index and data file of the unit's kernel) into its own
cache and loads them from there. A helper never writes into the shared cache, because Numba's
cache is not safe against two processes saving new signatures of one kernel at once (both pick
the same data file name): the helpers and this process compile some small kernels in common.

The split is the longest-processing-time rule over the units' measured compile times
(:attr:`.lazy.LazyKernel.seconds`), counting the work this process must do itself (the step
kernel, typed from the world's own stores) and a helper's start (a Python with Numba and the
package: :data:`HELPER_START_SECONDS`). A helper whose share is below
:data:`MIN_SHARE_SECONDS` is not started.

The units every world needs (the pair search, the narrowphase) are given to a helper earlier
still, at the process's first compile of a kernel of the package, usually while the first
world is built (:func:`start_early`); the first step's plan takes that helper over.

A unit the world's first step does not call (its ``later`` units: the pair stage's
incremental path, which a step that lacks it replaces by the global search, the same pairs;
the wake and at-rest stages, which only a world with sleepers runs) goes to a helper after
all the others: the first step waits only for the rest, and a thread of this
process loads the later unit once its helper delivers it and hands it to the step
(``ready``), while the world steps. The helper copies a later unit's files into this process's
cache itself, so a process that ends first leaves it to finish on its own (it then removes its
own directory): waiting for it at the exit made a short cold run end later than before (a
cold ``pyramid_20`` that exits after its first step by the later unit's 4-5 s), and the
cache still ends up whole. While such a helper runs, a file beside the unit's cache files
names it (:func:`_later_marker`), so that the next processes, warm runs started before it is
done, do without the unit rather than each starting a helper of their own to compile it again
(they would all compete for the cores). Anything that needs a later unit at once waits for its
helper rather than compiling it again.

``warmup --all`` plans nothing (:func:`take_turns`): the units, in their groups, wait in one
queue, longest first, and each process takes the next as it finishes the last (a thread of this
process feeds a helper its next group when it has delivered the one before), so both processes
end together whatever the load and however wrong the units' estimates are. Planned from the
estimates, the two processes of a ``warmup --all`` ended 57.5 s of CPU apart (BENCHMARKS.md,
session 21: the batch's kernels were estimated at half their cost). Work of this process's
own that needs some of the queued units (the pybox2d layer's worlds, whose kernels are no
units) waits in the queue too: the groups it needs go first, and this process does it between
two of its groups as soon as they are all at hand, while the helper goes on with the queue;
done after the queue, it kept the helper idle to the end (session 25).

Nothing depends on a helper: a helper that cannot start, fails or leaves no files costs its time
only, and what it did not deliver is compiled here, as it would have been. Numba checks every
copied entry as it checks its own (CPU, Numba version, source stamp).

``IMPULSE2D_COMPILE_PROCESSES`` sets how many processes share a compile (default: the number of
CPUs, at most 4; 1 compiles everything in the process that needs it).
"""

from __future__ import annotations

import atexit
import gc
import itertools
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import warnings


from . import lazy
from .cache import PACKAGE_DIR, PACKAGE_NAME, PEER_ROOTS, PEERS_VARIABLE, cache_root, copy_file


def _processes() -> int:
    value = os.environ.get("IMPULSE2D_COMPILE_PROCESSES", "")
    try:
        return max(1, int(value))
    except ValueError:
        return max(1, min(os.cpu_count() or 1, 4))


PROCESSES = _processes()
HELPER_START_SECONDS = 2.0
"""A helper's start before it compiles: Python, Numba, the package and Numba's compiler
registries (1.5 s measured on the 2-core CI machine)."""
MIN_SHARE_SECONDS = 3.0
"""A helper is started for at least this many seconds of compiling."""
MARKER_SECONDS = 600.0
"""How long a later unit's marker (:func:`_later_marker`) is believed: far longer than its
helper takes on a loaded machine (the search around the moved boxes: under 2 minutes of
wall after a cold ``pyramid_20``'s first step at load 15, BENCHMARKS.md session 17)."""


def plan(units, own_seconds: float, processes: int, together=(), pinned=(), busy=()):
    """Split ``units`` (:class:`.lazy.LazyKernel` to compile) between this process, which also
    has ``own_seconds`` of compiling of its own, and up to ``processes - 1`` helpers: the
    longest unit first, each onto the process with the least work so far. ``together``: groups
    of units that go to one process as one item (units that share callees: a process compiles a
    callee once for all its units, so splitting such a group compiles the callees twice); those
    of a group not in ``units`` are left out. ``pinned``: units this process compiles itself
    (its own work needs them before the helpers deliver), with their groups. ``busy``: the
    seconds of compiling left to each helper already running (:func:`start_early`), which
    take the first helpers' places. Returns this process's units and a list of each helper's
    units; a new helper's share below :data:`MIN_SHARE_SECONDS` comes back to this process
    (a running helper's share is kept, whatever its size: it is started already)."""
    items = _items(units, together)
    busy = list(busy)[: processes - 1]
    loads = [own_seconds] + busy + [HELPER_START_SECONDS] * (processes - 1 - len(busy))
    shares = [[] for _ in range(processes)]
    pinned_ids = {id(u) for u in pinned}
    for item in [item for item in items if any(id(u) in pinned_ids for u in item)]:
        items.remove(item)
        loads[0] += sum(u.seconds for u in item)
        shares[0].extend(item)
    for item in sorted(items, key=lambda item: -sum(u.seconds for u in item)):
        least = min(range(processes), key=loads.__getitem__)
        loads[least] += sum(u.seconds for u in item)
        shares[least].extend(item)
    mine, helpers = shares[0], []
    for k, share in enumerate(shares[1:]):
        if k < len(busy) or sum(u.seconds for u in share) >= MIN_SHARE_SECONDS:
            helpers.append(share)
        else:
            mine.extend(share)
    return mine, helpers


def _items(units, together):
    """``units`` as the lists that go to one process each: the groups of ``together`` (their
    members in ``units``), then every other unit alone."""
    items, grouped = [], set()
    for group in together:
        members = [u for u in group if u in units and id(u) not in grouped]
        grouped.update(id(u) for u in members)
        if members:
            items.append(members)
    return items + [[u] for u in units if id(u) not in grouped]


_ROOT_PREFIX = "impulse2d-compile-"
"""The start of a helper's cache directory's name (a temporary directory)."""
_HELPER = ("import sys; sys.path.insert(0, sys.argv[1]); "
           "from impulse2d._core.parallel import helper_main, exit_now; "
           "helper_main(sys.argv[2:]); exit_now()")


class _Helper:
    """A helper process compiling ``units`` into the cache directory ``root``, then the units
    :meth:`add` sends it, until :meth:`deliver` closes its input; then its :meth:`add_later`
    units, which a thread collects (:meth:`deliver`)."""

    def __init__(self, units):
        # (imported here, by a process that compiles: 7.5 ms of CPU of a warm start otherwise,
        # measured on the loaded 2-core machine, and nothing else of a warm process needs it)
        import subprocess
        self.units = list(units)
        self.later = []  # (units compiled after all of ``units``, delivered in the background)
        self.ready = None
        self.thread = None
        self.feeder = None  # (the thread of feed(): this helper takes its units from a queue)
        self.undelivered = []
        self.root = tempfile.mkdtemp(prefix=_ROOT_PREFIX)
        env = dict(os.environ, NUMBA_CACHE_DIR=self.root, IMPULSE2D_COMPILE_PROCESSES="1",
                   IMPULSE2D_QUIET="1", **{PEERS_VARIABLE: cache_root(),
                                           _SETTLE_VARIABLE: "1" if _SETTLING else ""})
        # its stderr into a file (read only if it fails: a pipe left unread could fill)
        with open(os.path.join(self.root, "stderr.txt"), "w") as errors:
            self.process = subprocess.Popen(
                [sys.executable, "-c", _HELPER, os.path.dirname(PACKAGE_DIR), PACKAGE_DIR,
                 *(u.key for u in units)],
                env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors,
                text=True)
        # (each process loads a kernel the other has compiled rather than compile it again)
        self.peer_root = os.path.join(self.root, PACKAGE_NAME)
        PEER_ROOTS.append(self.peer_root)

    def add(self, units) -> None:
        """Give the running helper more units (compiled after those it has)."""
        units = [u for u in units if u not in self.units]
        if self._send(units):
            self.units.extend(units)

    def add_later(self, units, ready) -> None:
        """Give the running helper units to compile after all the others, each with this
        process's cache directory of its kernel, which the helper copies its files into:
        :meth:`deliver` waits only for the others, and a thread loads each of these as it
        comes and calls ``ready(unit)``. Sent after every :meth:`add`."""
        units = [u for u in units if _cache_path(u)]  # (no cache: nothing to deliver into)
        if self._send(units, later=True):
            self.later.extend(units)
            self.ready = ready
            for unit in units:
                _write_marker(unit, self.process.pid)

    def _send(self, units, later=False) -> bool:
        if not units:
            return False
        try:
            self.process.stdin.write("".join(
                f"{u.key}\t{_cache_path(u)}\n" if later else f"{u.key}\n" for u in units))
            self.process.stdin.flush()
        except (OSError, ValueError):
            return False  # (it has died: deliver() reports it, and the units compile here)
        return True

    def feed(self, queue) -> None:
        """Give the helper the groups of ``queue`` (:class:`_Queue`) one at a time, the next
        when it has delivered the last, from a thread that copies each unit's files into this
        process's cache as it comes; :meth:`deliver` waits for the thread. The helper is never
        more than one group ahead of what it has delivered, so this process can take the
        rest."""
        self.feeder = threading.Thread(target=self._feed, args=(queue,), name="impulse2d-feed",
                                       daemon=True)
        self.feeder.start()

    def _feed(self, queue) -> None:
        waiting = {unit.key: unit for unit in self.units}  # (its first group: in its argv)
        try:
            while True:
                if not waiting:
                    item = queue.take()
                    if item is None or not self._send(item):
                        break  # (none left, or it has died: what it was given compiles here)
                    self.units.extend(item)
                    waiting.update((unit.key, unit) for unit in item)
                if not self._adopt_next(waiting):
                    break
        except (OSError, ValueError):
            pass
        finally:
            self.undelivered = list(waiting.values())
            try:
                self.process.stdin.close()  # (it ends after its last unit)
            except (OSError, ValueError):
                pass

    def _adopt_next(self, waiting) -> bool:
        """Read the helper's next line and copy the files of the unit it names into this
        process's cache, if ``waiting`` (units by key) holds it (taken out); False at the end
        of its output."""
        line = self.process.stdout.readline()
        if not line:
            return False
        key, files = json.loads(line)
        if key in waiting:
            _adopt(waiting.pop(key), files)
        return True

    def left_seconds(self) -> float:
        """About how many seconds of compiling it has left: its units' estimates and its own
        start less the CPU time it has had (Linux's ``/proc``; elsewhere nothing is taken
        off: on a busy machine the time since it started says little of its progress)."""
        return max(0.0, HELPER_START_SECONDS + sum(u.seconds for u in self.units)
                   - _cpu_seconds(self.process.pid))

    def deliver(self) -> None:
        """Wait for the helper's units (not its later ones) and copy the files it made into
        this process's cache; its later units are left to a thread (:meth:`add_later`). A
        helper that failed is reported (a RuntimeWarning): its units then compile here, which
        costs only time, but a helper that always fails would double every first run's wait."""
        why = None
        if self.feeder is not None:
            self.feeder.join()
            if self.undelivered and self.process.wait() != 0:
                why = f"exit code {self.process.returncode}{self._last_error()}"
            self._end()
            self._warn(why, self.undelivered)
            return
        waiting = {unit.key: unit for unit in self.units}
        try:
            self.process.stdin.close()  # (every unit is sent: it ends after the last)
            while waiting and self._adopt_next(waiting):
                pass
            if waiting:
                self.later = []  # (it failed: nothing more comes)
                if self.process.wait() != 0:
                    why = f"exit code {self.process.returncode}{self._last_error()}"
        except (OSError, ValueError) as exc:
            why = f"{type(exc).__name__}: {exc}"  # what was not delivered is compiled here
            self.later = []
        if self.later:
            # (a daemon: a process that ends leaves the helper to finish, see the module)
            self.thread = threading.Thread(target=self._deliver_later, name="impulse2d-later",
                                           daemon=True)
            self.thread.start()
        else:
            self._end()
        self._warn(why, self.units)

    @staticmethod
    def _warn(why, units) -> None:
        if why is not None:
            warnings.warn(f"impulse2d: a compile helper process failed ({why}); "
                          f"{', '.join(u.what for u in units)} compile in this process "
                          f"instead (IMPULSE2D_COMPILE_PROCESSES=1 turns the helpers off)",
                          RuntimeWarning, stacklevel=3)

    def _deliver_later(self) -> None:
        """The thread of :meth:`add_later`: each later unit, once the helper names it (its
        files in this process's cache), loaded from there (never compiled here: a unit the
        helper did not deliver is left to the next process that needs it) and handed to
        ``ready``; then the helper's end."""
        later = {unit.key: unit for unit in self.later}
        try:
            for line in self.process.stdout:
                key, _ = json.loads(line)
                unit = later.get(key)
                if unit is not None:
                    if unit.must_compile() is False:
                        unit.address()
                        if self.ready is not None:
                            self.ready(unit)
        except (OSError, ValueError):
            pass  # (nothing depends on it: a step without a later unit takes another way)
        finally:
            self._end()

    def _end(self) -> None:
        try:
            self.process.wait()
        finally:
            self._forget()

    def _forget(self) -> None:
        """Its cache no longer read (:data:`.cache.PEER_ROOTS`), and removed."""
        if self.peer_root in PEER_ROOTS:
            PEER_ROOTS.remove(self.peer_root)
        shutil.rmtree(self.root, ignore_errors=True)

    def _last_error(self) -> str:
        """``: `` and the last line the helper wrote to stderr, if any."""
        try:
            with open(os.path.join(self.root, "stderr.txt")) as errors:
                lines = [line.strip() for line in errors if line.strip()]
        except OSError:
            return ""
        return f": {lines[-1][:300]}" if lines else ""

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()
        self._forget()


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) process ``pid`` has had, or 0 where it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


_EARLY: list = []
"""The helper :func:`start_early` started, until a compile plan takes it over."""
_LATER: dict = {}
"""Each later unit given to a helper (by ``id``; :func:`compile_units`), and that helper."""
_PLANNED: list = []
"""Not empty once :func:`compile_units` has run (:func:`start_early` then starts nothing)."""
_SETTLING: list = []
"""Not empty once :func:`hold_early` has run: the helpers started after settle their heaps."""
_SETTLE_VARIABLE = "IMPULSE2D_SETTLE_HEAP"
"""Set (to 1) in a helper's environment: it keeps its garbage (:func:`keep_garbage`) and
settles its heap after each unit."""
_KEEPING: list = []
"""Not empty once :func:`keep_garbage` has run."""
_TAKING: list = []
"""From :func:`take_turns` to the next :func:`compile_units`: its ``work`` and ``needs``."""


def start_early(units) -> None:
    """Start a helper now on those of ``units`` (:class:`.lazy.LazyKernel` every world needs:
    the pair search, the narrowphase) that must be compiled, before any world asks for them.

    Called on the process's first compile of a kernel of the package: that is almost always a
    world being built (its bodies' mass properties), whose first step will need these units.
    A helper started there overlaps its own start (about 2 s) and part of its compiling with
    the building of the world, which a helper started by the first step waited for. The first
    step's plan (:func:`compile_units`) counts what this helper has left, gives it more units
    if that pays and collects its work. A process that never steps a world stops the helper
    when it exits: it cost a core's time, not the process's. It is announced by the plan
    that takes it over (the compile notice of a build that compiles nothing else stays
    one line)."""
    if (_EARLY or _PLANNED or PROCESSES < 2 or not lazy.JIT or not sys.executable
            or getattr(sys, "frozen", False)):
        return  # (after a plan, its helpers have the units: this would compile them again)
    try:
        todo = [unit for unit in units if unit.must_compile()]
        if not todo:
            return
        helper = _Helper(todo)
    except (OSError, RuntimeError):
        return  # (nothing depends on it: the first step compiles them as before)
    _EARLY.append(helper)
    atexit.register(_stop_early, helper)


def hold_early(units=()) -> None:
    """Start no early helper in this process (:func:`start_early`) but one on ``units`` now,
    those that must compile: for a caller that plans every unit itself and needs some of them
    in this process before a helper would deliver them (``warmup --all``'s plan steps a batch
    of the units the early helper would have taken), and compiles many: its helpers keep
    their garbage (:func:`keep_garbage`: each ends when its units are delivered), and they and
    its plan settle their heaps between units (:func:`settle_heap`). Its next
    :func:`compile_units` takes the helper over."""
    _SETTLING[:] = [True]
    start_early(units)
    _PLANNED[:] = [True]


def take_turns(work=None, needs=()) -> None:
    """Plan the next :func:`compile_units` of this process from no estimate: its helpers and
    this process take the units from one queue as each finishes its last (see the module
    docstring); later compiles plan again. For ``warmup --all``, whose
    units' estimates were off by up to a factor of two; a first step's plan still splits its
    few units by their estimates (a helper fed one unit at a time waits for this process's
    thread between units, and this process's own work comes first).

    ``work``: more of this process's own work (a callable), which needs the units ``needs``
    (:class:`.lazy.LazyKernel`) compiled before it starts: the groups holding them go first
    in the queue, and this process runs ``work`` between the groups it takes as soon as each
    of ``needs`` is compiled here or in its cache (a helper delivered it), else at the end
    (``needs`` must hold every unit ``work`` asks for: one still queued would be planned
    again, from inside ``work``)."""
    _TAKING[:] = [(work, tuple(needs))]


class _Queue:
    """Groups of units (:func:`_items`), the longest first by their estimates (so that the
    last to be taken are short), taken by whichever process is free: this one, or a helper's
    feeding thread (:meth:`_Helper.feed`). Those holding a unit of ``first`` come before the
    rest (longest first among them)."""

    def __init__(self, items, first=()):
        first_ids = {id(u) for u in first}
        self._items = sorted(items, key=lambda item: (any(id(u) in first_ids for u in item),
                                                      sum(u.seconds for u in item)))
        self._lock = threading.Lock()

    def take(self):
        """The next group (a list of units), or None when none is left."""
        with self._lock:
            return self._items.pop() if self._items else None


def _stop_early(helper) -> None:
    if helper.process.poll() is None and not helper.later:  # (later units: it finishes alone)
        helper.stop()


def _cache_path(unit):
    """This process's cache directory of ``unit``'s kernel (None: not cached)."""
    cache = getattr(getattr(unit, "dispatcher", None), "_cache", None)
    return getattr(cache, "_cache_path", None)


def _later_marker(directory: str, key: str) -> str:
    """The file naming the helper (its process id) that compiles the later unit ``key`` into
    the cache directory ``directory``, while it does."""
    return os.path.join(directory, f"{key}.later")


def _write_marker(unit, pid: int) -> None:
    try:
        with open(_later_marker(_cache_path(unit), unit.key), "w") as marker:
            marker.write(str(pid))
    except OSError:
        pass  # (only saves other processes' time)


def _compiled_elsewhere(unit) -> bool:
    """Whether a live helper (of this process or another) is compiling the later ``unit``
    into this cache (:func:`_later_marker`)."""
    directory = _cache_path(unit)
    if directory is None:
        return False
    path = _later_marker(directory, unit.key)
    try:
        with open(path) as marker:
            os.kill(int(marker.read()), 0)
        # (a process id is reused: a marker older than any helper's compile is stale too)
        return time.time() - os.path.getmtime(path) < MARKER_SECONDS
    except (OSError, ValueError):
        return False  # (no marker, or its helper has ended: a stale marker)


def _adopt(unit, files) -> None:
    """Copy a unit's cache files (``files``: the helper's directory and file names) into this
    process's cache of the unit's kernel."""
    target = _cache_path(unit)
    if not files or target is None:
        return
    _copy_files(files, target)


def _copy_files(files, target) -> None:
    """Copy ``files`` (a directory and file names) into the directory ``target``."""
    os.makedirs(target, exist_ok=True)
    directory, names = files
    # Data files first: an index is only ever seen with the data it names.
    for name in sorted(names, key=lambda n: n.endswith(".nbi")):
        copy_file(os.path.join(directory, name), os.path.join(target, name))


def compile_units(units, own_work=None, own_seconds: float = 0.0, together=(), pinned=(),
                  then=None, later=(), ready=None) -> None:
    """Compile (or load) every :class:`.lazy.LazyKernel` of ``units`` and run ``own_work`` (a
    compile this process must do itself, about ``own_seconds``), sharing the units that must be
    compiled with helper processes when that pays (see the module docstring); ``together`` and
    ``pinned`` as in :func:`plan`. ``then``: more of this process's own work, run once its
    units are compiled and before it waits for the helpers (``own_seconds`` counts it too), so
    that work which needs the ``pinned`` units keeps this process busy while the helpers
    finish theirs.

    ``later``: units that must be compiled but that nothing needs before they come: a helper
    compiles them after everything else and a thread of this process loads each as it comes
    and calls ``ready(unit)`` (see the module docstring); where no helper can, they compile
    here with ``units``. One given to a helper already is not given again."""
    todo, taking = [], bool(_TAKING)
    waiting = _TAKING[0] if taking and _TAKING[0][0] is not None else None
    _TAKING.clear()
    later = [unit for unit in later if id(unit) not in _LATER]
    helpers_can = (PROCESSES > 1 and lazy.JIT and sys.executable
                   and not getattr(sys, "frozen", False))
    if helpers_can:
        status = [unit.must_compile() for unit in [*units, *later]]
        if None not in status:
            todo = [unit for unit, must in zip(units, status) if must]
            later_status = status[len(units):]
            units = [*units, *(u for u, must in zip(later, later_status) if not must)]
            later = [u for u, must in zip(later, later_status) if must]
        else:
            helpers_can = False
    if later and not helpers_can:
        units, later = [*units, *later], []
    # (a unit another process's helper is compiling: done without here; the next process loads
    # it)
    later = [unit for unit in later if not _compiled_elsewhere(unit)]
    _PLANNED[:] = [True]
    helpers = list(_EARLY)  # a helper started early (start_early) is this plan's now
    _EARLY.clear()
    running = {id(u) for helper in helpers for u in helper.units}
    todo = [unit for unit in todo if id(unit) not in running and id(unit) not in _LATER]
    queue, queued = None, []
    if todo and taking and not later:
        pinned_ids = {id(u) for u in pinned}
        items = [item for item in _items(todo, together)
                 if not any(id(u) in pinned_ids for u in item)]
        queued = [unit for item in items for unit in item]
        queue = _Queue(items, waiting[1] if waiting is not None else ())
        for helper in helpers:
            helper.feed(queue)
        while len(helpers) < PROCESSES - 1:
            item = queue.take()
            try:
                helper = _Helper(item) if item is not None else None
            except OSError:
                helper = None  # (its group compiles here, in the last loop below)
            if helper is None:
                break
            helper.feed(queue)
            helpers.append(helper)
    elif todo:
        mine, shares = plan(todo, own_seconds, PROCESSES, together, pinned,
                            busy=[helper.left_seconds() for helper in helpers])
        for k, share in enumerate(shares):
            if k < len(helpers):
                helpers[k].add(share)
                continue
            try:
                helpers.append(_Helper(share))
            except OSError:
                continue
    if later:
        try:
            if not helpers:
                helpers.append(_Helper([]))
            helper = min(helpers, key=lambda h: sum(u.seconds for u in h.units))
            helper.add_later(later, ready)
        except OSError:
            helper = None
        if helper is not None and helper.later:
            _LATER.update((id(unit), helper) for unit in later)
        else:
            units = [*units, *later]  # (no helper took them: compiled here)
    # (said here, for an early helper too: what a first step waits for)
    where = " in a second process" if PROCESSES == 2 else " in another process"
    if queue is not None:
        lazy.NOTICE.say(f"{len(queued)} units, shared with {where[4:]} as each process "
                        f"finishes one", sum(u.seconds for u in queued) / PROCESSES)
    for helper in helpers if queue is None else ():
        if helper.units:
            lazy.NOTICE.say(", ".join(u.what for u in helper.units),
                            sum(u.seconds for u in helper.units), where)
        if helper.later:
            lazy.NOTICE.say(", ".join(u.what for u in helper.later),
                            sum(u.seconds for u in helper.later), f"{where}, while it steps")
    delegated = {id(u) for helper in helpers for u in helper.units}
    delegated.update(_LATER)
    delegated.update(id(u) for u in queued)
    try:
        if own_work is not None:
            own_work()
        for unit in units:
            if id(unit) not in delegated:
                unit.address()
                if _SETTLING or _KEEPING:
                    settle_heap()
        if then is not None:
            then()
        while queue is not None:
            if _SETTLING or _KEEPING:
                settle_heap()  # (this process's work so far, or its last group)
            if waiting is not None and _at_hand(waiting[1]):
                work, waiting = waiting[0], None
                work()
            item = queue.take()
            if item is None:
                break
            for unit in item:
                unit.address()
    except BaseException:
        for helper in helpers:
            helper.stop()
        raise
    for helper in helpers:
        helper.deliver()
    for unit in units:
        wait_later(unit)  # (a later unit this process needs now: its helper's, not compiled again)
        unit.address()  # the helpers' units load from the cache (or compile, had one failed)
    if waiting is not None:
        waiting[0]()


def _at_hand(units) -> bool:
    """Whether every one of ``units`` is compiled in this process or in its cache."""
    return all(unit.compiled_address() or unit.must_compile() is False for unit in units)


def wait_later(unit=None) -> None:
    """Wait until the helper given the later ``unit`` (every later unit: None) has delivered
    it (:func:`compile_units`): for what needs it now, e.g. ``impulse2d.warmup()``, which
    leaves the cache whole."""
    for key, helper in list(_LATER.items()):
        if unit is None or key == id(unit):
            if helper.thread is not None:
                helper.thread.join()
            if helper.thread is not None or helper.process.poll() is not None:
                _LATER.pop(key, None)


def helper_main(argv) -> None:
    """A helper: ``argv`` is the package directory the parent uses, then the keys of the units
    to compile. Prints, as JSON, each unit's cache directory and file names. A unit sent with
    a directory (a later unit: :meth:`_Helper.add_later`) has its files copied there first;
    once the parent has gone (its output closed), this removes its own cache directory when
    done."""
    expected, keys = argv[0], argv[1:]
    if os.path.realpath(PACKAGE_DIR) != os.path.realpath(expected):
        sys.exit(f"impulse2d helper: imported {PACKAGE_DIR}, not {expected}")
    import impulse2d  # noqa: F401  (creates every LazyKernel)
    done, orphan = set(), False
    settling = os.environ.get(_SETTLE_VARIABLE) == "1"
    if settling:
        keep_garbage()  # (after the import, which turns the collector back on)
    # the keys given, then those sent on stdin (compile_units), until it is closed; each
    # unit's files said as soon as they are there (a line of JSON: its key, directory, names)
    for line in itertools.chain(keys, sys.stdin):
        key, _, target = line.strip().partition("\t")
        if not key or key in done:
            continue
        done.add(key)
        unit = lazy.REGISTRY[key]
        unit.address()
        cache = unit.dispatcher._cache
        prefix = cache._cache_file._index_name[:-len(".nbi")] + "."
        directory = cache._cache_path
        names = [n for n in os.listdir(directory) if n.startswith(prefix)]
        if target:
            _copy_files((directory, names), target)
            try:
                os.unlink(_later_marker(target, key))
            except OSError:
                pass
        if not orphan:
            try:  # (the file descriptor itself: a closed pipe fails here, not at the exit)
                os.write(1, (json.dumps([key, [directory, names]]) + "\n").encode())
            except BrokenPipeError:
                orphan = True  # (the parent has gone: the later units go on into its cache)
        if settling:
            settle_heap()
    root = os.environ.get("NUMBA_CACHE_DIR", "")
    if orphan and os.path.basename(root).startswith(_ROOT_PREFIX):  # (its own, _Helper's)
        shutil.rmtree(root, ignore_errors=True)


def settle_heap() -> None:
    """Between the units of a process that compiles many (``warmup --all``'s two), once
    Python has collected its heap in full (the heap is large): collect the compiles' cyclic
    garbage and freeze what survives (:func:`gc.freeze`: no later collection scans it, as the
    package's import freezes its own heap), so that each collection scans what the units since
    the last settle left. What a compile leaves alive (Numba's caches, the code libraries)
    lives as long as the process, and every full collection scanned all of it again: in
    ``warmup --all`` 6 full collections took 6.1-6.5 s of the helper's CPU and 8 took
    6.9-7.3 s of the main process's, each 0.5-1.6 s as the heap grew (load 13-15,
    ``benchmarks/warmup_timeline.py``, session 29). Before Python's first full collection the
    heap is small: it is left as it is. (A cycle alive at a settle and dropped later is never
    freed: ``warmup --all``'s few small worlds.) A process that keeps its garbage
    (:func:`keep_garbage`) collects nothing; once it has been :data:`KEEP_GARBAGE_BYTES` large,
    what it holds is frozen as it is (the garbage kept so far with it, never freed: collecting
    it would cost what keeping it saved) and the collector runs again."""
    if _KEEPING:
        if _peak_resident_bytes() >= KEEP_GARBAGE_BYTES:
            _KEEPING.clear()
            gc.freeze()
            gc.enable()
        return
    if gc.get_stats()[2]["collections"] > 0:
        gc.collect()
        gc.freeze()


def _physical_memory_bytes() -> int:
    """The machine's physical memory in bytes (2**62 where the system does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # (no sysconf, or no such name: Windows)
        return 1 << 62


KEEP_GARBAGE_BYTES = min(2 << 30, _physical_memory_bytes() // 8)
"""The peak resident memory up to which a process keeps its garbage (:func:`keep_garbage`),
checked between units: ``warmup --all``'s two processes peaked at 1.4 and 1.6 GB keeping it
all (0.6 GB each collecting it; ``benchmarks/warmup_timeline.py``, 2026-12-02 session 30).
At most an eighth of the machine's memory, so that the two processes of ``warmup --all`` keep
a quarter of it at most on a small machine (a 4 GiB one: 512 MiB each, about where they
peaked collecting)."""


def keep_garbage() -> None:
    """Turn Python's cyclic collector off in a process that compiles and then ends without
    freeing its heap (:func:`exit_now`: a compile helper of ``warmup --all``, the ``impulse2d
    warmup`` command): the compiles' cyclic garbage is kept rather than found and freed,
    object by object, until the process has been :data:`KEEP_GARBAGE_BYTES` large
    (:func:`settle_heap` then freezes it and turns the collector on). Finding and freeing it,
    with the collector run as :func:`settle_heap` and :data:`.lazy.COMPILE_COLLECTOR` ran it,
    took 4.0 s (15 %) of the 26.1 s of CPU a process took to compile the seven joint types'
    velocity entries one after the other; kept, it took 187 MB more at its peak (518 MB;
    medians of two runs each, ``benchmarks/warmup_collector.py``, load 15-19, 2026-12-02
    session 30)."""
    _KEEPING[:] = [True]
    gc.disable()


def _peak_resident_bytes() -> float:
    """This process's peak resident memory (infinite where it cannot be read: no garbage
    kept)."""
    try:
        import resource
    except ImportError:
        return float("inf")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # (bytes there, KiB on Linux)


def exit_now() -> None:
    """End this process, its work done, without Python's finalisation: the functions
    registered with :mod:`atexit` run (Numba's and llvmlite's shutdown flags, a profiler's
    dump), then the process exits at once, with status 0. For a process that only compiled (a
    helper; ``impulse2d warmup``): the finalisation freed the compiles' heap object by object,
    2.9 s of CPU for ``warmup --all``'s helper at load 10-14, while its parent waited for the
    exit (:meth:`_Helper.deliver`: 13-23 s of wall), and 3.2 s for the main process at the end
    of the command (``benchmarks/warmup_timeline.py``, session 29)."""
    sys.stdout.flush()
    sys.stderr.flush()
    atexit._run_exitfuncs()  # (os._exit skips them)
    os._exit(0)


__all__ = ["compile_units", "wait_later", "plan", "helper_main", "settle_heap", "keep_garbage",
           "exit_now", "start_early", "hold_early", "take_turns",
           "PROCESSES", "HELPER_START_SECONDS", "MIN_SHARE_SECONDS", "KEEP_GARBAGE_BYTES"]

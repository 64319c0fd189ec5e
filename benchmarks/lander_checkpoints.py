"""The native LunarLander's step on the calling thread, statement by statement: where the serial
Python before and after the batch kernel goes (issue 30: at 2 threads the other thread waits
for it).

    PYTHONPATH=src python benchmarks/lander_checkpoints.py [--num-envs 1024] [--steps 300] \
        [--threads 2] [--json FILE]

``envs_split.py`` times whole calls; the serial part is also the statements between them. Here
``BatchVectorEnv.step``, ``_step_batch``, ``LunarLanderVectorEnv._act`` and ``_discrete``,
``WorldBatch._step_state``, ``_batch_ready.clock`` and ``finish`` are compiled again from their
own source with a checkpoint after chosen statements (:data:`CHECKPOINTS`: a line's text, the
label, the indentation of the statement it ends): each checkpoint adds the calling thread's CPU
(``time.thread_time_ns``) since the one before to its label, so the labels partition the step
(their sum is printed beside the thread's own CPU over the steps: nested functions'
checkpoints continue the outer ones'). Labels in capitals are the kernel's (``RUN_AROUND``: the crew's step with the restarts beside it;
``RUN``: a step without restarts). Printed: us a vector step per label, largest first. A
checkpoint whose text is no longer in the source is an error (the source changed: update
:data:`CHECKPOINTS`).
"""

from __future__ import annotations

import argparse
import collections
import inspect
import json
import os
import sys
import textwrap
import time

ACC: collections.Counter = collections.Counter()
_LAST = [0]


def _cp(label: str) -> None:
    t = time.thread_time_ns()
    ACC[label] += t - _LAST[0]
    _LAST[0] = t


def _cp0() -> None:
    _LAST[0] = time.thread_time_ns()


CHECKPOINTS = {
    ("impulse2d.envs._vector", "BatchVectorEnv", "step"): (None, [
        ("actions = self._check_actions(actions)", "check actions", 4),
        ("acting, fresh = self._everyone, _NONE", "resetting", 4),
        ("actions, acting, fresh, self._resets_beside_step)", "after _step_batch", 4),
        ("self._done = finished", "finished", 4)]),
    ("impulse2d.envs._vector", "BatchVectorEnv", "_step_batch"): ("step: before _step_batch", [
        ("ended = self._after_step(fresh)", "_after_step", 4)]),
    ("impulse2d.envs.lunar_lander", "LunarLanderVectorEnv", "_act"): (
        "_step_batch: before _act", [
            ("writes = self._discrete(a, acting)", "after _discrete", 8)]),
    ("impulse2d.envs.lunar_lander", "LunarLanderVectorEnv", "_discrete"): (
        "_act: before _discrete", [
            ("SIDE_ENGINE_POWER, 17.0, float(SIDE_ENGINE_HEIGHT), SCALE, rows, first)",
             "actions, sin, cos, engine_impulses", 4)]),
    ("impulse2d.batch", "WorldBatch", "_step_state"): ("_step_batch: before _step_state", [
        ("refs = self._checked_refs(rows)  #", "checks", 4),
        ("np.empty((n, nb), dtype=bool), np.empty((n, nb), dtype=bool))", "BatchState", 4),
        ("fast, slow = _ready.prepare(state, dt)", "prepare", 4),
        ("slow = [k for k in slow if not _in(held, k)]", "held masks", 8),
        ("fast, held, (rows_written, *out), args, meanwhile, dt)", "RUN_AROUND", 12),
        ("slow = sorted(slow + slow_later)", "held joined", 8),
        ("seconds = self._run(fast, (rows_written, *out), args)", "RUN", 8),
        ("bits, unwritten = _ready.clock(state, fast, seconds, writes", "after clock", 8),
        ("again.extend(ran)  #", "after finish", 8)]),
    ("impulse2d._batch_ready", None, "clock"): ("_step_state: before clock", [
        ("bits, unwritten, *counts = tally.tolist()", "tally", 4),
        ("& (results[:, UNWRITTEN] == 0.0)]] = share", "profile share", 4),
        ("dicts[k][name] = True", "stale flags", 4)]),
    ("impulse2d._batch_ready", None, "finish"): ("_step_state: before finish", [
        ("# after-step functions: queued only through a marked world", "swept, asleep, woke", 4)]),
}
"""``(module, class or None, function)``: (the label of the time before its first statement,
or None for the outermost; ``(text, label, indentation)`` of each checkpoint, after the line
holding ``text``, at the indentation of the statement it ends in the dedented source)."""


def instrument(module_name: str, owner_name, name: str, start, points) -> None:
    """``name`` (of ``owner_name`` in ``module_name``, or the module's own) compiled again with
    its checkpoints, in its module's namespace."""
    module = sys.modules[module_name]
    owner = getattr(module, owner_name) if owner_name else module
    function = getattr(owner, name)
    lines = textwrap.dedent(inspect.getsource(function)).split("\n")
    out, body, found = [], False, set()
    for k, line in enumerate(lines):
        out.append(line)
        if not body and k > 0 and line.strip().endswith('"""'):
            body = True
            out.append("    " + ("_cp0()" if start is None else f"_cp({start!r})"))
            continue
        for text, label, indent in points:
            if text in line:
                found.add(text)
                out.append(" " * indent + f"_cp({name + ': ' + label!r})")
    missing = [text for text, _, _ in points if text not in found]
    if missing:
        raise SystemExit(f"{module_name}.{name}: checkpoints no longer in the source: {missing}")
    code = "\n".join(out)
    for indent in ("    ", "        ", "            "):
        code = code.replace(f"\n{indent}return ", f"\n{indent}_cp({name + ': the rest'!r})\n"
                                                  f"{indent}return ")
    namespace = dict(vars(module), _cp=_cp, _cp0=_cp0)
    exec(compile(code, f"<{module_name}.{name} with checkpoints>", "exec"), namespace)
    setattr(owner, name, namespace[name])


def main() -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--json", default="")
    args = parser.parse_args()

    import gymnasium as gym

    import impulse2d.batch  # noqa: F401 (the modules instrumented)
    import impulse2d.envs  # noqa: F401 (registers the environments)
    import impulse2d.envs.lunar_lander  # noqa: F401
    for (module, owner, name), (start, points) in CHECKPOINTS.items():
        instrument(module, owner, name, start, points)
    envs = gym.make_vec("impulse2d/LunarLander-v3", num_envs=args.num_envs,
                        vectorization_mode="vector_entry_point")
    envs.reset(seed=0)
    envs.batch.threads = args.threads
    space = envs.action_space
    space.seed(0)
    actions = [space.sample() for _ in range(args.steps + 40)]
    for k in range(40):
        envs.step(actions[k])
    ACC.clear()
    t = time.thread_time_ns()
    for k in range(args.steps):
        envs.step(actions[40 + k])
    total = time.thread_time_ns() - t
    result = {"num_envs": args.num_envs, "steps": args.steps, "threads": args.threads,
              "load": round(os.getloadavg()[0], 1),
              "caller_us_a_vector_step": round(total / args.steps / 1e3, 1),
              "us_a_vector_step": {label: round(v / args.steps / 1e3, 1) for label, v in
                                   sorted(ACC.items(), key=lambda kv: -kv[1])}}
    print(f"{args.num_envs} landers, {args.threads} thread(s), load {result['load']}: the "
          f"calling thread {result['caller_us_a_vector_step']} us of CPU a vector step "
          f"(checkpoints: {sum(ACC.values()) / args.steps / 1e3:.1f})")
    for label, v in result["us_a_vector_step"].items():
        print(f"  {v:8.1f} us  {label}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return result


if __name__ == "__main__":
    main()

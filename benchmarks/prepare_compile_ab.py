"""Compile CPU of the contact prepare's forms, one tree's text against another's, in one process
(BENCHMARKS.md, session 19, ``big44``): :mod:`prepare_split`'s compile of ``prepare_rows`` (its
three forms, :mod:`big_prepare_ab`) from main's copy, this tree's, and variants of this tree's
written to ``/tmp`` (``inl``: the row's body written into the loop instead of the inlined
``_prepare_row``; ``flat``: besides, the two loops over the blocks and runs made one), timed by
``process_time`` around the first call (the compile and one prepare of ``pyramid_20``'s rows).

    MAIN_SRC=/path/to/main/src PYTHONPATH=/path/to/main/src \
        python benchmarks/prepare_compile_ab.py main mine [inl flat]
"""
import sys, time, os
sys.path.insert(0, 'benchmarks')
from pathlib import Path
import numpy as np
import prepare_split as P
from contact_stages import loaded_world
main = Path(os.environ.get('MAIN_SRC', '/tmp/big44/main_src'), 'impulse2d/_dynamics/contact_solver.py').read_text()
mine = Path('src/impulse2d/_dynamics/contact_solver.py').read_text()
simple = mine.replace("""            lo = key_bound(order, s, e, key) if ascending else s
            hi = key_bound(order, lo, e, key_end) if ascending else e""", """            lo = key_bound(order, s, e, key)
            hi = key_bound(order, lo, e, key_end)""")
assert simple != mine
world = loaded_world("pyramid", {"base": 20}, 30)
cs0, bodies, contacts = world._constraints, world._bodies, world._contacts
order = cs0.contact.copy()
names = sys.argv[1:]
for name in names:
    variant = {"inl": "inlined", "flat": "flat", "lohi": "lohi", "nest": "nest", "nokb": "nokb", "nocr": "nocr"}.get(name)
    text = ({"main": main, "mine": mine, "simple": simple}[name] if variant is None
            else Path(f"/tmp/big44/{variant}_contact_solver.py").read_text())
    run = P.compiled(text)
    t = time.process_time()
    run(P._copy(cs0), order, contacts, bodies, 1)
    print(name, "compile+run f32 form", round(time.process_time() - t, 2), flush=True)

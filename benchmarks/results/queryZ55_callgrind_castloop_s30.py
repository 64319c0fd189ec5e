"""The casts of castloop.py inside one call of itertools.starmap's next (callgrind's
--toggle-collect=starmap_next marks the region)."""
import itertools, pickle, sys
sys.path.insert(0, "/work/wt/queryZ55/benchmarks")
from queries import rays
from impulse2d import queries
world = pickle.load(open("/tmp/qz/rain.pkl", "rb"))
origins, translations = rays(world, 4000, 20.0, seed=2)
n = int(sys.argv[1])
what = sys.argv[2]
pairs = [(float(o[0]), float(o[1]), float(d[0]), float(d[1])) for o, d in zip(origins[:400], translations[:400])]
world.ray_cast_many(origins[:1], translations[:1])
queries._ray_hits(world, 0.0, 0.0, 1.0, 1.0, queries._CATEGORY, queries._MASK)


def region():
    for _ in range(n):
        if what == "many":
            world.ray_cast_many(origins, translations)
        else:
            for ox, oy, dx, dy in pairs:
                queries._ray_hits(world, ox, oy, dx, dy, queries._CATEGORY, queries._MASK)


next(itertools.starmap(region, [()]))
print("done")

"""Two trees compiled side by side (``compile_objects.one_round``): CPU, and whether every
kernel with machine code has the same object code, link-only kernels' bitcode counted apart
(``compile_objects.py`` counts a kernel whose bitcode alone differs as different).

    python benchmarks/compile_identity.py WHAT OUT.json [A_SRC [B_SRC]]   # WHAT as there
"""
import json
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compile_objects as co  # noqa: E402
def main() -> None:
    """The comparison the module docstring describes, for the trees of the command line."""
    what, out = sys.argv[1], sys.argv[2]
    here = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
    trees = sys.argv[3:5] + ["/work/main/src", here][len(sys.argv[3:5]):]
    r = co.one_round({"a": trees[0], "b": trees[1]}, what)
    a, b = r["a"]["code"], r["b"]["code"]
    obj_same = obj_diff = bc_only_same = bc_only_diff = 0
    diffs = []
    for k in a:
        if k not in b: continue
        for (ka, ba), (kb, bb) in zip(a[k], b[k]):
            if ka == "object" and kb == "object":
                if ba[0] == bb[0]: obj_same += 1
                else: obj_diff += 1; diffs.append(k)
            else:
                if ba[-1] == bb[-1]: bc_only_same += 1
                else: bc_only_diff += 1
    res = {"what": what, "cpu_a": r["a"]["cpu_s"], "cpu_b": r["b"]["cpu_s"], "wall_a": r["a"]["wall_s"], "wall_b": r["b"]["wall_s"],
           "hash_same": r["a"]["hash"] == r["b"]["hash"], "hash": r["b"]["hash"], "object_same": obj_same, "object_different": obj_diff,
           "object_different_kernels": diffs, "bitcode_only_same": bc_only_same, "bitcode_only_different": bc_only_diff,
           "only_one": sorted(set(a) ^ set(b))}
    print(json.dumps(res, indent=1))
    json.dump(res, open(out, "w"), indent=1)


if __name__ == "__main__":
    main()

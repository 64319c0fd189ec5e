"""World-agnostic 2D geometry: hulls, mass properties, bounding boxes, broadphase, manifolds.

Nothing here knows about bodies, worlds or solvers; ``_dynamics`` and the public modules call in.

Every shape is one **rounded convex polygon** (Box2D v3's trick of giving polygons a radius, taken
one step further so that a single representation covers all four shape types):

=========  =====  ==========================================  ========
type       count  vertices                                    radius
=========  =====  ==========================================  ========
circle     1      the centre                                  r
capsule    2      the two end-cap centres                     r > 0
segment    2      the two end points                          0
polygon    3..8   counter-clockwise convex hull, no collinear  r >= 0
chain seg  2      the two end points                          0
=========  =====  ==========================================  ========

Arrays are fixed-size so a whole store of shapes is one (n, 8, 2) block: ``vertices[i]`` for
``i < count`` are body-frame points, ``normals[i]`` is the outward unit normal of the edge
``vertices[i] -> vertices[(i + 1) % count]`` (for count 2 the two edges are the segment run both
ways, so ``normals[1] == -normals[0]``; for count 1 the normals are unused). Unused rows are zero.
A chain segment is a segment with one side: its ``normals[1]`` is zero (no back face) and its
ghost vertices are in the shape store; its contacts follow its own rule (:mod:`.chain`).

A body transform is passed to kernels as four floats ``px, py, c, s``: the body origin and the
cosine and sine of its angle; ``world = (px, py) + R(c, s) @ local``.
"""

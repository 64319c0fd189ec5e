"""One module per joint type, each opening with its constraint maths and implementing the shared
verbs (prepare, warm start, solve with or without bias) as kernels over all joints of its type.

Each type's verbs (``prepare``, ``warm_start``, ``solve``, ``solve_position``,
``direct_rows``) take the world's reference (:mod:`..world_ref`) and the index of a row list in
:data:`ROW_LISTS`, and borrow the stores themselves: a store passed by value is every one of its arrays at each call site (~1,100
instructions of IR each, taken apart again by LLVM's SROA), a reference is one pointer
(BENCHMARKS.md, session 30, ``jointW55``).

This file only names them (no kernels), so that the world reference can size its joint rows
without importing any joint type."""

JOINT_MODULES = ("revolute", "distance", "prismatic", "weld", "wheel", "mouse",
                 "motor", "pulley", "custom", "gear")
"""Type modules in dispatch order (custom joints, :mod:`.custom`, before the gears, which come
last)."""

ROW_LISTS = ("pin",) + JOINT_MODULES
"""The joint row lists, in solve order (``World._joint_rows`` builds them): first the "pins",
revolute joints with no spring, motor or limit, whose solve has a lean loop of its own
(:func:`revolute.solve_pins`); then each type's rows, the revolute list holding the others.
Gears come last: they read the coordinates the coupled joints have just enforced."""

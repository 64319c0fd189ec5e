"""A prototype for ``rows_passes.py`` (issue 31 item 5, ``rows41``): the row passes on a record
a row, appended to a tree's ``contact_solver.py`` (``--form rec=PATH+benchmarks/rows_record.py``;
not importable alone: it uses that module's names).

Each pass gathers the rows' columns, :data:`BLOCK` rows at a time, into a record on its own stack
(a row's fields :data:`REC` doubles from its first, at literal offsets, so a row is one base
pointer), runs the pass on the records with the arithmetic of ``solve_contacts`` /
``warm_start_contacts`` in their order (the same bits), and scatters what the pass writes back
to the columns. ``RUN_PASS = False`` (``rows_record_gs.py`` appended after this) leaves the pass
out: the gather and the scatter alone, so that ``rec - gs`` is what the pass costs on records
already gathered (a record kept over a step would pay the gather and the scatter once a step,
not once a pass).
"""

from llvmlite import ir as _ir
from numba.core import types as _types
from numba.extending import intrinsic as _intrinsic

BLOCK = 64
"""Rows a block of records holds (the records of a pass's block: 64 x 48 doubles, 24 KB, L1)."""
REC = 48
"""Doubles a row's record holds: 3 integers (as uint64), 10 row fields, 15 for each point, the
rest padding to a multiple of 8 (a cache line)."""
PAD = 40
"""Doubles the block holds beyond its records, so that the frame it sits in is not a multiple of
0x400 bytes (64 x 48 doubles are 0x6000)."""
RUN_PASS = True
# integers: the bodies and the point count (a uint64 view of the same memory)
R_BA, R_BB, R_COUNT = (np.uint64(k) for k in range(3))
# the row's fields
(R_MA, R_IA, R_MB, R_IB, R_NX, R_NY, R_FR, R_RATE, R_MS, R_IS) = (np.uint64(4 + k)
                                                                 for k in range(10))
# a point's (point 1's P_STEP after point 0's)
P0 = 14
(P_RAX, P_RAY, P_RBX, P_RBY, P_BASE, P_NMASS, P_TMASS, P_NIMP, P_TIMP, P_MAXN, P_TOTN, P_TOTT,
 P_BIAS, P_UNN, P_UNT) = (np.uint64(P0 + k) for k in range(15))
P_STEP = np.uint64(15)
U_REC = np.uint64(REC)
U_BLOCK = np.uint64(BLOCK)


@_intrinsic
def record_block(typingctx, like):
    """``BLOCK * REC`` doubles on the calling kernel's stack (an ``alloca`` in its entry block,
    cache-line aligned), as a float64 array; contents undefined."""
    array_type = _types.Array(_types.float64, 1, "C")

    def codegen(context, builder, signature, args):
        from numba.np.arrayobj import populate_array
        value = context.get_value_type(_types.float64)
        # (not cgutils.alloca_once, which stores zeros into the block at the entry: a 25 KB
        # memset every call, ~1,700 cycles)
        with builder.goto_entry_block():
            block = builder.alloca(_ir.ArrayType(value, BLOCK * REC + PAD))
        block.align = 64
        data = builder.bitcast(block, _ir.PointerType(value))
        # the address through an empty asm: the compiler no longer knows it is the stack, so
        # it addresses the records from a register, not from %rsp (Zen 3 replays an
        # %rsp-relative load 0x400 bytes from a store in flight: BENCHMARKS.md, session 12;
        # rows 8 records apart are 0xc00 apart)
        data = builder.asm(_ir.FunctionType(data.type, [data.type]), "", "=r,0", [data],
                           False, name="records")
        array = context.make_array(array_type)(context, builder)
        intp = context.get_value_type(_types.intp)
        populate_array(array, data=data, shape=[_ir.Constant(intp, BLOCK * REC)],
                       strides=[_ir.Constant(intp, 8)], itemsize=_ir.Constant(intp, 8),
                       meminfo=None)
        return array._getvalue()

    return array_type(like), codegen


@_intrinsic
def as_uint64(typingctx, block):
    """The float64 array ``block`` (a :func:`record_block`) as uint64 values, the same memory."""
    array_type = _types.Array(_types.uint64, 1, "C")

    def codegen(context, builder, signature, args):
        from numba.np.arrayobj import populate_array
        source = context.make_array(block)(context, builder, args[0])
        data = builder.bitcast(source.data, context.get_value_type(_types.uint64).as_pointer())
        array = context.make_array(array_type)(context, builder)
        populate_array(array, data=data, shape=[source.nitems], strides=[source.itemsize],
                       itemsize=source.itemsize, meminfo=None)
        return array._getvalue()

    return array_type(block), codegen


@inline_kernel
def gather(cs, rec, ints, lo, hi):
    """Rows ``lo:hi`` of ``cs`` into the records ``rec`` (record ``q - lo``)."""
    inv_mass = flat(cs.inv_mass)
    normal = flat(cs.normal)
    softness = flat(cs.softness)
    r_a = flat(cs.r_a)
    r_b = flat(cs.r_b)
    base_separation = flat(cs.base_separation)
    normal_mass = flat(cs.normal_mass)
    tangent_mass = flat(cs.tangent_mass)
    normal_impulse = flat(cs.normal_impulse)
    tangent_impulse = flat(cs.tangent_impulse)
    max_normal_impulse = flat(cs.max_normal_impulse)
    total_normal_impulse = flat(cs.total_normal_impulse)
    total_tangent_impulse = flat(cs.total_tangent_impulse)
    one = np.uint64(1)
    two = np.uint64(2)
    three = np.uint64(3)
    four = np.uint64(4)
    q = lo
    while q < hi:
        t = (q - lo) * U_REC
        ints[t + R_BA] = np.uint64(cs.body_a[q])
        ints[t + R_BB] = np.uint64(cs.body_b[q])
        ints[t + R_COUNT] = np.uint64(cs.count[q])
        rec[t + R_MA] = inv_mass[four * q]
        rec[t + R_IA] = inv_mass[four * q + one]
        rec[t + R_MB] = inv_mass[four * q + two]
        rec[t + R_IB] = inv_mass[four * q + three]
        rec[t + R_NX] = normal[two * q]
        rec[t + R_NY] = normal[two * q + one]
        rec[t + R_FR] = cs.friction[q]
        rec[t + R_RATE] = softness[three * q]
        rec[t + R_MS] = softness[three * q + one]
        rec[t + R_IS] = softness[three * q + two]
        for j in range(2):
            p = two * q + np.uint64(j)
            u = t + np.uint64(j) * P_STEP
            rec[u + P_RAX] = r_a[two * p]
            rec[u + P_RAY] = r_a[two * p + one]
            rec[u + P_RBX] = r_b[two * p]
            rec[u + P_RBY] = r_b[two * p + one]
            rec[u + P_BASE] = base_separation[p]
            rec[u + P_NMASS] = normal_mass[p]
            rec[u + P_TMASS] = tangent_mass[p]
            rec[u + P_NIMP] = normal_impulse[p]
            rec[u + P_TIMP] = tangent_impulse[p]
            rec[u + P_MAXN] = max_normal_impulse[p]
            rec[u + P_TOTN] = total_normal_impulse[p]
            rec[u + P_TOTT] = total_tangent_impulse[p]
        q += one


@inline_kernel
def scatter(cs, rec, lo, hi, biased):
    """What a solve pass writes, from the records ``rec`` back to rows ``lo:hi``: as the pass,
    only a row's points (``j < count``), the bias only where the pass writes it (``biased``)."""
    normal_impulse = flat(cs.normal_impulse)
    tangent_impulse = flat(cs.tangent_impulse)
    max_normal_impulse = flat(cs.max_normal_impulse)
    total_normal_impulse = flat(cs.total_normal_impulse)
    total_tangent_impulse = flat(cs.total_tangent_impulse)
    bias_ = flat(cs.bias)
    unclamped = flat(cs.unclamped)
    one = np.uint64(1)
    two = np.uint64(2)
    q = lo
    while q < hi:
        t = (q - lo) * U_REC
        count = np.uint64(cs.count[q])
        j = np.uint64(0)
        while j < count:
            p = two * q + j
            u = t + j * P_STEP
            normal_impulse[p] = rec[u + P_NIMP]
            tangent_impulse[p] = rec[u + P_TIMP]
            max_normal_impulse[p] = rec[u + P_MAXN]
            total_normal_impulse[p] = rec[u + P_TOTN]
            total_tangent_impulse[p] = rec[u + P_TOTT]
            if biased:
                bias_[p] = rec[u + P_BIAS]
            unclamped[two * p] = rec[u + P_UNN]
            unclamped[two * p + one] = rec[u + P_UNT]
            j += one
        q += one


@inline_kernel
def warm_records(rec, ints, n, bodies):
    """``warm_start_contacts`` on ``n`` records."""
    v = flat(bodies.v)
    w = bodies.w
    one = np.uint64(1)
    two = np.uint64(2)
    q = np.uint64(0)
    while q < n:
        t = q * U_REC
        a = ints[t + R_BA]
        b = ints[t + R_BB]
        m_a = rec[t + R_MA]
        i_a = rec[t + R_IA]
        m_b = rec[t + R_MB]
        i_b = rec[t + R_IB]
        nx = rec[t + R_NX]
        ny = rec[t + R_NY]
        j = np.uint64(0)
        count = ints[t + R_COUNT]
        while j < count:
            u = t + j * P_STEP
            ln = rec[u + P_NIMP]
            lt = rec[u + P_TIMP]
            px = ln * nx + lt * ny
            py = ln * ny - lt * nx
            rax = rec[u + P_RAX]
            ray = rec[u + P_RAY]
            rbx = rec[u + P_RBX]
            rby = rec[u + P_RBY]
            v[two * a] -= m_a * px
            v[two * a + one] -= m_a * py
            w[a] -= i_a * (rax * py - ray * px)
            v[two * b] += m_b * px
            v[two * b + one] += m_b * py
            w[b] += i_b * (rbx * py - rby * px)
            j += one
        q += one


@inline_kernel
def solve_records(rec, ints, n, bodies, inv_h, use_bias, soft, baumgarte, linear_slop,
                  contact_speed, last_sweep, speed_cap):
    """``solve_contacts`` (friction rows, then normal rows, the same arithmetic in the same
    order) on ``n`` records."""
    v = flat(bodies.v)
    w = bodies.w
    dp = flat(bodies.dp)
    dq = flat(bodies.dq)
    one = np.uint64(1)
    two = np.uint64(2)
    q = np.uint64(0)
    while q < n:
        t = q * U_REC
        count = ints[t + R_COUNT]
        a = ints[t + R_BA]
        b = ints[t + R_BB]
        m_a = rec[t + R_MA]
        i_a = rec[t + R_IA]
        m_b = rec[t + R_MB]
        i_b = rec[t + R_IB]
        vax = v[two * a]
        vay = v[two * a + one]
        wa = w[a]
        vbx = v[two * b]
        vby = v[two * b + one]
        wb = w[b]
        nx = rec[t + R_NX]
        ny = rec[t + R_NY]
        tx = ny
        ty = -nx
        friction = rec[t + R_FR]
        j = np.uint64(0)
        while j < count:
            u = t + j * P_STEP
            rax = rec[u + P_RAX]
            ray = rec[u + P_RAY]
            rbx = rec[u + P_RBX]
            rby = rec[u + P_RBY]
            dvx = vbx - wb * rby - vax + wa * ray
            dvy = vby + wb * rbx - vay - wa * rax
            vt = dvx * tx + dvy * ty
            impulse = -rec[u + P_TMASS] * vt
            limit = friction * rec[u + P_NIMP]
            old = rec[u + P_TIMP]
            total = min(max(old + impulse, -limit), limit)
            rec[u + P_UNT] = old + impulse
            rec[u + P_TIMP] = total
            impulse = total - old
            px = impulse * tx
            py = impulse * ty
            vax -= m_a * px
            vay -= m_a * py
            wa -= i_a * (rax * py - ray * px)
            vbx += m_b * px
            vby += m_b * py
            wb += i_b * (rbx * py - rby * px)
            j += one

        ca = dq[two * a]
        sa = dq[two * a + one]
        cb = dq[two * b]
        sb = dq[two * b + one]
        ddx = dp[two * b] - dp[two * a]
        ddy = dp[two * b + one] - dp[two * a + one]
        j = np.uint64(0)
        while j < count:
            u = t + j * P_STEP
            rax = rec[u + P_RAX]
            ray = rec[u + P_RAY]
            rbx = rec[u + P_RBX]
            rby = rec[u + P_RBY]
            gx = ddx + (cb * rbx - sb * rby) - (ca * rax - sa * ray)
            gy = ddy + (sb * rbx + cb * rby) - (sa * rax + ca * ray)
            s = rec[u + P_BASE] + gx * nx + gy * ny

            mass_scale = 1.0
            impulse_scale = 0.0
            if s > 0.0:
                bias = s * inv_h
            elif not use_bias:
                bias = 0.0
            elif soft:
                bias = max(rec[t + R_RATE] * s, -contact_speed)
                mass_scale = rec[t + R_MS]
                impulse_scale = rec[t + R_IS]
            else:
                bias = max(baumgarte * inv_h * min(0.0, s + linear_slop), -contact_speed)

            dvx = vbx - wb * rby - vax + wa * ray
            dvy = vby + wb * rbx - vay - wa * rax
            vn = dvx * nx + dvy * ny
            old = rec[u + P_NIMP]
            normal_mass = rec[u + P_NMASS]
            impulse = -normal_mass * mass_scale * (vn + bias) - impulse_scale * old
            total = min(max(old + impulse, 0.0), normal_mass * speed_cap)
            rec[u + P_UNN] = old + impulse
            if use_bias or not soft:
                rec[u + P_BIAS] = bias
            rec[u + P_NIMP] = total
            if total > rec[u + P_MAXN]:
                rec[u + P_MAXN] = total
            impulse = total - old
            px = impulse * nx
            py = impulse * ny
            vax -= m_a * px
            vay -= m_a * py
            wa -= i_a * (rax * py - ray * px)
            vbx += m_b * px
            vby += m_b * py
            wb += i_b * (rbx * py - rby * px)
            j += one

        if last_sweep:
            j = np.uint64(0)
            while j < count:
                u = t + j * P_STEP
                rec[u + P_TOTN] += rec[u + P_NIMP]
                rec[u + P_TOTT] += rec[u + P_TIMP]
                j += one
        v[two * a] = vax
        v[two * a + one] = vay
        w[a] = wa
        v[two * b] = vbx
        v[two * b + one] = vby
        w[b] = wb
        q += one


@borrowing_kernel
def warm_rows(cs, bodies, first, last):
    """The warm start of the rows ``first:last`` on records gathered a block at a time (it
    writes no row)."""
    rec = record_block(cs.friction)
    ints = as_uint64(rec)
    n = np.uint64(last)
    lo = np.uint64(first)
    while lo < n:
        hi = min(lo + U_BLOCK, n)
        gather(cs, rec, ints, lo, hi)
        if RUN_PASS:
            warm_records(rec, ints, hi - lo, bodies)
        lo = hi


@borrowing_kernel
def solve_rows(cs, bodies, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
               contact_speed, last_sweep, speed_cap):
    """The solve of the rows ``first:last`` on records gathered a block at a time, what it
    writes scattered back."""
    rec = record_block(cs.friction)
    ints = as_uint64(rec)
    n = np.uint64(last)
    lo = np.uint64(first)
    while lo < n:
        hi = min(lo + U_BLOCK, n)
        gather(cs, rec, ints, lo, hi)
        if RUN_PASS:
            solve_records(rec, ints, hi - lo, bodies, inv_h, use_bias, soft, baumgarte,
                          linear_slop, contact_speed, last_sweep, speed_cap)
        scatter(cs, rec, lo, hi, use_bias or not soft)
        lo = hi

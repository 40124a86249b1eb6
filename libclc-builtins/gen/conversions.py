"""Explicit conversions convert_<type><n>[_sat][_rte|_rtz|_rtp|_rtn] (OpenCL C 3.0, 6.4.3)
between every pair of scalar and vector types, written with vector operations so a vector
conversion is vector code. Rounding modes other than the hardware's round-to-nearest are
done exactly: the nearest result is compared with the source and moved one ulp when it
lies on the wrong side."""

from cltypes import (ALL_TYPES, HALF, SIZE, WIDTHS, int_literal, int_range, is_float, is_signed,
                     signed_of, vec)

MODES = ["", "_rte", "_rtz", "_rtp", "_rtn"]
# ROUNDEVEN (include/builtin_support.h) is clang's elementwise roundeven where the target has it.
FLOAT_ROUNDING = {"": "__builtin_elementwise_trunc", "_rtz": "__builtin_elementwise_trunc",
                  "_rte": "ROUNDEVEN", "_rtp": "__builtin_elementwise_ceil",
                  "_rtn": "__builtin_elementwise_floor"}


class Writer:
    """Expression helpers for one component count n (1: scalar)."""

    def __init__(self, n):
        self.n = n

    def cv(self, expr, to):
        if self.n == 1:
            return f"(({to})({expr}))"
        return f"__builtin_convertvector({expr}, {vec(to, self.n)})"

    def splat(self, literal, t):
        return f"(({vec(t, self.n)})({literal}))"

    def mask(self, expr, from_t, to_t):
        """A comparison result on from_t components, as a condition for to_t components."""
        if self.n == 1 or SIZE[from_t] == SIZE[to_t]:
            return f"({expr})"
        return self.cv(expr, signed_of(to_t))

    def negate_mask(self, expr):
        return f"(!({expr}))" if self.n == 1 else f"(~({expr}))"


def float_literal(value, t):
    return float(value).hex() + ("f" if t == "float" else "")


def int_to_int(w, d, s, sat):
    if not sat:
        return [f"  return {'x' if d == s else w.cv('x', d)};\n"]
    lo_d, hi_d = int_range(d)
    lo_s, hi_s = int_range(s)
    lines = [f"  {vec(s, w.n)} v = x;\n"]
    # min/max rather than selects: LLVM 15's NVPTX back end miscompiles the shift idiom
    # InstCombine makes of a 64-bit vector select on the sign.
    if lo_s < lo_d:
        lo = w.splat(int_literal(lo_d, s), s)
        lines.append(f"  v = __builtin_elementwise_max(v, {lo});\n")
    if hi_s > hi_d:
        hi = w.splat(int_literal(hi_d, s), s)
        lines.append(f"  v = __builtin_elementwise_min(v, {hi});\n")
    lines.append(f"  return {'v' if d == s else w.cv('v', d)};\n")
    return lines


def step_to_mode(w, d, r, gt, lt, mode):
    """Lines that move float result r (type d) one ulp to honour mode, given masks (for d
    components) saying whether r is above (gt) or below (lt) the exact value."""
    b = signed_of(d)
    zero, one = w.splat("0", b), w.splat("1", b)
    if mode == "_rtz":
        up, dn = f"({lt} & (({r}) < {w.splat(0, d)}))", f"({gt} & (({r}) > {w.splat(0, d)}))"
    elif mode == "_rtp":
        up, dn = lt, zero
    else:
        up, dn = zero, gt
    smallest = w.splat("1", b)
    smallest_negative = w.splat(int_literal(int_range(b)[0] + 1, b), b)
    return [f"  {vec(b, w.n)} up = {up}, dn = {dn};\n",
            f"  {vec(b, w.n)} sgn = (r > {w.splat(0, d)}) ? {one} : -{one};\n",
            f"  {vec(b, w.n)} bits = as_{vec(b, w.n)}(r) + (up ? sgn : (dn ? -sgn : {zero}));\n",
            f"  {vec(b, w.n)} at_zero = (r == {w.splat(0, d)});\n",
            f"  bits = (at_zero & up) ? {smallest} : bits;\n",
            f"  bits = (at_zero & dn) ? {smallest_negative} : bits;\n",
            f"  return as_{vec(d, w.n)}(bits);\n"]


def int_to_float(w, d, s, mode):
    exact = SIZE[s] <= (2 if d == "float" else 4)
    if mode in ("", "_rte") or exact:
        return [f"  return {w.cv('x', d)};\n"]
    D = vec(d, w.n)
    lines = [f"  {D} r = {w.cv('x', d)};\n"]
    if SIZE[s] <= 4:
        rl, xl = w.cv("r", "long"), w.cv("x", "long")
        lines.append(f"  {vec(signed_of(d), w.n)} gt = {w.mask(f'{rl} > {xl}', 'long', d)};\n")
        lines.append(f"  {vec(signed_of(d), w.n)} lt = {w.mask(f'{rl} < {xl}', 'long', d)};\n")
    else:
        # r may be 2^63 (long) or 2^64 (ulong), past the source range: compare a clamped copy.
        limit = 2.0 ** (63 if s == "long" else 64)
        below = float_literal(limit * (1 - 2.0 ** (-24 if d == "float" else -53)), d)
        lim = w.splat(float_literal(limit, d), d)
        lines.append(f"  {vec(signed_of(d), w.n)} big = (r >= {lim});\n")
        lines.append(f"  {D} rc = big ? {w.splat(below, d)} : r;\n")
        rs = w.cv("rc", s)
        lines.append(f"  {vec(signed_of(d), w.n)} gt = big | {w.mask(f'{rs} > x', s, d)};\n")
        lines.append(f"  {vec(signed_of(d), w.n)} lt = {w.negate_mask('big')} & "
                     f"{w.mask(f'{rs} < x', s, d)};\n")
    return lines + step_to_mode(w, d, "r", "gt", "lt", mode)


def float_to_int(w, d, s, sat, mode):
    rounded = "x" if mode in ("", "_rtz") else f"{FLOAT_ROUNDING[mode]}(x)"
    if not sat:
        return [f"  return {w.cv(rounded, d)};\n"]
    lo_d, hi_d = int_range(d)
    S = vec(s, w.n)
    lo = w.splat(float_literal(lo_d, s), s)
    limit = w.splat(float_literal(hi_d + 1, s), s)
    return [f"  {S} t = {FLOAT_ROUNDING[mode]}(x);\n",
            f"  t = (t != t) ? {w.splat(0, s)} : t;\n",
            f"  t = (t < {lo}) ? {lo} : t;\n",
            f"  {vec(signed_of(s), w.n)} big = (t >= {limit});\n",
            f"  t = big ? {w.splat(0, s)} : t;\n",
            f"  return {w.mask('big', s, d)} ? {w.splat(int_literal(hi_d, d), d)} : "
            f"{w.cv('t', d)};\n"]


def float_to_float(w, d, s, mode):
    if d == s or d == "double" or mode in ("", "_rte"):
        return [f"  return {'x' if d == s else w.cv('x', d)};\n"]
    back = w.cv("r", "double")
    return [f"  {vec(d, w.n)} r = {w.cv('x', d)};\n",
            f"  {vec(signed_of(d), w.n)} gt = {w.mask(f'{back} > x', s, d)};\n",
            f"  {vec(signed_of(d), w.n)} lt = {w.mask(f'{back} < x', s, d)};\n",
            ] + step_to_mode(w, d, "r", "gt", "lt", mode)


def int_to_double_exactly(w, s):
    """x (integer type s) as a double; values past 2^20 are clamped there: every one of them
    rounds to half as 2^20 does in every mode (infinity or the largest half)."""
    if SIZE[s] <= 2:
        return w.cv("x", "double")
    limit = 1 << 20
    clamped = "x"
    if is_signed(s):
        clamped = f"__builtin_elementwise_max({clamped}, {w.splat(int_literal(-limit, s), s)})"
    clamped = f"__builtin_elementwise_min({clamped}, {w.splat(int_literal(limit, s), s)})"
    return w.cv(clamped, "double")


def to_half(w, s, mode):
    """Through double, which holds every float and (clamped) integer source exactly, so the
    one rounding to half is the only one (float to half through float would round twice)."""
    if s == HALF:
        return ["  return x;\n"]
    exact = w.cv("x", "double") if is_float(s) else int_to_double_exactly(w, s)
    lines = [f"  {vec('double', w.n)} xd = {exact};\n",
             f"  {vec(HALF, w.n)} r = {w.cv('xd', HALF)};\n"]
    if mode in ("", "_rte"):
        return lines + ["  return r;\n"]
    back = w.cv("r", "double")
    lines.append(f"  {vec(signed_of(HALF), w.n)} gt = {w.mask(f'{back} > xd', 'double', HALF)};\n")
    lines.append(f"  {vec(signed_of(HALF), w.n)} lt = {w.mask(f'{back} < xd', 'double', HALF)};\n")
    return lines + step_to_mode(w, HALF, "r", "gt", "lt", mode)


def from_half(w, d, sat, mode):
    """Every half is a float: convert exactly, then as from float."""
    name = f"convert_{vec(d, w.n)}{'_sat' if sat else ''}{mode}"
    return [f"  return {name}({w.cv('x', 'float')});\n"]


def body(w, d, s, sat, mode):
    if d == HALF:
        return to_half(w, s, mode)
    if s == HALF:
        return from_half(w, d, sat, mode)
    if not is_float(d) and not is_float(s):
        return int_to_int(w, d, s, sat)
    if is_float(d) and not is_float(s):
        return int_to_float(w, d, s, mode)
    if not is_float(d):
        return float_to_int(w, d, s, sat, mode)
    return float_to_float(w, d, s, mode)


def conversions_to(d):
    out = []
    for n in [1] + WIDTHS:
        w = Writer(n)
        for s in ALL_TYPES + [HALF]:
            for sat in ([False] if is_float(d) else [False, True]):
                for mode in MODES:
                    name = f"convert_{vec(d, n)}{'_sat' if sat else ''}{mode}"
                    out.append(f"OVLD {vec(d, n)} {name}({vec(s, n)} x) {{\n")
                    out.extend(body(w, d, s, sat, mode))
                    out.append("}\n")
    return "".join(out)


def files():
    return {f"convert_{d}.cl": conversions_to(d) for d in ALL_TYPES + [HALF]}

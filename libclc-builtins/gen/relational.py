"""Relational builtins (6.15.6), written directly for scalars and vectors: a scalar test
returns int 1 or 0, a vector test the signed same-size integer vector with -1 or 0, which is
what OpenCL C comparison operators give."""

from cltypes import (ALL_TYPES, FLOAT_TYPES, HALF, INT_TYPES, SIZE, WIDTHS, is_float, is_signed,
                     signed_of, unsigned_of, vec)

SMALLEST_NORMAL = {"half": "HALF_MIN", "float": "FLT_MIN", "double": "DBL_MIN"}

COMPARISONS = {"isequal": "a == b", "isnotequal": "a != b", "isgreater": "a > b",
               "isgreaterequal": "a >= b", "isless": "a < b", "islessequal": "a <= b",
               "islessgreater": "(a < b) || (a > b)", "isordered": "(a == a) && (b == b)",
               "isunordered": "(a != a) || (b != b)"}


def float_tests(t, n):
    G, R = vec(t, n), ("int" if n == 1 else vec(signed_of(t), n))
    smallest_normal = SMALLEST_NORMAL[t]
    absolute = "__builtin_elementwise_abs(a)"
    unary = {"isfinite": f"{absolute} < ({G})INFINITY",
             "isinf": f"{absolute} == ({G})INFINITY",
             "isnan": "a != a",
             "isnormal": f"({absolute} >= ({G}){smallest_normal}) && ({absolute} < ({G})INFINITY)"}
    if n == 1:
        unary["signbit"] = f"(int)(as_{unsigned_of(t)}(a) >> {8 * SIZE[t] - 1})"
    else:
        # ({R})0: a plain 0 (an int) outranks short elements.
        unary["signbit"] = f"as_{R}(a) < ({R})0"
    out = [f"OVLD {R} {name}({G} a, {G} b) {{ return {expr}; }}\n"
           for name, expr in COMPARISONS.items()]
    out += [f"OVLD {R} {name}({G} a) {{ return {expr}; }}\n" for name, expr in unary.items()]
    return out


def any_all(t, n):
    G = vec(t, n)
    if n == 1:
        return [f"OVLD int any({G} a) {{ return a < 0; }}\n",
                f"OVLD int all({G} a) {{ return a < 0; }}\n"]
    return [f"OVLD int any({G} a) {{ return __builtin_reduce_or(a) < 0; }}\n",
            f"OVLD int all({G} a) {{ return __builtin_reduce_and(a) < 0; }}\n"]


def bitselect(t, n):
    G = vec(t, n)
    if not is_float(t):
        return f"OVLD {G} bitselect({G} a, {G} b, {G} c) {{ return (a & ~c) | (b & c); }}\n"
    U = vec(unsigned_of(t), n)  # a scalar ushort result promotes to int: cast back
    return (f"OVLD {G} bitselect({G} a, {G} b, {G} c) {{\n"
            f"  {U} m = as_{U}(c);\n"
            f"  return as_{G}(({U})((as_{U}(a) & ~m) | (as_{U}(b) & m)));\n}}\n")


def select(t, n):
    G = vec(t, n)
    out = []
    for c in (signed_of(t), unsigned_of(t)):
        C = vec(c, n)
        if n == 1:
            test = "c != 0"
        elif is_signed(c):
            test = f"c < ({C})0"
        else:
            S = vec(signed_of(t), n)
            test = f"as_{S}(c) < ({S})0"
        out.append(f"OVLD {G} select({G} a, {G} b, {C} c) {{ return ({test}) ? b : a; }}\n")
    return out


def files():
    out = []
    for n in [1] + WIDTHS:
        for t in FLOAT_TYPES + [HALF]:
            out += float_tests(t, n)
        for t in INT_TYPES:
            if is_signed(t):
                out += any_all(t, n)
        for t in ALL_TYPES + [HALF]:
            out.append(bitselect(t, n))
            out += select(t, n)
    return {"relational.cl": "".join(out)}

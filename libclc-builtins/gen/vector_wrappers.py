"""Vector (and address-space) overloads of builtins whose scalar versions are hand-written.

Each entry names the parameter shapes by code:
  G  the gentype with n components     S  its scalar element type
  I  int with n components             i  scalar int
  U  the same-size unsigned type, n components
  J  the same-size signed type, n components     u  scalar uint
  *X an output pointer to X, in every address space (private, global, local, generic)
A vector function either applies the scalar builtin to each component, or (with a body)
is written directly with vector operations.
"""

from cltypes import (FLOAT_TYPES, HALF, INT_TYPES, OUT_ADDRESS_SPACES, WIDTHS, comp, ptr,
                     signed_of, unsigned_of, vec)

FLOAT_UNARY = """acos acosh acospi asin asinh asinpi atan atanh atanpi cbrt cos cosh cospi
erfc erf exp exp2 exp10 expm1 lgamma log log2 log10 log1p logb round rsqrt sin sinh
sinpi sqrt tan tanh tanpi tgamma degrees radians sign""".split()
FLOAT_DIRECT_UNARY = {"fabs": "__builtin_elementwise_abs", "ceil": "__builtin_elementwise_ceil",
                      "floor": "__builtin_elementwise_floor",
                      "trunc": "__builtin_elementwise_trunc",
                      "rint": "ROUNDEVEN"}  # see include/builtin_support.h
FLOAT_BINARY = """atan2 atan2pi copysign fdim fmod hypot maxmag minmag nextafter pow powr
remainder step""".split()
HALF_NATIVE_UNARY = "cos exp exp2 exp10 log log2 log10 recip rsqrt sin sqrt tan".split()
# cl_khr_fp16: half has the float math and common functions, not the half_ and native_ ones.
GENTYPES = FLOAT_TYPES + [HALF]


def float_entries():
    e = []
    for name in FLOAT_UNARY:
        e.append((name, "G", ["G"], GENTYPES, None))
    for name, builtin in FLOAT_DIRECT_UNARY.items():
        e.append((name, "G", ["G"], FLOAT_TYPES, f"{builtin}(a0)"))
        # ROUNDEVEN has no half form on nvptx64: half vectors take the scalars.
        e.append((name, "G", ["G"], [HALF], None))
    for name in FLOAT_BINARY:
        e.append((name, "G", ["G", "G"], GENTYPES, None))
    # Equal zeros are ordered by AND/OR of the bits (see math_exact_template.h).
    for name, builtin, op in (("fmax", "max", "&"), ("fmin", "min", "|"),
                              ("max", "max", "&"), ("min", "min", "|")):
        e.append((name, "G", ["G", "G"], FLOAT_TYPES,
                  f"a0 == a1 ? as_{{G}}(as_{{B}}(a0) {op} as_{{B}}(a1)) : "
                  f"__builtin_elementwise_{builtin}(a0, a1)"))
        # LLVM 15's x86 back end cannot select maxnum/minnum of half vectors.
        e.append((name, "G", ["G", "G"], [HALF], None))
        e.append((name, "G", ["G", "S"], GENTYPES, f"{name}(a0, ({{G}})(a1))"))
    for name in ("fma", "mad"):  # half vectors: src/math_half.cl (pairs in one f16x2 on nvptx64)
        e.append((name, "G", ["G", "G", "G"], FLOAT_TYPES, None))
    for name in ("mix", "smoothstep", "clamp"):
        e.append((name, "G", ["G", "G", "G"], GENTYPES, None))
    e.append(("clamp", "G", ["G", "S", "S"], GENTYPES, "clamp(a0, ({G})(a1), ({G})(a2))"))
    e.append(("mix", "G", ["G", "G", "S"], GENTYPES, "mix(a0, a1, ({G})(a2))"))
    e.append(("step", "G", ["S", "G"], GENTYPES, "step(({G})(a0), a1)"))
    e.append(("smoothstep", "G", ["S", "S", "G"], GENTYPES,
              "smoothstep(({G})(a0), ({G})(a1), a2)"))
    for name in ("fract", "modf", "sincos"):
        e.append((name, "G", ["G", "*G"], GENTYPES, None))
    for name in ("frexp", "lgamma_r"):
        e.append((name, "G", ["G", "*I"], GENTYPES, None))
    e.append(("remquo", "G", ["G", "G", "*I"], GENTYPES, None))
    e.append(("ilogb", "I", ["G"], GENTYPES, None))
    for name in ("ldexp", "pown", "rootn"):
        e.append((name, "G", ["G", "I"], GENTYPES, None))
    e.append(("ldexp", "G", ["G", "i"], GENTYPES, None))
    e.append(("nan", "G", ["U"], GENTYPES, None))
    for prefix in ("half_", "native_"):
        for name in HALF_NATIVE_UNARY:
            e.append((prefix + name, "G", ["G"], ["float"], None))
        for name in ("divide", "powr"):
            e.append((prefix + name, "G", ["G", "G"], ["float"], None))
    return e


def integer_entries():
    e = []
    e.append(("abs", "U", ["G"], INT_TYPES, None))
    e.append(("abs_diff", "U", ["G", "G"], INT_TYPES, None))
    for name, builtin in (("add_sat", "add_sat"), ("sub_sat", "sub_sat"),
                          ("max", "max"), ("min", "min")):
        e.append((name, "G", ["G", "G"], INT_TYPES, f"__builtin_elementwise_{builtin}(a0, a1)"))
    for name in ("max", "min"):
        e.append((name, "G", ["G", "S"], INT_TYPES,
                  f"__builtin_elementwise_{name}(a0, ({{G}})(a1))"))
    e.append(("clamp", "G", ["G", "G", "G"], INT_TYPES,
              "__builtin_elementwise_min(__builtin_elementwise_max(a0, a1), a2)"))
    e.append(("clamp", "G", ["G", "S", "S"], INT_TYPES,
              "__builtin_elementwise_min(__builtin_elementwise_max(a0, ({G})(a1)), ({G})(a2))"))
    e.append(("hadd", "G", ["G", "G"], INT_TYPES, "(a0 >> 1) + (a1 >> 1) + (a0 & a1 & ({G})1)"))
    e.append(("rhadd", "G", ["G", "G"], INT_TYPES, "(a0 >> 1) + (a1 >> 1) + ((a0 | a1) & ({G})1)"))
    for name in ("mul_hi", "rotate"):
        e.append((name, "G", ["G", "G"], INT_TYPES, None))
    for name in ("clz", "ctz", "popcount"):
        e.append((name, "G", ["G"], INT_TYPES, None))
    for name in ("mad_hi", "mad_sat"):
        e.append((name, "G", ["G", "G", "G"], INT_TYPES, None))
    e.append(("mul24", "G", ["G", "G"], ["int", "uint"], "a0 * a1"))
    e.append(("mad24", "G", ["G", "G", "G"], ["int", "uint"], "a0 * a1 + a2"))
    # cl_khr_extended_bit_ops: offset and count are scalars for every width.
    e.append(("bitfield_insert", "G", ["G", "G", "u", "u"], INT_TYPES, None))
    e.append(("bitfield_extract_signed", "J", ["G", "u", "u"], INT_TYPES, None))
    e.append(("bitfield_extract_unsigned", "U", ["G", "u", "u"], INT_TYPES, None))
    e.append(("bit_reverse", "G", ["G"], INT_TYPES, None))
    return e


UPSAMPLE = [("char", "uchar", "short"), ("uchar", "uchar", "ushort"),
            ("short", "ushort", "int"), ("ushort", "ushort", "uint"),
            ("int", "uint", "long"), ("uint", "uint", "ulong")]


def type_of(code, t, n):
    return {"G": vec(t, n), "S": t, "I": vec("int", n), "i": "int", "u": "uint",
            "U": vec(unsigned_of(t), n), "J": vec(signed_of(t), n)}[code]


def is_per_component(code):
    return code in ("G", "I", "U", "J")


def emit(name, ret, params, t, n, address_space, body):
    """One overload with n components (n == 1 only for pointer functions)."""
    G = vec(t, n)
    rtype = type_of(ret, t, n)
    decls, args_per_comp, stores, temps = [], [], [], []
    for k, code in enumerate(params):
        if code.startswith("*"):
            pointee = type_of(code[1:], t, n)
            scalar = type_of(code[1:], t, 1)
            decls.append(f"{ptr(address_space, pointee)}a{k}")
            temps.append(f"  {scalar} {', '.join(f't{k}_{i}' for i in range(n))};\n")
            args_per_comp.append(lambda i, k=k: f"&t{k}_{i}")
            values = ", ".join(f"t{k}_{i}" for i in range(n))
            stores.append(f"  *a{k} = ({pointee})({values});\n" if n > 1 else f"  *a{k} = t{k}_0;\n")
        else:
            decls.append(f"{type_of(code, t, n)} a{k}")
            if n > 1 and is_per_component(code):
                args_per_comp.append(lambda i, k=k: f"a{k}{comp(i)}")
            else:
                args_per_comp.append(lambda i, k=k: f"a{k}")
    head = f"OVLD {rtype} {name}({', '.join(decls)})"
    if body is not None:
        B = vec(unsigned_of(t), n)
        return f"{head} {{ return {body.format(G=G, B=B)}; }}\n"
    out = [head, " {\n", *temps]
    if n == 1:
        out.append(f"  {rtype} r = {name}({', '.join(a(0) for a in args_per_comp)});\n")
    else:
        out.append(f"  {rtype} r;\n")
        for i in range(n):
            out.append(f"  r{comp(i)} = {name}({', '.join(a(i) for a in args_per_comp)});\n")
    out.extend(stores)
    out.append("  return r;\n}\n")
    return "".join(out)


def scalar_prototype(name, ret, params, t):
    """Declares the hand-written scalar version: a user declaration of a builtin's name
    hides clang's own builtin declarations, so every overload called must be declared."""
    decls = [ptr("__private", type_of(c[1:], t, 1)) if c.startswith("*") else type_of(c, t, 1)
             for c in params]
    return f"OVLD {type_of(ret, t, 1)} {name}({', '.join(decls)});\n"


def generate(entries):
    out = []
    for name, ret, params, types, body in entries:
        if all(c in ("G", "I", "U", "J", "i", "u") or c.startswith("*") for c in params):
            out.extend(scalar_prototype(name, ret, params, t) for t in types)
    for name, ret, params, types, body in entries:
        has_pointer = any(p.startswith("*") for p in params)
        for t in types:
            if has_pointer:
                for address_space in OUT_ADDRESS_SPACES:
                    if address_space != "__private":  # the scalar private one is hand-written
                        out.append(emit(name, ret, params, t, 1, address_space, None))
                    for n in WIDTHS:
                        out.append(emit(name, ret, params, t, n, address_space, None))
            else:
                for n in WIDTHS:
                    out.append(emit(name, ret, params, t, n, "", body))
    return "".join(out)


def upsample():
    out = [f"OVLD {result} upsample({hi}, {lo});\n" for hi, lo, result in UPSAMPLE]
    for hi, lo, result in UPSAMPLE:
        for n in WIDTHS:
            parts = ", ".join(f"upsample(hi{comp(i)}, lo{comp(i)})" for i in range(n))
            out.append(f"OVLD {vec(result, n)} upsample({vec(hi, n)} hi, {vec(lo, n)} lo) "
                       f"{{ return ({vec(result, n)})({parts}); }}\n")
    return "".join(out)


def files():
    return {"math_vectors.cl": generate(float_entries()),
            "integer_vectors.cl": generate(integer_entries()) + upsample()}

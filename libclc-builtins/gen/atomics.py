"""Atomic builtins: the OpenCL 1.x atomic_*/atom_* functions and the C11-style atomics of
OpenCL C 3.0 6.15.12, with cl_ext_float_atomics' add, sub, min and max of atomic_half,
atomic_float and atomic_double, and the load, store and exchange of atomic_half. (The SPIR-V
reader has the translator name SPIR-V's atomics as the C11 ones, atomic_*_explicit.) All are
real atomic instructions (or compare-and-swap loops of them), written
with the per-target operations of include/atomic_support.h (ATOMIC_*, LEGACY_*): clang's
__opencl_atomic_* and __atomic_* builtins on the host, where work-groups run in parallel
threads; the __sync and __nvvm builtins with membar fences on nvptx64."""

NAMED = ["__global", "__local"]
FLOATING = ["half", "float", "double"]
INCLUDE = '#include "atomic_support.h"\n\n'
LEGACY_OPS = {"add": "LEGACY_FETCH(add, p, v)",
              "sub": "LEGACY_FETCH(sub, p, v)",
              "xchg": "LEGACY_EXCHANGE(p, v)",
              "min": "LEGACY_FETCH(min, p, v)",
              "max": "LEGACY_FETCH(max, p, v)",
              "and": "LEGACY_FETCH(and, p, v)",
              "or": "LEGACY_FETCH(or, p, v)",
              "xor": "LEGACY_FETCH(xor, p, v)"}


def legacy():
    out = []
    for prefix, types in (("atomic_", ["int", "uint"]), ("atom_", ["int", "uint", "long", "ulong"])):
        for t in types:
            for space in NAMED:
                p = f"volatile {space} {t} *p"
                for op, expr in LEGACY_OPS.items():
                    out.append(f"OVLD {t} {prefix}{op}({p}, {t} v) {{ return {expr}; }}\n")
                out.append(f"OVLD {t} {prefix}inc({p}) {{ return LEGACY_FETCH(add, p, ({t})1); }}\n")
                out.append(f"OVLD {t} {prefix}dec({p}) {{ return LEGACY_FETCH(sub, p, ({t})1); }}\n")
                out.append(f"OVLD {t} {prefix}cmpxchg({p}, {t} cmp, {t} v) {{\n"
                           f"  return LEGACY_COMPARE_EXCHANGE(p, cmp, v);\n}}\n")
    for space in NAMED:
        out.append(f"OVLD float atomic_xchg(volatile {space} float *p, float v) {{\n"
                   f"  return as_float(LEGACY_EXCHANGE((volatile {space} uint *)p, as_uint(v)));\n}}\n")
    return "".join(out)


# The types whose atomic_T has every C11 operation (atomic_half has fewer, see c11()).
C11_TYPES = ["int", "uint", "long", "ulong", "float", "double"]
INTEGER = ["int", "uint", "long", "ulong"]
DEFAULT_ORDER, DEFAULT_SCOPE = "memory_order_seq_cst", "memory_scope_device"


def c11_variants(space):
    """(suffix, extra parameters, order, scope) for the plain and _explicit forms that exist
    in this address space: named spaces only have the fully explicit form."""
    full = ("_explicit", ", memory_order order, memory_scope scope", "order", "scope")
    if space != "":
        return [full]
    return [("", "", DEFAULT_ORDER, DEFAULT_SCOPE),
            ("_explicit", ", memory_order order", "order", DEFAULT_SCOPE), full]


def half_load_store_exchange(obj, suffix, extra, order, scope):
    """atomic_half's store, load and exchange: the only other operations the extension gives it
    (no atomic_init, no compare-exchange). clang 15's builtin declarations give atomic_store an
    atomic_half operand (which the mangled name shows) where the extension has half: both exist."""
    out = [f"OVLD void atomic_store{suffix}({obj}, half v{extra}) {{ ATOMIC_STORE(half, obj, v, {order}, {scope}); }}\n",
           f"OVLD void atomic_store{suffix}({obj}, atomic_half v{extra}) "
           f"{{ ATOMIC_STORE(half, obj, *(half *)&v, {order}, {scope}); }}\n",
           f"OVLD half atomic_load{suffix}({obj}{extra}) {{ return ATOMIC_LOAD(half, obj, {order}, {scope}); }}\n",
           f"OVLD half atomic_exchange{suffix}({obj}, half v{extra}) "
           f"{{ return ATOMIC_EXCHANGE(half, obj, v, {order}, {scope}); }}\n"]
    return "".join(out)


def c11():
    out = []
    for space in ["__global", "__local", ""]:
        obj = lambda t: f"volatile {space} atomic_{t} *obj".replace("  ", " ").strip()
        for t in C11_TYPES:
            out.append(f"OVLD void atomic_init({obj(t)}, {t} v) {{ __opencl_atomic_init(obj, v); }}\n")
        for suffix, extra, order, scope in c11_variants(space):
            for t in C11_TYPES:
                o = obj(t)
                out.append(f"OVLD void atomic_store{suffix}({o}, {t} v{extra}) "
                           f"{{ ATOMIC_STORE({t}, obj, v, {order}, {scope}); }}\n")
                out.append(f"OVLD {t} atomic_load{suffix}({o}{extra}) "
                           f"{{ return ATOMIC_LOAD({t}, obj, {order}, {scope}); }}\n")
                out.append(f"OVLD {t} atomic_exchange{suffix}({o}, {t} v{extra}) "
                           f"{{ return ATOMIC_EXCHANGE({t}, obj, v, {order}, {scope}); }}\n")
                expected_spaces = ["__global", "__local", "__private"] if space else [""]
                for strength in ("strong", "weak"):
                    for es in expected_spaces:
                        e = f"{es} {t} *expected".strip()
                        if suffix == "":
                            params, orders = "", f"{DEFAULT_ORDER}, {DEFAULT_ORDER}"
                        else:
                            params = ", memory_order success, memory_order failure"
                            params += ", memory_scope scope" if scope == "scope" else ""
                            orders = "success, failure"
                        out.append(f"OVLD bool atomic_compare_exchange_{strength}{suffix}({o}, {e}, "
                                   f"{t} desired{params}) {{\n"
                                   f"  return ATOMIC_COMPARE_EXCHANGE({strength}, {t}, obj, expected, "
                                   f"desired, {orders}, {scope});\n}}\n")
            for t in INTEGER:
                o = obj(t)
                for op in ("add", "sub", "or", "xor", "and", "min", "max"):
                    out.append(f"OVLD {t} atomic_fetch_{op}{suffix}({o}, {t} v{extra}) "
                               f"{{ return ATOMIC_FETCH({op}, {t}, obj, v, {order}, {scope}); }}\n")
            # atomic_uintptr_t with a ptrdiff_t operand.
            for op in ("add", "sub"):
                out.append(f"OVLD ulong atomic_fetch_{op}{suffix}({obj('ulong')}, long v{extra}) "
                           f"{{ return ATOMIC_FETCH({op}, ulong, obj, (ulong)v, {order}, {scope}); }}\n")
            if space:
                # The OpenCL C 2.0 header's atomic_intptr_t/uintptr_t mixes in named spaces.
                for obj_t, v_t in (("long", "ulong"), ("ulong", "long")):
                    for op in ("or", "xor", "and", "min", "max"):
                        out.append(f"OVLD {obj_t} atomic_fetch_{op}{suffix}({obj(obj_t)}, {v_t} v{extra}) "
                                   f"{{ return ATOMIC_FETCH({op}, {obj_t}, obj, ({obj_t})v, {order}, {scope}); }}\n")
            f = f"volatile {space} atomic_flag *obj".replace("  ", " ").strip()
            out.append(f"OVLD bool atomic_flag_test_and_set{suffix}({f}{extra}) "
                       f"{{ return ATOMIC_EXCHANGE(int, (volatile {space} atomic_int *)obj, 1, {order}, {scope}) != 0; }}\n")
            out.append(f"OVLD void atomic_flag_clear{suffix}({f}{extra}) "
                       f"{{ ATOMIC_STORE(int, (volatile {space} atomic_int *)obj, 0, {order}, {scope}); }}\n")
        # cl_ext_float_atomics gives the named spaces every form too.
        for suffix, extra, order, scope in c11_variants(""):
            out.append(half_load_store_exchange(obj("half"), suffix, extra, order, scope))
            for t in FLOATING:
                for op in ("add", "sub", "min", "max"):
                    out.append(f"OVLD {t} atomic_fetch_{op}{suffix}({obj(t)}, {t} v{extra}) "
                               f"{{ return ATOMIC_FETCH_FLOAT({op}, {t}, obj, v, {order}, {scope}); }}\n")
    return "".join(out)


def files():
    return {"atomics_legacy.cl": INCLUDE + legacy(), "atomics_c11.cl": INCLUDE + c11()}

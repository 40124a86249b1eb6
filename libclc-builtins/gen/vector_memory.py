"""Vector data load and store builtins (6.15.7): vloadn/vstoren for every element type (half too),
and the half-precision vload_half*/vloada_half*/vstore_half*/vstorea_half* forms, whose
rounding is done by include/half_support.h."""

from cltypes import ALL_TYPES, HALF, OUT_ADDRESS_SPACES, WIDTHS, comp, vec

LOAD_ADDRESS_SPACES = OUT_ADDRESS_SPACES + ["__constant"]
HALF_MODES = {"": "HALF_RTE", "_rte": "HALF_RTE", "_rtz": "HALF_RTZ", "_rtp": "HALF_RTP",
              "_rtn": "HALF_RTN"}


def const_ptr(space, t):
    return f"const {space} {t} *".replace("  ", " ")


def out_ptr(space, t):
    return f"{space} {t} *".strip()


def vload_vstore():
    out = []
    for t in ALL_TYPES + [HALF]:
        for n in WIDTHS:
            V = vec(t, n)
            elems = ", ".join(f"q[{i}]" for i in range(n))
            for space in LOAD_ADDRESS_SPACES:
                out.append(f"OVLD {V} vload{n}(size_t offset, {const_ptr(space, t)}p) {{\n"
                           f"  {const_ptr(space, t)}q = p + offset * {n};\n"
                           f"  return ({V})({elems});\n}}\n")
            for space in OUT_ADDRESS_SPACES:
                stores = "".join(f"  q[{i}] = data{comp(i)};\n" for i in range(n))
                out.append(f"OVLD void vstore{n}({V} data, size_t offset, {out_ptr(space, t)}p) {{\n"
                           f"  {out_ptr(space, t)}q = p + offset * {n};\n{stores}}}\n")
    return "".join(out)


def vload_half():
    out = []
    for space in LOAD_ADDRESS_SPACES:
        hp = const_ptr(space, "half")
        up = const_ptr(space, "ushort")
        out.append(f"OVLD float vload_half(size_t offset, {hp}p) "
                   f"{{ return half_bits_to_float((({up})p)[offset]); }}\n")
        for n in WIDTHS:
            for name, stride in ((f"vload_half{n}", n), (f"vloada_half{n}", 4 if n == 3 else n)):
                elems = ", ".join(f"half_bits_to_float(q[{i}])" for i in range(n))
                out.append(f"OVLD float{n} {name}(size_t offset, {hp}p) {{\n"
                           f"  {up}q = ({up})p + offset * {stride};\n"
                           f"  return (float{n})({elems});\n}}\n")
    return "".join(out)


def vstore_half():
    out = []
    for space in OUT_ADDRESS_SPACES:
        hp, up = out_ptr(space, "half"), out_ptr(space, "ushort")
        for t in ("float", "double"):
            for suffix, mode in HALF_MODES.items():
                out.append(f"OVLD void vstore_half{suffix}({t} data, size_t offset, {hp}p) "
                           f"{{ (({up})p)[offset] = __cucl_double_to_half_bits((double)data, {mode}); }}\n")
                for n in WIDTHS:
                    for name, stride in ((f"vstore_half{n}", n),
                                         (f"vstorea_half{n}", 4 if n == 3 else n)):
                        stores = "".join(
                            f"  q[{i}] = __cucl_double_to_half_bits((double)data{comp(i)}, {mode});\n"
                            for i in range(n))
                        out.append(f"OVLD void {name}{suffix}({vec(t, n)} data, size_t offset, "
                                   f"{hp}p) {{\n  {up}q = ({up})p + offset * {stride};\n{stores}}}\n")
    return "".join(out)


def files():
    return {"vload_vstore.cl": vload_vstore(),
            "vload_vstore_half.cl": '#include "half_support.h"\n\n' + vload_half() + vstore_half()}

"""Work-group data builtins (6.15.11, 6.15.13): async_work_group_copy,
async_work_group_strided_copy and prefetch for every element type (half too) and width, and
shuffle/shuffle2 (6.15.14)."""

from cltypes import ALL_TYPES, HALF, SIZE, WIDTHS, comp, unsigned_of, vec

COPY_LOOP = ("  size_t size = get_local_size(0) * get_local_size(1) * get_local_size(2);\n"
             "  for (size_t i = get_local_linear_id(); i < n; i += size) {assign}\n"
             "  return event;\n")


def async_copies():
    """The work-items of the group copy the elements together, strided by their local
    linear id; wait_group_events (a barrier) makes the result visible to all of them."""
    out = []
    for t in ALL_TYPES + [HALF]:
        for width in [1] + WIDTHS:
            V = vec(t, width)
            for dst, src in (("__local", "__global"), ("__global", "__local")):
                head = f"{dst} {V} *dst, const {src} {V} *src, size_t n"
                out.append(f"OVLD event_t async_work_group_copy({head}, event_t event) {{\n"
                           + COPY_LOOP.format(assign="dst[i] = src[i];") + "}\n")
                assign = ("dst[i] = src[i * stride];" if dst == "__local"
                          else "dst[i * stride] = src[i];")
                out.append(f"OVLD event_t async_work_group_strided_copy({head}, size_t stride, "
                           f"event_t event) {{\n" + COPY_LOOP.format(assign=assign) + "}\n")
            out.append(f"OVLD void prefetch(const __global {V} *p, size_t n) {{}}\n")
    return "".join(out)


def shuffles():
    out = []
    for t in ALL_TYPES + [HALF]:
        mask_type = unsigned_of(t)
        for n in (2, 4, 8, 16):
            for m in (2, 4, 8, 16):
                R, X, M = vec(t, m), vec(t, n), vec(mask_type, m)
                picks = "".join(f"  r{comp(i)} = x[mask{comp(i)} & {n - 1}];\n" for i in range(m))
                out.append(f"OVLD {R} shuffle({X} x, {M} mask) {{\n  {R} r;\n{picks}  return r;\n}}\n")
                picks2 = "".join(
                    f"  k = mask{comp(i)} & {2 * n - 1}; r{comp(i)} = k < {n} ? x[k] : y[k - {n}];\n"
                    for i in range(m))
                out.append(f"OVLD {R} shuffle2({X} x, {X} y, {M} mask) {{\n  {R} r;\n"
                           f"  {mask_type} k;\n{picks2}  return r;\n}}\n")
    return "".join(out)


def files():
    return {"async_copy.cl": async_copies(), "shuffle.cl": shuffles()}

"""Image builtins (OpenCL C "Image Read and Write Functions"): every overload of read_imagef/i/ui/h
(with a sampler, read_only images; sampler-less, read_only and read_write images),
write_imagef/i/ui/h (write_only and read_write images) and the get_image_* queries, for the
1D, 1D buffer, 1D array, 2D, 2D array and 3D image types. Each is a wrapper that puts its
coordinate in the int4/float4 lanes of include/image_support.h and calls the core in
src/image_read.cl, image_sample.cl or image_write.cl with its image kind."""

from collections import namedtuple

Image = namedtuple("Image", "type kind int_coord float_coord int_lanes float_lanes")

# The coordinate lanes are (x, y, z or layer, unused); float_coord is None where the type has no
# reads with a sampler.
IMAGES = [
    Image("image1d_t", "IMAGE_1D", "int", "float",
          "(int4)(coord, 0, 0, 0)", "(float4)(coord, 0.0f, 0.0f, 0.0f)"),
    Image("image1d_buffer_t", "IMAGE_1D_BUFFER", "int", None, "(int4)(coord, 0, 0, 0)", None),
    Image("image1d_array_t", "IMAGE_1D_ARRAY", "int2", "float2",
          "(int4)(coord.x, 0, coord.y, 0)", "(float4)(coord.x, 0.0f, coord.y, 0.0f)"),
    Image("image2d_t", "IMAGE_2D", "int2", "float2", "(int4)(coord, 0, 0)", "(float4)(coord, 0.0f, 0.0f)"),
    Image("image2d_array_t", "IMAGE_2D_ARRAY", "int4", "float4", "coord", "coord"),
    Image("image3d_t", "IMAGE_3D", "int4", "float4", "coord", "coord"),
]

# Result type and the core functions' suffix of read_imagef/i/ui/h and write_imagef/i/ui/h.
# read_imageh and write_imageh (cl_khr_fp16) are the float ones with the colour converted:
# every half is a float, and a float colour rounds to the nearest half.
COLORS = [("f", "float4", "float"), ("i", "int4", "int"), ("ui", "uint4", "uint"), ("h", "half4", "float")]


def read_result(color, call):
    return f"convert_half4({call})" if color == "half4" else call


def written_color(color):
    return "convert_float4(color)" if color == "half4" else "color"

DESCRIPTOR = "IMAGE_DESCRIPTOR(image)"


def reads():
    out = []
    for image in IMAGES:
        for suffix, color, core in COLORS:
            if image.float_coord:
                head = f"OVLD {color} read_image{suffix}(read_only {image.type} image, sampler_t sampler"
                args = f"{DESCRIPTOR}, SAMPLER_BITS(sampler)"
                at = f"__cucl_image_sample_{core}_at({args}, {image.int_lanes}, {image.kind})"
                out.append(f"{head}, {image.int_coord} coord) {{\n  return {read_result(color, at)};\n}}\n")
                sample = f"__cucl_image_sample_{core}({args}, {image.float_lanes}, {image.kind})"
                out.append(f"{head}, {image.float_coord} coord) {{\n  return {read_result(color, sample)};\n}}\n")
            for access in ("read_only", "read_write"):
                read = f"__cucl_image_read_{core}({DESCRIPTOR}, {image.int_lanes}, {image.kind})"
                out.append(f"OVLD {color} read_image{suffix}({access} {image.type} image, {image.int_coord} coord) {{\n"
                           f"  return {read_result(color, read)};\n}}\n")
    return "".join(out)


def writes():
    out = []
    for image in IMAGES:
        for suffix, color, core in COLORS:
            for access in ("write_only", "read_write"):
                out.append(f"OVLD void write_image{suffix}({access} {image.type} image, {image.int_coord} coord, "
                           f"{color} color) {{\n"
                           f"  __cucl_image_write_{core}({DESCRIPTOR}, {image.int_lanes}, {written_color(color)}, "
                           f"{image.kind});\n}}\n")
    return "".join(out)


def queries():
    """(name, result type, expression of the descriptor d, image types) of every query."""
    all_types = [image.type for image in IMAGES]
    with_height = ["image2d_t", "image2d_array_t", "image3d_t"]
    table = [
        ("get_image_width", "int", "d->width", all_types),
        ("get_image_height", "int", "d->height", with_height),
        ("get_image_depth", "int", "d->depth", ["image3d_t"]),
        ("get_image_dim", "int2", "(int2)(d->width, d->height)", ["image2d_t", "image2d_array_t"]),
        ("get_image_dim", "int4", "(int4)(d->width, d->height, d->depth, 0)", ["image3d_t"]),
        ("get_image_array_size", "size_t", "(size_t)d->array_size", ["image1d_array_t", "image2d_array_t"]),
        ("get_image_channel_data_type", "int", "d->channel_data_type", all_types),
        ("get_image_channel_order", "int", "d->channel_order", all_types),
    ]
    out = []
    for name, result, expression, types in table:
        for image_type in types:
            for access in ("read_only", "write_only", "read_write"):
                out.append(f"OVLD {result} {name}({access} {image_type} image) {{\n"
                           f"  image_descriptor d = {DESCRIPTOR};\n  return {expression};\n}}\n")
    return "".join(out)


def files():
    return {"images.cl": '#include "image_support.h"\n\n' + reads() + writes() + queries()}

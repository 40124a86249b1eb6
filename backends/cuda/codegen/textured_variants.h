// A kernel that samples images gets a second PTX entry, `<kernel>$textured`, for launches
// where every read-only image argument of a type textures serve (all but 1D buffers:
// sampled_through_textures) has a texture for each sampler state: there every sampled read of
// such an image takes the texture path, so the software sampler leaves that
// entry, and the registers it holds with it (80 against 29 for a bilinear resample, which then
// keeps twice the threads resident). The launch picks the entry (cuda_launch.cpp).
#pragma once

#include <vector>

namespace llvm {
class Function;
class Module;
}  // namespace llvm

namespace cucl::backend::cuda {

// For each entry that asks __cucl_images_textured() (image_sample.cl): a clone named with
// kTexturedEntrySuffix in which the answer is true; the entry itself answers false. The
// clones, in the entries' order, null for an entry that does not ask. Entries are inlined.
std::vector<llvm::Function*> make_textured_variants(llvm::Module& module, const std::vector<llvm::Function*>& entries);

}  // namespace cucl::backend::cuda

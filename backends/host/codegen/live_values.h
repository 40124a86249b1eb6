// Values that a work-item function carries past a point where it stops and later starts
// again (a branch its lanes take different ways, work_item_resume.h; a barrier,
// barrier_regions.h), and how the code after that point is reconnected to a second
// definition of each, loaded back where it starts again.
#pragma once

#include <llvm/ADT/MapVector.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <string>
#include <utility>
#include <vector>

namespace llvm {
class BasicBlock;
class DominatorTree;
class Function;
class Instruction;
class ReturnInst;
class Type;
class Value;
}  // namespace llvm

namespace cucl::backend::host {

// The values defined before the end of `block` (in blocks that dominate it) that its
// terminator uses, or a block after it before they are defined again.
std::vector<llvm::Instruction*> live_after(const llvm::BasicBlock& block, const llvm::DominatorTree& dominators);

// Whether a value of `type` can be kept in memory across the stop.
bool storable(const llvm::Type* type);

// How a value of `type` is kept: the same, with booleans widened to bytes.
llvm::Type* kept_type(llvm::Type* type);

// An internal copy of `work_item` named <work-item><suffix> that returns `result` and takes
// the parameters `extra` (type and name) after its own. `map` takes each of the work-item's
// values to the copy's; the copy's returns go to `returns` (they still return what the
// work-item did: the caller rewrites them where `result` differs).
llvm::Function* copy_with_parameters(llvm::Function& work_item, const std::string& suffix, llvm::Type* result,
                                     const std::vector<std::pair<llvm::Type*, const char*>>& extra,
                                     llvm::ValueToValueMapTy& map, std::vector<llvm::ReturnInst*>& returns);

// For each value, the blocks where it is defined a second time and that definition. Every
// use of the value then takes whichever definition reaches it (through new phis).
using SecondDefinitions = llvm::MapVector<llvm::Instruction*, std::vector<std::pair<llvm::BasicBlock*, llvm::Value*>>>;
void reconnect(const SecondDefinitions& definitions);

}  // namespace cucl::backend::host

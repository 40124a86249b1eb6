#include "backends/host/codegen/barrier_regions.h"

#include <llvm/ADT/MapVector.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Local.h>

#include <algorithm>
#include <vector>

#include "backends/host/codegen/context_layout.h"
#include "backends/host/codegen/live_values.h"
#include "backends/host/codegen/work_item_divergence.h"
#include "backends/host/work_group_abi.h"

namespace cucl::backend::host {
namespace {

constexpr unsigned kLaneIndexParameter = 2;  // (args, context, x, y, z)
constexpr unsigned kPointParameter = 5;
constexpr unsigned kRoundParameter = 6;

// Values that may differ between the work-items of a row: those that do by what they are
// computed from (WorkItemDivergence), and phis where paths that the work-items may take
// differently meet: in blocks reached from a branch on a varying value before its paths
// have all met again (at its immediate post-dominator, which is included).
llvm::DenseSet<const llvm::Value*> may_differ_in_row(llvm::Function& function, const WorkItemDivergence& divergence) {
  const llvm::PostDominatorTree post_dominators(function);
  llvm::DenseSet<const llvm::Value*> differ;
  for (llvm::Instruction& instruction : llvm::instructions(function)) {
    if (divergence.varying(&instruction)) differ.insert(&instruction);
  }
  for (llvm::BasicBlock& block : function) {
    const llvm::Instruction* branch = block.getTerminator();
    if (!llvm::isa<llvm::BranchInst, llvm::SwitchInst>(branch)) continue;
    if (llvm::none_of(branch->operands(), [&](const llvm::Use& operand) { return divergence.varying(operand.get()); })) continue;
    const llvm::DomTreeNode* node = post_dominators.getNode(&block);
    const llvm::BasicBlock* join = node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
    llvm::SmallPtrSet<llvm::BasicBlock*, 16> reached;
    std::vector<llvm::BasicBlock*> blocks(llvm::succ_begin(&block), llvm::succ_end(&block));
    while (!blocks.empty()) {
      llvm::BasicBlock* next = blocks.back();
      blocks.pop_back();
      if (!reached.insert(next).second || next == join) continue;
      for (llvm::BasicBlock* successor : llvm::successors(next)) blocks.push_back(successor);
    }
    for (llvm::BasicBlock* meeting : reached) {
      for (llvm::PHINode& phi : meeting->phis()) differ.insert(&phi);
    }
  }
  spread_to_users(differ);
  return differ;
}

// How a value that lives across a barrier comes back after it.
enum class Kept { Recomputed, PerItem, PerRow };

struct Slot {
  Kept kept = Kept::PerItem;
  llvm::Type* type = nullptr;  // in memory
  uint64_t bytes = 0;
  uint64_t offset = 0;  // within its area, in units of (work-items or rows) x bytes
};

struct Stop {
  llvm::BasicBlock* before;  // ends where the barrier was
  llvm::BasicBlock* after;   // starts right after it
  std::vector<llvm::Instruction*> live;
};

// Where a work-item keeps its values: the group's sizes and its own place in them.
struct StateAddresses {
  llvm::Value* stopped_at;  // this work-item's barrier number
  llvm::Value* item_slots;
  llvm::Value* rows_in;   // this round's row values, from the last round
  llvm::Value* rows_out;  // for the next round
  llvm::Value* items;     // in the group
  llvm::Value* rows;
  llvm::Value* item;  // this work-item's number in the group
  llvm::Value* row;

  StateLayout layout;
  uint64_t item_bytes;  // of all values kept per work-item

  llvm::Value* of(llvm::IRBuilder<>& b, const Slot& slot, bool storing) const {
    const bool per_item = slot.kept == Kept::PerItem;
    llvm::Value* count = per_item ? items : rows;
    llvm::Value* index = per_item ? item : row;
    llvm::Value* offset = nullptr;
    if (per_item && layout == StateLayout::ByWorkItem) {
      offset = b.CreateAdd(b.CreateMul(index, b.getInt64(item_bytes), "", true, true), b.getInt64(slot.offset), "", true, true);
    } else {
      offset = b.CreateAdd(b.CreateMul(count, b.getInt64(slot.offset), "", true, true),
                           b.CreateMul(index, b.getInt64(slot.bytes), "", true, true), "", true, true);
    }
    return b.CreateInBoundsGEP(b.getInt8Ty(), per_item ? item_slots : storing ? rows_out : rows_in, offset);
  }
};

class Splitter {
 public:
  Splitter(llvm::Function& work_item, llvm::StructType* context_type, StateLayout layout)
      : work_item_(work_item), context_type_(context_type), state_layout_(layout), c_(work_item.getContext()),
        layout_(work_item.getParent()->getDataLayout()) {}

  BarrierRegions run() {
    BarrierRegions result;
    for (llvm::Instruction& instruction : llvm::instructions(work_item_)) {
      if (llvm::isa<llvm::AllocaInst>(instruction)) {
        result.obstacle = "private memory, whose contents a barrier might have to keep";
        return result;
      }
    }
    make_copy();
    if (std::string why = plan(); !why.empty()) {
      regions_->eraseFromParent();
      result.obstacle = why;
      return result;
    }
    rewrite();
    std::string problems;
    llvm::raw_string_ostream stream(problems);
    if (llvm::verifyFunction(*regions_, &stream)) {
      regions_->eraseFromParent();
      result.obstacle = "internal error in the barrier splitter: " + problems;
      return result;
    }
    result.function = regions_;
    result.item_bytes = 4 + item_bytes_;
    result.row_bytes = 2 * row_bytes_;
    unsigned kept[3] = {0, 0, 0};
    for (const auto& entry : slots_) ++kept[static_cast<unsigned>(entry.second.kept)];
    result.summary = std::to_string(stops_.size() + 1) + " regions; across barriers " + std::to_string(kept[1]) +
                     " values kept per work-item, " + std::to_string(kept[2]) + " per row, " + std::to_string(kept[0]) +
                     " computed again";
    return result;
  }

 private:
  void make_copy() {
    llvm::Type* i32 = llvm::Type::getInt32Ty(c_);
    llvm::ValueToValueMapTy map;
    regions_ = copy_with_parameters(work_item_, ".regions", i32, {{i32, "point"}, {i32, "round"}}, map, returns_);
  }

  // Splits the copy's blocks at its barriers and lays out what lives across each.
  std::string plan() {
    // Kept once per row only for the vector form, which takes them as scalars. One work-item
    // at a time, each keeps its own: that trusts no analysis of what the work-items of a row
    // share (the collective functions' values, which rest on the work-items running in
    // order, are not what they seem).
    llvm::DenseSet<const llvm::Value*> differ;
    if (state_layout_ == StateLayout::Interleaved) {
      const WorkItemDivergence divergence(*regions_, *regions_->getArg(kLaneIndexParameter));
      differ = may_differ_in_row(*regions_, divergence);
    }
    const bool all_per_item = state_layout_ == StateLayout::ByWorkItem;
    for (llvm::Instruction& instruction : llvm::instructions(*regions_)) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction);
      if (call && call->getCalledFunction() && call->getCalledFunction()->getName() == kBarrierFunction) barriers_.push_back(call);
    }
    for (llvm::CallInst* barrier : barriers_) {
      llvm::BasicBlock* before = barrier->getParent();
      stops_.push_back({before, before->splitBasicBlock(barrier->getNextNode(), "after_barrier"), {}});
    }
    const llvm::DominatorTree dominators(*regions_);
    for (Stop& stop : stops_) {
      stop.live = live_after(*stop.before, dominators);
      for (llvm::Instruction* value : stop.live) {
        if (slots_.count(value)) continue;
        if (!storable(value->getType())) return "a value of a type that cannot be stored lives across a barrier";
        Slot slot;
        slot.kept = recomputable(*value)                     ? Kept::Recomputed
                    : all_per_item || differ.contains(value) ? Kept::PerItem
                                                             : Kept::PerRow;
        slot.type = kept_type(value->getType());
        slot.bytes = layout_.getTypeStoreSize(slot.type).getFixedSize();
        slots_.insert({value, slot});
      }
    }
    // Widest first, so that each value's array starts aligned for its type.
    std::vector<std::pair<llvm::Instruction*, Slot>*> order;
    for (auto& entry : slots_) order.push_back(&entry);
    std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->second.bytes > b->second.bytes; });
    for (auto* entry : order) {
      Slot& slot = entry->second;
      if (slot.kept == Kept::Recomputed) continue;
      uint64_t& area = slot.kept == Kept::PerItem ? item_bytes_ : row_bytes_;
      slot.offset = area;
      area += slot.bytes;
    }
    return {};
  }

  // Computed from the kernel's arguments, the group's context and constants alone (argument
  // values, local-memory addresses, sizes): cheaper to compute again than to keep.
  bool recomputable(const llvm::Value& value) {
    if (!llvm::isa<llvm::Instruction>(value)) return true;
    if (auto found = recomputable_.find(&value); found != recomputable_.end()) return found->second;
    const auto& instruction = llvm::cast<llvm::Instruction>(value);
    bool result = false;
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
      result = load->isSimple() && load->hasMetadata(llvm::LLVMContext::MD_invariant_load);
    } else {
      result = llvm::isa<llvm::GetElementPtrInst, llvm::CastInst, llvm::BinaryOperator, llvm::CmpInst, llvm::SelectInst>(instruction) &&
               !instruction.mayHaveSideEffects();
    }
    recomputable_[&value] = result;  // before the operands: no cycles through phis, which are never recomputable
    for (const llvm::Value* operand : instruction.operand_values()) {
      if (!result) break;
      result = recomputable(*operand);
    }
    recomputable_[&value] = result;
    return result;
  }

  // `value` computed again at the end of `block`, from its operands computed again there.
  llvm::Value* recompute(llvm::Instruction& value, llvm::IRBuilder<>& b, llvm::DenseMap<llvm::Value*, llvm::Value*>& done) {
    if (auto found = done.find(&value); found != done.end()) return found->second;
    llvm::Instruction* copy = value.clone();
    for (unsigned i = 0; i < copy->getNumOperands(); ++i) {
      if (auto* operand = llvm::dyn_cast<llvm::Instruction>(copy->getOperand(i))) copy->setOperand(i, recompute(*operand, b, done));
    }
    b.Insert(copy, value.getName());
    done[&value] = copy;
    return copy;
  }

  StateAddresses addresses(llvm::IRBuilder<>& b) {
    llvm::Argument* context = regions_->getArg(1);
    auto local_size = [&](unsigned d) { return load_context_element(b, context_type_, context, kLocalSize, d); };
    llvm::Value* state = load_context_field(b, context_type_, context, kRegionState, b.getPtrTy());
    llvm::Value* width = local_size(0);
    llvm::Value* height = local_size(1);
    StateAddresses at{};
    at.layout = state_layout_;
    at.item_bytes = item_bytes_;
    at.rows = b.CreateMul(height, local_size(2), "rows", true, true);
    at.items = b.CreateMul(width, at.rows, "items", true, true);
    at.row = b.CreateAdd(regions_->getArg(3), b.CreateMul(height, regions_->getArg(4), "", true, true), "row", true, true);
    at.item = b.CreateAdd(regions_->getArg(kLaneIndexParameter), b.CreateMul(width, at.row, "", true, true), "item", true, true);
    at.stopped_at = b.CreateInBoundsGEP(b.getInt32Ty(), state, at.item, "stopped_at");
    at.item_slots = b.CreateInBoundsGEP(b.getInt32Ty(), state, at.items, "item_slots");
    llvm::Value* row_area = b.CreateInBoundsGEP(b.getInt8Ty(), at.item_slots,
                                                b.CreateMul(at.items, b.getInt64(item_bytes_), "", true, true), "row_slots");
    // Two row areas, taking turns round by round: a work-item that comes to its next barrier
    // must not overwrite what the rest of its row has yet to take back.
    llvm::Value* half = b.CreateMul(at.rows, b.getInt64(row_bytes_), "", true, true);
    llvm::Value* odd = b.CreateICmpNE(b.CreateAnd(regions_->getArg(kRoundParameter), b.getInt32(1)), b.getInt32(0));
    llvm::Value* second = b.CreateInBoundsGEP(b.getInt8Ty(), row_area, half);
    at.rows_in = b.CreateSelect(odd, second, row_area, "rows_in");
    at.rows_out = b.CreateSelect(odd, row_area, second, "rows_out");
    return at;
  }

  void rewrite() {
    llvm::BasicBlock* start = &regions_->getEntryBlock();
    auto* dispatch = llvm::BasicBlock::Create(c_, "dispatch", regions_, start);
    auto* check = llvm::BasicBlock::Create(c_, "check_stop", regions_);
    auto* elsewhere = llvm::BasicBlock::Create(c_, "stopped_elsewhere", regions_);
    auto* choose = llvm::BasicBlock::Create(c_, "choose_region", regions_);
    auto* nowhere = llvm::BasicBlock::Create(c_, "no_such_barrier", regions_);
    llvm::IRBuilder<> b(dispatch);
    const StateAddresses at = addresses(b);
    llvm::Value* point = regions_->getArg(kPointParameter);
    b.CreateCondBr(b.CreateICmpEQ(point, b.getInt32(0)), start, check);
    b.SetInsertPoint(check);
    llvm::LoadInst* own = b.CreateLoad(b.getInt32Ty(), at.stopped_at, "own_stop");
    state_accesses_.push_back(own);
    b.CreateCondBr(b.CreateICmpEQ(own, point), choose, elsewhere);
    b.SetInsertPoint(elsewhere);
    b.CreateRet(own);
    b.SetInsertPoint(nowhere);
    b.CreateUnreachable();
    b.SetInsertPoint(choose);
    llvm::SwitchInst* choice = b.CreateSwitch(point, nowhere, static_cast<unsigned>(stops_.size()));

    SecondDefinitions definitions;
    for (unsigned k = 0; k < stops_.size(); ++k) {
      const Stop& stop = stops_[k];
      llvm::ConstantInt* number = b.getInt32(k + 1);
      barriers_[k]->eraseFromParent();
      stop.before->getTerminator()->eraseFromParent();
      b.SetInsertPoint(stop.before);
      for (llvm::Instruction* live : stop.live) {
        const Slot& slot = slots_.find(live)->second;
        if (slot.kept == Kept::Recomputed) continue;
        llvm::Value* value = live;
        if (slot.type != value->getType()) value = b.CreateZExt(value, slot.type);
        state_accesses_.push_back(b.CreateAlignedStore(value, at.of(b, slot, true), llvm::Align(1)));
      }
      state_accesses_.push_back(b.CreateStore(number, at.stopped_at));
      b.CreateRet(number);

      auto* entry = llvm::BasicBlock::Create(c_, "enter_region" + std::to_string(k + 1), regions_);
      b.SetInsertPoint(entry);
      llvm::DenseMap<llvm::Value*, llvm::Value*> recomputed;
      for (llvm::Instruction* live : stop.live) {
        const Slot& slot = slots_.find(live)->second;
        llvm::Value* value = nullptr;
        if (slot.kept == Kept::Recomputed) {
          value = recompute(*live, b, recomputed);
        } else {
          llvm::LoadInst* load = b.CreateAlignedLoad(slot.type, at.of(b, slot, false), llvm::Align(1), live->getName());
          state_accesses_.push_back(load);
          value = load;
          if (slot.type != live->getType()) value = b.CreateTrunc(value, live->getType());
        }
        definitions[live].emplace_back(entry, value);
      }
      b.CreateBr(stop.after);
      choice->addCase(number, entry);
    }
    for (llvm::ReturnInst* ret : returns_) {
      b.SetInsertPoint(ret);
      state_accesses_.push_back(b.CreateStore(b.getInt32(0), at.stopped_at));
      b.CreateRet(b.getInt32(0));
      ret->eraseFromParent();
    }
    reconnect(definitions);
    llvm::removeUnreachableBlocks(*regions_);
    separate_state_from_other_memory();
  }

  // Nothing but these accesses touches the region state: scoped alias metadata lets LLVM
  // keep kernel values in registers across them and drop a store of what was just loaded.
  void separate_state_from_other_memory() {
    llvm::MDBuilder md(c_);
    llvm::MDNode* domain = md.createAnonymousAliasScopeDomain("cucl.region_state");
    llvm::MDNode* scope = llvm::MDNode::get(c_, {md.createAnonymousAliasScope(domain, "state")});
    llvm::SmallPtrSet<llvm::Instruction*, 32> state(state_accesses_.begin(), state_accesses_.end());
    for (llvm::Instruction& instruction : llvm::instructions(*regions_)) {
      if (!instruction.mayReadOrWriteMemory()) continue;
      if (state.contains(&instruction)) {
        instruction.setMetadata(llvm::LLVMContext::MD_alias_scope, scope);
      } else {
        instruction.setMetadata(llvm::LLVMContext::MD_noalias,
                                llvm::MDNode::concatenate(instruction.getMetadata(llvm::LLVMContext::MD_noalias), scope));
      }
    }
  }

  llvm::Function& work_item_;
  llvm::StructType* context_type_;
  StateLayout state_layout_;
  llvm::LLVMContext& c_;
  const llvm::DataLayout& layout_;
  llvm::Function* regions_ = nullptr;
  std::vector<llvm::ReturnInst*> returns_;
  std::vector<llvm::CallInst*> barriers_;
  std::vector<Stop> stops_;
  llvm::MapVector<llvm::Instruction*, Slot> slots_;  // one for each value live across a barrier
  std::vector<llvm::Instruction*> state_accesses_;
  llvm::DenseMap<const llvm::Value*, bool> recomputable_;
  uint64_t item_bytes_ = 0;  // of the values kept per work-item
  uint64_t row_bytes_ = 0;   // of those kept per row, in each of the two row areas
};

}  // namespace

BarrierRegions split_at_barriers(llvm::Function& work_item, llvm::StructType* context_type, StateLayout layout) {
  return Splitter(work_item, context_type, layout).run();
}

}  // namespace cucl::backend::host

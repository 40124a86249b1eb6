// Where the vector form of a work-item function (work_item_vectorizer.h) comes to a branch
// that its lanes take different ways, it hands each lane in turn to a scalar copy of the
// work-item function that starts right at that branch: the resume function,
// `<work-item>.resume(<the work-item's parameters>, i32 point, ptr state, i64 lane)`,
// returning what the work-item returns. `state`
// holds the values that the branch and the rest of the work-item take from before it (its
// live values), as `points[point].state` lays them out: a varying value as all lanes'
// values one after the other (the vector form stores its vector as it is), a uniform one
// once. Booleans are kept as bytes.
#pragma once

#include "backends/host/codegen/live_values.h"

#include <functional>
#include <string>
#include <vector>

namespace llvm {
class BasicBlock;
class Function;
class Instruction;
class StructType;
class Type;
class Value;
}  // namespace llvm

namespace cucl::backend::host {

struct ResumePoint {
  const llvm::BasicBlock* block = nullptr;  // of the work-item function; its terminator is the branch
  std::vector<llvm::Instruction*> live;     // of the work-item function
  llvm::StructType* state = nullptr;        // a field for each live value
};

// The vector form's type of a varying value of `type`: `width` lanes, a vector type's
// elements lane by lane.
llvm::Type* lanes_type(llvm::Type* type, unsigned width);

struct ResumeFunction {
  llvm::Function* function = nullptr;  // null when a live value cannot be handed over
  std::vector<ResumePoint> points;
  std::string obstacle;  // then: why not
};

ResumeFunction make_resume_function(llvm::Function& work_item, const std::vector<const llvm::BasicBlock*>& branches,
                                    const std::function<bool(const llvm::Value*)>& varying, unsigned width);

}  // namespace cucl::backend::host

//===- CfgHash.h - Structural hash of a function's CFG ----------*- C++ -*-===//
#ifndef MIP_PLUGIN_CFGHASH_H
#define MIP_PLUGIN_CFGHASH_H

#include <cstdint>

namespace llvm {
class Function;
}

namespace mip {

// A hash of F's control-flow shape (blocks, their terminators and
// successors, and the calls they make), taken at the point of the pipeline
// where MIP instruments. A profile entry whose hash differs from the
// function being rebuilt is stale. docs/formats.md gives the exact recipe.
uint64_t computeCfgHash(const llvm::Function &F);

} // namespace mip

#endif

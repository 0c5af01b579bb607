//===- CfgHash.h - Structural hash of a function's CFG ----------*- C++ -*-===//
#ifndef MIP_PLUGIN_CFGHASH_H
#define MIP_PLUGIN_CFGHASH_H

#include <cstdint>

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace mip {

// The recipes of the hash. Shape: F's control-flow shape (blocks, their
// terminators and successors, how many calls each makes). ShapeAndTargets:
// that, and what decides how often code runs and which functions it
// reaches: the function each direct call calls, and the constant each
// conditional branch and switch compares with, so that an edit that makes
// a loop call another function, or run another number of times, is seen.
// Profiles written before ShapeAndTargets carry Shape hashes (their
// functions lack MIP_FN_HASH_CALLS) and are compared by that recipe.
enum class CfgHashRecipe { Shape = 1, ShapeAndTargets = 2 };

// A hash of F by Recipe, taken at the point of the pipeline where MIP
// instruments. A profile entry whose hash differs from the function being
// rebuilt is stale. docs/formats.md gives the exact recipes.
uint64_t computeCfgHash(const llvm::Function &F, CfgHashRecipe Recipe);

// Marks I as part of an edge counter (EdgeCounters.h), and the branch of
// a block made to count a critical edge: such a block is not part of the
// hash, which must describe the function as a build without the counters
// sees it.
void markEdgeCounter(llvm::Instruction &I);

// The recipe maps are written with: ShapeAndTargets, unless the hidden
// option -mip-cfg-hash-recipe=1 asks for an older MIP's (a test of
// profiles made before ShapeAndTargets).
CfgHashRecipe writtenCfgHashRecipe();

} // namespace mip

#endif

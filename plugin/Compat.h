//===- Compat.h - What differs between the LLVM releases MIP supports -*- C++ -*-===//
//
// MIP builds against LLVM 14, 15, 16 and 19 (README.md). Every difference
// between them that the passes meet is here, behind a function the passes
// call the same way on each; no other file tests LLVM_VERSION_MAJOR. How
// clang hands the passes to its code generator differs as a whole
// mechanism: that is ClangHookCallbacks.cpp (clang 17 and later) against
// ClangHookPassPlugins.cpp (before), one of which each build compiles.
//
// Pointers: LLVM 14 still has typed pointers by default (i8*, i64*...),
// 15 and later only opaque ones (ptr). The passes build every pointer
// type through ptrTy/ptrTo and hand pointers to MIP's runtime functions
// through asPtr, which are the opaque ptr and no-ops from 15 on.
//
// What code here must not use directly, and what to use instead:
//   IRBuilder::getPtrTy, PointerType::getUnqual(Ctx)   ptrTy, ptrTo, asPtr
//   xxh3_64bits                          xxh3
//   MDBuilder::createLikelyBranchWeights likelyBranchWeights
//   Attribute::SkipProfile               skipsProfile
//   StringRef::starts_with, startswith   startsWith
//   llvm::popcount, countPopulation      popCount
//   LLVMContext::MD_nosanitize           noSanitizeKind
//   BlockCoverageInference               BlockCoverage
//   Function::getEntryCount              entryCount
//   BlockFrequencyInfo::getBlockProfileCount  blockProfileCount
//   llvm/TargetParser/*.h, llvm/Support/Host.h, llvm/ADT/Triple.h: this
//   header, which includes the release's
// and, with no function needed: std::nullopt as an empty ArrayRef (write
// {}); structured bindings of llvm::enumerate (index the loop); a
// SmallVector built from an ArrayRef (give it begin and end); inserting
// instructions before an iterator (give the Instruction *); <optional>
// and the like, included where used (LLVM 16's headers include more).
//
//===----------------------------------------------------------------------===//
#ifndef MIP_PLUGIN_COMPAT_H
#define MIP_PLUGIN_COMPAT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Support/MathExtras.h"

// Triples, the host's and Arm's architecture versions: TargetParser's
// from LLVM 16, Support's and ADT's before.
#if LLVM_VERSION_MAJOR >= 16
#include "llvm/TargetParser/ARMTargetParser.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#else
#include "llvm/ADT/Triple.h"
#include "llvm/Support/ARMTargetParser.h"
#include "llvm/Support/Host.h"
#endif

#if LLVM_VERSION_MAJOR >= 17
#include "llvm/Support/xxhash.h"
#include "llvm/Transforms/Instrumentation/BlockCoverageInference.h"
#else
// LLVM before 17 has only XXH64, whose values differ: the CFG hashes in
// maps and profiles are XXH3's on every release (libxxhash's, the same
// function LLVM 17 took in).
#define XXH_INLINE_ALL
#include <xxhash.h>
#endif

#include <cstdint>
#include <optional>

namespace mip {
namespace compat {

// The LLVM release the plugin was built against.
constexpr unsigned LLVMMajor = LLVM_VERSION_MAJOR;

// Whether -fmip-use gives its counts before inlining (UseEarlyPass.h).
// Measured and tested on LLVM 19; on 14 and 16 the inliner's other
// decisions with those counts cost the end of the pipeline its match for
// hot allocation sites (test/e2e/use.sh's C++ program lost its hot
// hint), so the releases before 19 apply the profile at the end only, as
// docs/llvm.md says.
constexpr bool CountsBeforeInlining = LLVM_VERSION_MAJOR >= 19;

// The pointer type of address space 0: ptr, or i8* where the context has
// typed pointers.
inline llvm::PointerType *ptrTy(llvm::LLVMContext &Ctx) {
#if LLVM_VERSION_MAJOR < 15
  if (Ctx.supportsTypedPointers())
    return llvm::Type::getInt8PtrTy(Ctx);
#endif
  return llvm::PointerType::get(Ctx, 0);
}

// A pointer to Elem: ptr, or Elem* where the context has typed pointers.
inline llvm::PointerType *ptrTo(llvm::Type *Elem) {
#if LLVM_VERSION_MAJOR < 15
  if (Elem->getContext().supportsTypedPointers())
    return llvm::PointerType::getUnqual(Elem);
#endif
  return ptrTy(Elem->getContext());
}

// V as a ptrTy pointer: itself, or a bitcast where pointers are typed.
inline llvm::Value *asPtr(llvm::IRBuilderBase &B, llvm::Value *V) {
  return B.CreatePointerCast(V, ptrTy(V->getContext()));
}
inline llvm::Constant *asPtr(llvm::Constant *C) {
  return llvm::ConstantExpr::getPointerCast(C, ptrTy(C->getContext()));
}

// XXH3-64 of the bytes, with seed 0: LLVM's xxh3_64bits.
inline uint64_t xxh3(llvm::ArrayRef<uint8_t> Bytes) {
#if LLVM_VERSION_MAJOR >= 17
  return llvm::xxh3_64bits(Bytes);
#else
  return XXH3_64bits(Bytes.data(), Bytes.size());
#endif
}
inline uint64_t xxh3(llvm::StringRef S) {
  return xxh3(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(S.data()), S.size()));
}

// The number of bits set: llvm::popcount from LLVM 16, countPopulation
// before.
inline unsigned popCount(uint64_t V) {
#if LLVM_VERSION_MAJOR >= 16
  return llvm::popcount(V);
#else
  return llvm::countPopulation(V);
#endif
}

// The weights of a branch whose first successor is taken, as
// __builtin_expect gives them: MDBuilder::createLikelyBranchWeights from
// LLVM 18, the same numbers before.
inline llvm::MDNode *likelyBranchWeights(llvm::LLVMContext &Ctx) {
#if LLVM_VERSION_MAJOR >= 18
  return llvm::MDBuilder(Ctx).createLikelyBranchWeights();
#else
  return llvm::MDBuilder(Ctx).createBranchWeights((1U << 20) - 1, 1);
#endif
}

// Whether the source asked for F not to be profiled: no_profile_instrument_function
// (both attributes; LLVM before 16 has only NoProfile).
inline bool skipsProfile(const llvm::Function &F) {
#if LLVM_VERSION_MAJOR >= 16
  if (F.hasFnAttribute(llvm::Attribute::SkipProfile))
    return true;
#endif
  return F.hasFnAttribute(llvm::Attribute::NoProfile);
}

// The metadata that tells sanitizers to leave an instruction alone:
// LLVMContext::MD_nosanitize from LLVM 15, the same name before.
inline unsigned noSanitizeKind(llvm::LLVMContext &Ctx) {
  return Ctx.getMDKindID("nosanitize");
}

// Whether V is the address of a thread-local variable, as
// llvm.threadlocal.address (LLVM 16 and later) gives it: LLVM 16's
// getUnderlyingObjects stops there, later ones look through it to the
// global. Before 16, code refers to thread-local variables directly.
inline bool isThreadLocalAddress(const llvm::Value *V) {
#if LLVM_VERSION_MAJOR >= 16
  const auto *II = llvm::dyn_cast<llvm::IntrinsicInst>(V);
  return II && II->getIntrinsicID() == llvm::Intrinsic::threadlocal_address;
#else
  (void)V;
  return false;
#endif
}

// StringRef::starts_with, which LLVM before 16 spells startswith (and 19
// deprecates).
inline bool startsWith(llvm::StringRef S, llvm::StringRef Prefix) {
  return S.substr(0, Prefix.size()) == Prefix;
}

// Which blocks need a coverage probe, and what the others' coverage
// follows from: LLVM's BlockCoverageInference from 17. Before 17 there is
// none, and every block but the entry gets a probe (docs/instrumentation.md):
// the coverage is the same, only the probes are more.
class BlockCoverage {
public:
  explicit BlockCoverage(const llvm::Function &F)
#if LLVM_VERSION_MAJOR >= 17
      : Inference(F, /*ForceInstrumentEntry=*/false)
#endif
  {
    (void)F;
  }

  // Whether LLVM infers coverage at all (false: every block is probed).
  static constexpr bool infers() { return LLVM_VERSION_MAJOR >= 17; }

  bool shouldProbe(const llvm::BasicBlock &BB) const {
#if LLVM_VERSION_MAJOR >= 17
    return Inference.shouldInstrumentBlock(BB);
#else
    (void)BB;
    return true;
#endif
  }

  // The blocks BB ran exactly when one of which ran (when it has no probe).
  llvm::SmallVector<const llvm::BasicBlock *, 4>
  dependencies(const llvm::BasicBlock &BB) const {
    llvm::SmallVector<const llvm::BasicBlock *, 4> Deps;
#if LLVM_VERSION_MAJOR >= 17
    for (const llvm::BasicBlock *Dep : Inference.getDependencies(BB))
      Deps.push_back(Dep);
#else
    (void)BB;
#endif
    return Deps;
  }

private:
#if LLVM_VERSION_MAJOR >= 17
  llvm::BlockCoverageInference Inference;
#endif
};

// F's entry count, if it has one: Function::getEntryCount's count
// (llvm::Optional before LLVM 16, std::optional after).
inline std::optional<uint64_t> entryCount(const llvm::Function &F) {
  auto Count = F.getEntryCount();
  if (!Count)
    return std::nullopt;
  return Count->getCount();
}

// BB's count by BFI, 0 where it has none (getBlockProfileCount's
// llvm::Optional before LLVM 16 has no value_or).
inline uint64_t blockProfileCount(const llvm::BlockFrequencyInfo &BFI,
                                  const llvm::BasicBlock &BB) {
  auto Count = BFI.getBlockProfileCount(&BB);
  return Count ? *Count : 0;
}

} // namespace compat
} // namespace mip

#endif

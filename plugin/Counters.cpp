//===- Counters.cpp - Counter arrays --------------------------------------===//

#include "Counters.h"

#include "mip/format.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace mip {

const char *counterSectionName(unsigned Kind) {
  switch (Kind) {
#define MIP_RAW_KIND(id, NAME, section, elem_size)                             \
  case id:                                                                     \
    return #section;
#include "mip/layout/raw_kinds.inc"
#undef MIP_RAW_KIND
  }
  llvm_unreachable("unknown counter kind");
}

namespace {

// "__mip_<kind>.<function>", with anything an assembler might trip over
// replaced, so the map's module assembly can name it unquoted.
std::string counterName(const Function &F, unsigned Kind) {
  std::string Name = ("__mip_" + Twine(Kind) + ".").str();
  for (char C : GlobalValue::dropLLVMManglingEscape(F.getName()))
    Name += isAlnum(C) || C == '_' || C == '.' ? C : '_';
  return Name;
}

} // namespace

unsigned counterElemSize(unsigned Kind) {
  switch (Kind) {
#define MIP_RAW_KIND(id, NAME, section, elem_size)                             \
  case id:                                                                     \
    return elem_size;
#include "mip/layout/raw_kinds.inc"
#undef MIP_RAW_KIND
  }
  llvm_unreachable("unknown counter kind");
}

GlobalVariable *InstrumentedFunction::counters(unsigned Kind) const {
  for (const CounterSlot &S : Slots)
    if (S.Kind == Kind)
      return S.Array;
  return nullptr;
}

Instruction *entryProbePoint(Function &F) {
  BasicBlock &Entry = F.getEntryBlock();
  BasicBlock::iterator It = Entry.getFirstInsertionPt();
  while (isa<AllocaInst>(*It) && cast<AllocaInst>(*It).isStaticAlloca())
    ++It;
  return &*It;
}

GlobalVariable *createCounterArray(Function &F, unsigned Kind, Type *ElemTy,
                                   unsigned Count) {
  Module &M = *F.getParent();
  Type *Ty = Count == 1 ? ElemTy : ArrayType::get(ElemTy, Count);
  // Internal rather than private: a private symbol's assembler name
  // depends on the target's data layout, which a module read by opt may
  // not carry yet; an internal one is the same everywhere on ELF.
  auto *GV = new GlobalVariable(M, Ty, /*isConstant=*/false,
                                GlobalValue::InternalLinkage,
                                Constant::getNullValue(Ty),
                                counterName(F, Kind));
  // The section named as '#pragma clang section' names it, not as an
  // explicit section: the code generator then puts an array that starts
  // as zeros in a section without file bytes (SHT_NOBITS), like .bss, so
  // a counter costs the image's file nothing. An explicit section is
  // always written out in full. An array that does not start as zeros
  // (coverage on AArch64) gets its bytes, in the same section.
  GV->addAttribute("bss-section", counterSectionName(Kind));
  GV->addAttribute("data-section", counterSectionName(Kind));
  GV->setAlignment(Align(ElemTy->getScalarSizeInBits() / 8));
  if (Comdat *C = F.getComdat())
    GV->setComdat(C);
  GV->setMetadata(LLVMContext::MD_associated,
                  MDNode::get(M.getContext(), ValueAsMetadata::get(&F)));
  // The map refers to the array from module assembly, which the optimizer
  // cannot see.
  appendToCompilerUsed(M, {GV});
  return GV;
}

} // namespace mip

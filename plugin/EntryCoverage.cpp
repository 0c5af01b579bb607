//===- EntryCoverage.cpp - One byte and one store per function -----------===//
//
// The cheapest useful profile: a byte per function, set on entry. The store
// is a constant to a fixed address, so on x86-64 it is a single
// `movb $1, disp32(%rip)`: no register, no flags, no load.
//
//===----------------------------------------------------------------------===//

#include "EntryCoverage.h"

#include "mip/format.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace mip {

CounterSlot addEntryCoverage(Function &F) {
  Type *Int8 = Type::getInt8Ty(F.getContext());
  GlobalVariable *Byte = createCounterArray(F, MIP_RAW_COV, Int8, 1);
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  // Monotonic: threads may race to set the same byte, and all of them
  // write the same value. It compiles to the same plain store.
  StoreInst *Store = B.CreateStore(ConstantInt::get(Int8, 1), Byte);
  Store->setAtomic(AtomicOrdering::Monotonic);
  Store->setAlignment(Align(1));
  return {MIP_RAW_COV, 1, Byte};
}

} // namespace mip

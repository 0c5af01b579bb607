//===- FunctionKey.cpp - How maps and profiles name a function ------------===//

#include "FunctionKey.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace mip {

StringRef linkageName(const Function &F) {
  return GlobalValue::dropLLVMManglingEscape(F.getName());
}

StringRef unitName(const Function &F) {
  return F.hasLocalLinkage() ? StringRef(F.getParent()->getSourceFileName())
                             : StringRef();
}

std::string profileKey(const Function &F) {
  StringRef Unit = unitName(F);
  if (Unit.empty())
    return linkageName(F).str();
  return (Unit + ";" + linkageName(F)).str();
}

} // namespace mip

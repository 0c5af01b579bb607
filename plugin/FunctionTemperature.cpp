//===- FunctionTemperature.cpp - Hot and cold functions at rebuild --------===//
//
// A cold function (never run in any merged run) gets the `cold` attribute,
// so calls to it make their blocks unlikely and the code generator lays
// it out for size, and the section prefix "unlikely": .text.unlikely
// (.text.unlikely.NAME with -ffunction-sections), which GNU ld, gold and
// lld group apart from the rest of the text. A hot one gets `hot` and
// .text.hot, grouped together at the front. docs/use.md has the rules.
//
//===----------------------------------------------------------------------===//

#include "FunctionTemperature.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace mip {

namespace {

constexpr const char *PassName = "mip";

// The source's own word (__attribute__((hot)) / ((cold))) wins over the
// profile's, and an explicit section over a prefix.
const char *conflict(const Function &F, mip_temperature T) {
  if (T == MIP_TEMP_COLD && F.hasFnAttribute(Attribute::Hot))
    return "the source marks it hot";
  if (T == MIP_TEMP_HOT && F.hasFnAttribute(Attribute::Cold))
    return "the source marks it cold";
  if (F.hasSection())
    return "it has a section of its own";
  return nullptr;
}

void markCold(Function &F, bool MinSize) {
  F.addFnAttr(Attribute::Cold);
  F.setSectionPrefix("unlikely");
  // optnone (-O0) functions cannot be optimized for size.
  if (MinSize && !F.hasFnAttribute(Attribute::OptimizeNone)) {
    F.addFnAttr(Attribute::MinSize);
    F.addFnAttr(Attribute::OptimizeForSize);
  }
}

void markHot(Function &F) {
  F.addFnAttr(Attribute::Hot);
  F.setSectionPrefix("hot");
}

} // namespace

bool applyTemperature(Function &F, const TemperatureReason &Why, bool MinSize,
                      OptimizationRemarkEmitter &ORE) {
  mip_temperature T = Why.Temperature;
  if (T != MIP_TEMP_COLD && T != MIP_TEMP_HOT)
    return false;
  const char *Name = mip_temperature_name(T);
  if (const char *Reason = conflict(F, T)) {
    ORE.emit([&] {
      return OptimizationRemarkMissed(PassName, "Temperature", &F)
             << "not marked " << Name << ": " << Reason;
    });
    return false;
  }
  if (T == MIP_TEMP_COLD) {
    markCold(F, MinSize);
    ORE.emit([&] {
      return OptimizationRemark(PassName, "Cold", &F)
             << "marked cold: never ran in " << ore::NV("Runs", Why.Runs)
             << (Why.Runs == 1 ? " run" : " runs")
             << (F.hasFnAttribute(Attribute::MinSize) ? " (minsize)" : "");
    });
  } else {
    markHot(F);
    ORE.emit([&] {
      return OptimizationRemark(PassName, "Hot", &F)
             << "marked hot: " << ore::NV("Calls", Why.Calls)
             << " calls, among the functions that make "
             << formatv("{0}", Why.HotShare * 100).str()
             << "% of all calls (hot from "
             << ore::NV("Threshold", Why.Threshold) << " calls)";
    });
  }
  return true;
}

bool applyColdCounts(Function &F, uint64_t MaxCount, uint64_t Scale,
                     OptimizationRemarkEmitter &ORE) {
  if (const char *Reason = conflict(F, MIP_TEMP_COLD)) {
    ORE.emit([&] {
      return OptimizationRemarkMissed(PassName, "ColdCounts", &F)
             << "not optimized for size: " << Reason;
    });
    return false;
  }
  markCold(F, true);
  uint64_t Runs = MaxCount / Scale;
  ORE.emit([&] {
    OptimizationRemark R(PassName, "ColdCounts", &F);
    R << "marked cold before inlining: ";
    if (MaxCount == 0)
      R << "it never ran";
    else
      R << "its busiest block ran " << ore::NV("Count", Runs)
        << (Runs == 1 ? " time" : " times") << ", cold by the profile summary";
    return R << (F.hasFnAttribute(Attribute::MinSize) ? " (minsize)" : "");
  });
  return true;
}

} // namespace mip

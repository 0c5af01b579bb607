//===- MapWriter.cpp - The build-time map section -------------------------===//

#include "MapWriter.h"
#include "Compat.h"

#include "CfgHash.h"
#include "EdgeCounters.h"
#include "Target.h"

#include "FunctionKey.h"

#include "mip/format.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/Comdat.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Mangler.h"
#include "llvm/IR/Module.h"

#define MIP_ASM_LAYOUT_NAME MapRecordFields
#define MIP_ASM_LAYOUT_FILE "mip/layout/map_record.inc"
#include "AsmLayout.h"
#define MIP_ASM_LAYOUT_NAME MapUnitFields
#define MIP_ASM_LAYOUT_FILE "mip/layout/map_unit.inc"
#include "AsmLayout.h"
#define MIP_ASM_LAYOUT_NAME MapUnitSectionFields
#define MIP_ASM_LAYOUT_FILE "mip/layout/map_unit_section.inc"
#include "AsmLayout.h"
#define MIP_ASM_LAYOUT_NAME MapFunctionFields
#define MIP_ASM_LAYOUT_FILE "mip/layout/map_function.inc"
#include "AsmLayout.h"
#define MIP_ASM_LAYOUT_NAME MapSlotFields
#define MIP_ASM_LAYOUT_FILE "mip/layout/map_slot.inc"
#include "AsmLayout.h"
#define MIP_ASM_LAYOUT_NAME MapBlocksFields
#define MIP_ASM_LAYOUT_FILE "mip/layout/map_blocks.inc"
#include "AsmLayout.h"
#define MIP_ASM_LAYOUT_NAME MapBlockFields
#define MIP_ASM_LAYOUT_FILE "mip/layout/map_block.inc"
#include "AsmLayout.h"
#define MIP_ASM_LAYOUT_NAME MapHeapSiteFields
#define MIP_ASM_LAYOUT_FILE "mip/layout/map_heap_site.inc"
#include "AsmLayout.h"
#define MIP_ASM_LAYOUT_NAME MapEdgeCountsFields
#define MIP_ASM_LAYOUT_FILE "mip/layout/map_edge_counts.inc"
#include "AsmLayout.h"
#define MIP_ASM_LAYOUT_NAME MapDataFields
#define MIP_ASM_LAYOUT_FILE "mip/layout/map_data.inc"
#include "AsmLayout.h"

using namespace llvm;

namespace mip {

namespace {

// Prefixes Body with a record header and returns the directives.
std::string finishRecord(uint16_t Kind, uint16_t Version,
                         const AsmRecord &Body) {
  AsmRecord Header;
  MapRecordFields H;
  H.kind = Kind;
  H.version = Version;
  H.size = 8 + Body.size(); // map_record.inc is 8 bytes
  appendFields(Header, H);
  assert(Header.size() == 8 && Body.size() % 8 == 0);
  return Header.text() + Body.text();
}

std::string symbolName(const GlobalValue *GV) {
  SmallString<128> Name;
  Mangler().getNameWithPrefix(Name, GV, /*CannotUsePrivateLabel=*/false);
  return std::string(Name);
}

// The records of M's functions, with addresses as wide as its pointers.
AsmRecord recordFor(const Module &M) {
  return AsmRecord(M.getDataLayout().getPointerSize());
}

uint64_t modesOf(ArrayRef<InstrumentedFunction> Functions) {
  uint64_t Modes = 0;
  for (const InstrumentedFunction &IF : Functions)
    for (const CounterSlot &S : IF.Slots)
      Modes |= MIP_MODE_BIT(S.Kind);
  return Modes;
}

std::string unitRecord(const Module &M, uint64_t Modes, uint32_t Flags) {
  AsmRecord Body = recordFor(M);
  MapUnitFields U;
  U.flags = Flags;
  U.section_count = compat::popCount(Modes);
  U.name_size = M.getSourceFileName().size();
  U.reserved = 0;
  appendFields(Body, U);
  for (unsigned Kind = 0; Kind < 64; ++Kind) {
    if (!(Modes & MIP_MODE_BIT(Kind)))
      continue;
    std::string Section = counterSectionName(Kind);
    MapUnitSectionFields S;
    S.kind = Kind;
    S.elem_size = counterElemSize(Kind);
    S.start = AsmValue::symbol("__start_" + Section);
    S.stop = AsmValue::symbol("__stop_" + Section);
    appendFields(Body, S);
  }
  Body.cString(M.getSourceFileName());
  Body.padTo8();
  return finishRecord(MIP_MAP_UNIT, MIP_MAP_UNIT_VERSION, Body);
}

std::string functionRecord(const InstrumentedFunction &IF) {
  const Function &F = *IF.F;
  StringRef Name = linkageName(F);
  StringRef Unit = unitName(F);
  AsmRecord Body = recordFor(*IF.F->getParent());
  MapFunctionFields Fn;
  Fn.cfg_hash = IF.CfgHash;
  Fn.entry = AsmValue::symbol(symbolName(&F));
  Fn.flags = (F.hasLocalLinkage() ? MIP_FN_LOCAL : 0) |
             (F.hasComdat() ? MIP_FN_COMDAT : 0) |
             (writtenCfgHashRecipe() == CfgHashRecipe::ShapeAndTargets
                  ? MIP_FN_HASH_CALLS
                  : 0) |
             (checkedTargetOf(*F.getParent()).ThumbBit ? MIP_FN_THUMB_BIT : 0);
  Fn.slot_count = IF.Slots.size();
  Fn.name_size = Name.size();
  Fn.unit_size = Unit.size();
  appendFields(Body, Fn);
  for (const CounterSlot &Slot : IF.Slots) {
    MapSlotFields S;
    S.kind = Slot.Kind;
    S.count = Slot.Count;
    S.addr = AsmValue::symbol(symbolName(Slot.Array));
    appendFields(Body, S);
  }
  Body.cString(Name);
  if (!Unit.empty())
    Body.cString(Unit);
  Body.padTo8();
  return finishRecord(MIP_MAP_FUNCTION, MIP_MAP_FUNCTION_VERSION, Body);
}

// The function's blocks, keyed by its coverage byte.
std::string blocksRecord(const InstrumentedFunction &IF) {
  AsmRecord Body = recordFor(*IF.F->getParent());
  MapBlocksFields Head;
  Head.cov_addr = AsmValue::symbol(symbolName(IF.counters(MIP_RAW_COV)));
  Head.block_count = IF.Blocks.size();
  uint64_t DepCount = 0;
  for (const BlockInfo &B : IF.Blocks)
    DepCount += B.Deps.size();
  Head.dep_count = DepCount;
  appendFields(Body, Head);
  uint64_t DepFirst = 0;
  for (const BlockInfo &B : IF.Blocks) {
    MapBlockFields Block;
    Block.line = B.Line;
    Block.probe = B.Probe;
    Block.dep_first = DepFirst;
    Block.dep_count = B.Deps.size();
    appendFields(Body, Block);
    DepFirst += B.Deps.size();
  }
  for (const BlockInfo &B : IF.Blocks)
    for (uint32_t Dep : B.Deps)
      Body.field(4, Dep);
  Body.padTo8();
  return finishRecord(MIP_MAP_BLOCKS, MIP_MAP_BLOCKS_VERSION, Body);
}

// One allocation or deallocation call: its byte, its function's coverage
// byte, and where it is.
std::string heapSiteRecord(const InstrumentedFunction &IF, size_t Index) {
  const HeapSiteInfo &Site = IF.HeapSites[Index];
  AsmRecord Body = recordFor(*IF.F->getParent());
  MapHeapSiteFields H;
  H.site = AsmValue::symbol(symbolName(IF.counters(MIP_RAW_SITE)), Index);
  H.function = AsmValue::symbol(symbolName(IF.counters(MIP_RAW_COV)));
  H.line = Site.Line;
  H.column = Site.Column;
  H.allocator = Site.Allocator;
  H.file_size = Site.File.size();
  H.name_size = Site.Name.size();
  H.reserved = 0;
  appendFields(Body, H);
  Body.cString(Site.File);
  Body.cString(Site.Name);
  Body.padTo8();
  return finishRecord(MIP_MAP_HEAP_SITE, MIP_MAP_HEAP_SITE_VERSION, Body);
}

// A global variable: its counter, where it is, what it is.
std::string dataRecord(const Module &M, const DataInfo &D) {
  AsmRecord Body = recordFor(M);
  MapDataFields R;
  R.counter = AsmValue::symbol(symbolName(D.Counter));
  R.object = D.Object ? AsmValue::symbol(symbolName(D.Object)) : AsmValue(0);
  R.size = D.Size;
  R.flags = D.Flags;
  R.name_size = D.Name.size();
  R.unit_size = D.Unit.size();
  R.reserved = 0;
  appendFields(Body, R);
  Body.cString(D.Name);
  if (!D.Unit.empty())
    Body.cString(D.Unit);
  Body.padTo8();
  return finishRecord(MIP_MAP_DATA, MIP_MAP_DATA_VERSION, Body);
}

// A function's records: itself, its blocks when it has them, its heap
// sites.
std::string functionRecords(const InstrumentedFunction &IF) {
  std::string Records = functionRecord(IF);
  if (!IF.Blocks.empty())
    Records += blocksRecord(IF);
  for (size_t I = 0; I < IF.HeapSites.size(); ++I)
    Records += heapSiteRecord(IF, I);
  return Records;
}

std::string sectionDirective(const Comdat *C) {
  std::string D = ".pushsection " MIP_MAP_SECTION;
  if (C)
    D += ",\"G\",%progbits," + asmSymbolName(C->getName()) + ",comdat\n";
  else
    D += ",\"\",%progbits\n";
  return D + ".p2align 3\n";
}

// A function's edge counters (block-counts mode), as their metadata
// describes the function they count.
std::string edgeCountsRecord(const GlobalVariable &Counters,
                             const EdgeCountsOwner &Owner) {
  AsmRecord Body = recordFor(*Counters.getParent());
  MapEdgeCountsFields R;
  R.cfg_hash = Owner.CfgHash;
  R.counters = AsmValue::symbol(symbolName(&Counters));
  Type *Ty = Counters.getValueType();
  R.count = Ty->isArrayTy() ? Ty->getArrayNumElements() : 1;
  R.flags = Owner.Unit.empty() ? 0 : MIP_FN_LOCAL;
  R.name_size = Owner.Name.size();
  R.unit_size = Owner.Unit.size();
  appendFields(Body, R);
  Body.cString(Owner.Name);
  if (!Owner.Unit.empty())
    Body.cString(Owner.Unit);
  Body.padTo8();
  return finishRecord(MIP_MAP_EDGE_COUNTS, MIP_MAP_EDGE_COUNTS_VERSION, Body);
}

// The edge-counts records of the module, each in its counters' COMDAT
// group when they have one.
std::string edgeCountsRecords(const Module &M, bool &Any) {
  std::string Asm;
  for (const GlobalVariable &GV : M.globals()) {
    std::optional<EdgeCountsOwner> Owner = edgeCountsOwner(GV);
    if (!Owner)
      continue;
    Any = true;
    Asm += sectionDirective(GV.getComdat());
    Asm += edgeCountsRecord(GV, *Owner);
    Asm += ".popsection\n";
  }
  return Asm;
}

} // namespace

void writeMap(Module &M, ArrayRef<InstrumentedFunction> Functions,
              ArrayRef<DataInfo> Data, uint32_t UnitFlags) {
  if (Functions.empty())
    return;
  bool EdgeCounts = false;
  std::string EdgeCountsAsm = edgeCountsRecords(M, EdgeCounts);
  std::string Asm = sectionDirective(nullptr);
  Asm += unitRecord(M, modesOf(Functions) |
                           (Data.empty() ? 0 : MIP_MODE_BIT(MIP_RAW_DATA)) |
                           (EdgeCounts ? MIP_MODE_BIT(MIP_RAW_BCNT) : 0),
                     UnitFlags);
  for (const InstrumentedFunction &IF : Functions)
    if (!IF.F->hasComdat())
      Asm += functionRecords(IF);
  for (const DataInfo &D : Data)
    Asm += dataRecord(M, D);
  Asm += ".popsection\n";
  for (const InstrumentedFunction &IF : Functions) {
    if (!IF.F->hasComdat())
      continue;
    Asm += sectionDirective(IF.F->getComdat());
    Asm += functionRecords(IF);
    Asm += ".popsection\n";
  }
  M.appendModuleInlineAsm(Asm + EdgeCountsAsm);
}

} // namespace mip

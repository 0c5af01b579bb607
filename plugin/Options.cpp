//===- Options.cpp - Parse the plugin's arguments -------------------------===//

#include "Options.h"

#include "Profile.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdio>

using namespace llvm;

namespace mip {

namespace {

Error unknownMode(StringRef Name) {
  return createStringError(
      inconvertibleErrorCode(),
      "unknown mode '" + Name +
          "' (known: coverage, counts, order, blocks, edges, all, heap, "
          "heap-allocs, data, atomic, all-blocks, block-counts)");
}

} // namespace

Expected<Modes> parseModes(StringRef List) {
  Modes M;
  bool CountsAccesses = false;
  SmallVector<StringRef, 8> Names;
  List.split(Names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Name : Names) {
    Name = Name.trim();
    if (Name == "coverage")
      continue;
    else if (Name == "counts")
      M.Counts = true;
    else if (Name == "order")
      M.Order = true;
    else if (Name == "blocks")
      M.Blocks = true;
    else if (Name == "edges")
      M.Edges = true;
    else if (Name == "heap")
      M.Heap = CountsAccesses = true;
    else if (Name == "heap-allocs")
      M.Heap = M.HeapAllocsOnly = true;
    else if (Name == "data")
      M.Data = true;
    else if (Name == "atomic")
      M.Atomic = true;
    else if (Name == "block-counts")
      M.BlockCounts = true;
    else if (Name == "all-blocks")
      M.Blocks = M.AllBlocks = true;
    else if (Name == "all") // not heap: see Modes::Heap
      M.Counts = M.Order = M.Blocks = M.Edges = true;
    else
      return unknownMode(Name);
  }
  // heap and heap-allocs together: heap, accesses counted.
  if (CountsAccesses)
    M.HeapAllocsOnly = false;
  // Edges are sampled off the call counter.
  if (M.Edges)
    M.Counts = true;
  return M;
}

namespace {

Error badArg(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

std::string shortest(double D) {
  char Buf[32];
  snprintf(Buf, sizeof Buf, "%g", D);
  return Buf;
}

// A number argument of -fmip-use's: at least Min, at most Max.
Error parseNumber(StringRef Key, StringRef Value, double Min, double Max,
                  double &Out) {
  double D;
  if (Value.getAsDouble(D) || !(D >= Min && D <= Max))
    return badArg(Key + "=" + Value + ": expected a number from " +
                  shortest(Min) + " to " + shortest(Max));
  Out = D;
  return Error::success();
}

// The flags of -fmip-use: the setting each one turns on.
bool *useFlag(UseSettings &Use, StringRef Key, bool &Value) {
  Value = !Key.consume_front("no-");
  if (Key == "list-stale")
    return &Use.ListStale;
  if (Key == "cold-minsize")
    return &Use.ColdMinSize;
  if (Key == "alloc-hints")
    return &Use.AllocHints;
  if (Key == "branch-weights")
    return &Use.BranchWeights;
  return nullptr;
}

// The numbers of -fmip-use: where each goes and its range.
struct NumberArg {
  const char *Key;
  double mip_decide_options::*Field;
  double Min, Max;
};

const NumberArg NumberArgs[] = {
#define MIP_DECIDE_SETTING(NAME, field, key, unit, def, min, max, help)       \
  {key, &mip_decide_options::field, min, max},
#include "mip/decide.inc"
#undef MIP_DECIDE_SETTING
};

// "hot-share=F, cold-max-density=F, ...": the numbers, for messages.
#define MIP_DECIDE_SETTING(NAME, field, key, unit, def, min, max, help)       \
  key "=" unit ", "
const char NumberArgNames[] =
#include "mip/decide.inc"
    ;
#undef MIP_DECIDE_SETTING

Error applyUseArg(UseSettings &Use, StringRef Key, StringRef Value,
                  bool HasValue, bool &Known) {
  Known = true;
  if (Key == "use") {
    if (Value.empty())
      return badArg("use= needs a profile file name");
    Use.File = Value.str();
    return Error::success();
  }
  for (const NumberArg &N : NumberArgs)
    if (Key == N.Key)
      return parseNumber(Key, Value, N.Min, N.Max, Use.Decide.*N.Field);
  bool On;
  if (bool *Flag = useFlag(Use, Key, On)) {
    if (HasValue)
      return badArg(Key + " takes no value");
    *Flag = On;
    return Error::success();
  }
  Known = false;
  return Error::success();
}

} // namespace

Error applyPluginArg(Options &Opts, StringRef Arg) {
  auto [Key, Value] = Arg.split('=');
  bool HasValue = Arg.contains('=');
  if (Key == "generate") {
    Expected<Modes> M = parseModes(Value);
    if (!M)
      return M.takeError();
    Opts.Generate = true;
    Opts.Generated = *M;
    return Error::success();
  }
  bool Known;
  if (Error E = applyUseArg(Opts.Use, Key, Value, HasValue, Known))
    return E;
  if (Known)
    return Error::success();
  return badArg("unknown argument '" + Arg +
                "' (expected generate[=MODES], use=FILE, " + NumberArgNames +
                "[no-]list-stale, [no-]cold-minsize, [no-]alloc-hints, "
                "[no-]branch-weights)");
}

Error openUseProfile(Options &Opts) {
  if (Opts.Use.File.empty())
    return Error::success();
  Expected<std::shared_ptr<const Profile>> P = Profile::open(Opts.Use.File);
  if (!P)
    return P.takeError();
  Opts.UseProfile = std::move(*P);
  return Error::success();
}

} // namespace mip

//===- Options.cpp - Parse the plugin's arguments -------------------------===//

#include "Options.h"

#include "llvm/ADT/SmallVector.h"

using namespace llvm;

namespace mip {

namespace {

Error unknownMode(StringRef Name) {
  return createStringError(
      inconvertibleErrorCode(),
      "unknown mode '" + Name +
          "' (known: coverage, counts, order, blocks, edges, all, heap, "
          "atomic, all-blocks)");
}

} // namespace

Expected<Modes> parseModes(StringRef List) {
  Modes M;
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
      M.Heap = true;
    else if (Name == "atomic")
      M.Atomic = true;
    else if (Name == "all-blocks")
      M.Blocks = M.AllBlocks = true;
    else if (Name == "all") // not heap: see Modes::Heap
      M.Counts = M.Order = M.Blocks = M.Edges = true;
    else
      return unknownMode(Name);
  }
  // Edges are sampled off the call counter.
  if (M.Edges)
    M.Counts = true;
  return M;
}

Error applyPluginArg(Options &Opts, StringRef Arg) {
  auto [Key, Value] = Arg.split('=');
  if (Key == "generate") {
    Expected<Modes> M = parseModes(Value);
    if (!M)
      return M.takeError();
    Opts.Generate = true;
    Opts.Generated = *M;
    return Error::success();
  }
  if (Key == "use") {
    if (Value.empty())
      return createStringError(inconvertibleErrorCode(),
                               "use= needs a profile file name");
    return createStringError(inconvertibleErrorCode(),
                             "use=FILE is not supported by this build");
  }
  return createStringError(inconvertibleErrorCode(),
                           "unknown argument '" + Arg +
                               "' (expected generate[=MODES] or use=FILE)");
}

} // namespace mip

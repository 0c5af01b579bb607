//===- Options.cpp - Parse the plugin's arguments -------------------------===//

#include "Options.h"

#include "mip/format.h"

#include "llvm/ADT/SmallVector.h"

using namespace llvm;

namespace mip {

Expected<uint64_t> parseModes(StringRef List) {
  uint64_t Modes = MIP_MODE_BIT(MIP_RAW_COV);
  SmallVector<StringRef, 8> Names;
  List.split(Names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Name : Names) {
    Name = Name.trim();
    if (Name == "coverage")
      continue;
    return createStringError(inconvertibleErrorCode(),
                             "unknown mode '" + Name +
                                 "' (this build knows: coverage)");
  }
  return Modes;
}

Error applyPluginArg(Options &Opts, StringRef Arg) {
  auto [Key, Value] = Arg.split('=');
  if (Key == "generate") {
    Expected<uint64_t> Modes = parseModes(Value);
    if (!Modes)
      return Modes.takeError();
    Opts.Generate = true;
    Opts.Modes = *Modes;
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

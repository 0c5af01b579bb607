//===- AsmRecord.h - Map records as assembler directives --------*- C++ -*-===//
//
// The map section is written as module-level assembly because only there
// can a plugin choose an ELF section's flags (non-allocated) and still use
// relocations (addresses the linker fills in). AsmRecord accumulates the
// directives of one record and counts its bytes, so the record header can
// carry the exact size.
//
//===----------------------------------------------------------------------===//
#ifndef MIP_PLUGIN_ASMRECORD_H
#define MIP_PLUGIN_ASMRECORD_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mip {

// A field value: a number, or a link-time reference to a symbol (plus
// Number bytes, e.g. one element of a counter array).
struct AsmValue {
  uint64_t Number = 0;
  std::string Symbol;

  AsmValue() = default;
  AsmValue(uint64_t N) : Number(N) {}
  static AsmValue symbol(std::string Name, uint64_t Offset = 0) {
    AsmValue V;
    V.Symbol = std::move(Name);
    V.Number = Offset;
    return V;
  }
};

class AsmRecord {
public:
  // AddrBytes: the target's pointer width. A symbol's address in an 8-byte
  // field of a 32-bit target is its 4 bytes and 4 zeros (little-endian),
  // since such a target has no 8-byte relocation.
  explicit AsmRecord(unsigned AddrBytes = 8) : AddrBytes(AddrBytes) {}
  void field(unsigned Bytes, const AsmValue &V);
  // Bytes of S, a NUL, nothing else.
  void cString(llvm::StringRef S);
  // Zero bytes up to the next multiple of 8.
  void padTo8();

  uint64_t size() const { return Size; }
  const std::string &text() const { return Text; }

private:
  std::string Text;
  uint64_t Size = 0;
  unsigned AddrBytes;
};

// A symbol name as the assembler must see it (quoted when it is not a
// plain identifier).
std::string asmSymbolName(llvm::StringRef Name);

} // namespace mip

#endif

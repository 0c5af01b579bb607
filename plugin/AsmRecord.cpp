//===- AsmRecord.cpp - Map records as assembler directives ---------------===//

#include "AsmRecord.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace mip {

namespace {

const char *directiveFor(unsigned Bytes) {
  switch (Bytes) {
  case 1:
    return ".byte";
  case 2:
    return ".short";
  case 4:
    return ".long";
  default:
    return ".quad";
  }
}

bool isPlainIdentifier(StringRef Name) {
  if (Name.empty() || isDigit(Name[0]))
    return false;
  return all_of(Name, [](char C) {
    return isAlnum(C) || C == '_' || C == '.' || C == '$';
  });
}

} // namespace

std::string asmSymbolName(StringRef Name) {
  if (isPlainIdentifier(Name))
    return Name.str();
  std::string Quoted = "\"";
  for (char C : Name) {
    if (C == '"' || C == '\\')
      Quoted += '\\';
    Quoted += C;
  }
  return Quoted + "\"";
}

void AsmRecord::field(unsigned Bytes, const AsmValue &V) {
  if (!V.Symbol.empty() && Bytes > AddrBytes) {
    field(AddrBytes, V);
    field(Bytes - AddrBytes, 0);
    return;
  }
  Text += directiveFor(Bytes);
  Text += ' ';
  if (V.Symbol.empty()) {
    Text += utostr(V.Number);
  } else {
    Text += asmSymbolName(V.Symbol);
    if (V.Number)
      Text += "+" + utostr(V.Number);
  }
  Text += '\n';
  Size += Bytes;
}

void AsmRecord::cString(StringRef S) {
  if (!S.empty()) {
    Text += ".ascii \"";
    for (unsigned char C : S) {
      if (C >= 0x20 && C < 0x7f && C != '"' && C != '\\') {
        Text += static_cast<char>(C);
      } else {
        Text += '\\';
        Text += static_cast<char>('0' + ((C >> 6) & 7));
        Text += static_cast<char>('0' + ((C >> 3) & 7));
        Text += static_cast<char>('0' + (C & 7));
      }
    }
    Text += "\"\n";
  }
  Text += ".byte 0\n";
  Size += S.size() + 1;
}

void AsmRecord::padTo8() {
  uint64_t Pad = (8 - Size % 8) % 8;
  if (Pad) {
    Text += ".zero " + utostr(Pad) + "\n";
    Size += Pad;
  }
}

} // namespace mip

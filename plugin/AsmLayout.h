//===- AsmLayout.h - Record fields from the shared layouts ------*- C++ -*-===//
//
// Generates, from one mip/layout/*.inc field list, a struct of AsmValue
// fields and a function that appends them, in order and at their width, to
// an AsmRecord. The readers in lib/ decode the same list, so writer and
// reader cannot disagree. Include once per layout with MIP_ASM_LAYOUT_NAME
// and MIP_ASM_LAYOUT_FILE defined (no include guard on purpose).
//
//===----------------------------------------------------------------------===//
#include "AsmRecord.h"

namespace mip {

struct MIP_ASM_LAYOUT_NAME {
#define MIP_U16(n) AsmValue n;
#define MIP_U32(n) AsmValue n;
#define MIP_U64(n) AsmValue n;
#include MIP_ASM_LAYOUT_FILE
#undef MIP_U16
#undef MIP_U32
#undef MIP_U64
};

inline void appendFields(AsmRecord &R, const MIP_ASM_LAYOUT_NAME &V) {
#define MIP_U16(n) R.field(2, V.n);
#define MIP_U32(n) R.field(4, V.n);
#define MIP_U64(n) R.field(8, V.n);
#include MIP_ASM_LAYOUT_FILE
#undef MIP_U16
#undef MIP_U32
#undef MIP_U64
}

} // namespace mip

#undef MIP_ASM_LAYOUT_NAME
#undef MIP_ASM_LAYOUT_FILE

// pld_runtime/scalar.h: integer scalar semantics of generated orchestration code.
//
// Every integer scalar (`i1`..`i64`, `index`) of a CHIP orchestration body is an int64_t local.
// An iN value with N < 64 is kept sign-extended from N bits after every op (so an i1 `true` is
// -1, as MLIR's two's-complement reading of the bit pattern 1); an unsigned op acts on its N-bit
// zero extension. Arithmetic wraps modulo 2^N like MLIR's `arith` (no C++ signed overflow).
// `index` is 64 bits.
#ifndef PLD_RUNTIME_SCALAR_H
#define PLD_RUNTIME_SCALAR_H

#include <cstdint>

namespace pld {
namespace rt {

#include "pld_runtime/scalar_semantics.inc"

}  // namespace rt
}  // namespace pld

#endif  // PLD_RUNTIME_SCALAR_H

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

// The low `bits` bits of v, sign-extended (bits in 1..64).
inline int64_t sext(uint64_t v, int bits) {
  if (bits >= 64) return static_cast<int64_t>(v);
  const int s = 64 - bits;
  return static_cast<int64_t>(v << s) >> s;
}
// The low `bits` bits of v, zero-extended (bits in 1..64).
inline uint64_t zext(int64_t v, int bits) {
  if (bits >= 64) return static_cast<uint64_t>(v);
  return static_cast<uint64_t>(v) & ((uint64_t{1} << bits) - 1);
}

inline int64_t add(int64_t a, int64_t b, int bits) { return sext(uint64_t(a) + uint64_t(b), bits); }
inline int64_t sub(int64_t a, int64_t b, int bits) { return sext(uint64_t(a) - uint64_t(b), bits); }
inline int64_t mul(int64_t a, int64_t b, int bits) { return sext(uint64_t(a) * uint64_t(b), bits); }
// Signed division / remainder, truncating toward zero; b != 0 (generated code checks first).
// The one overflowing case, INT_MIN(N) / -1, wraps to INT_MIN(N) (remainder 0).
inline int64_t divs(int64_t a, int64_t b, int bits) {
  if (b == -1) return sext(uint64_t{0} - uint64_t(a), bits);
  return sext(uint64_t(a / b), bits);
}
inline int64_t rems(int64_t a, int64_t b, int bits) {
  if (b == -1) return 0;
  return sext(uint64_t(a % b), bits);
}
inline int64_t divu(int64_t a, int64_t b, int bits) { return sext(zext(a, bits) / zext(b, bits), bits); }
inline int64_t remu(int64_t a, int64_t b, int bits) { return sext(zext(a, bits) % zext(b, bits), bits); }
inline int64_t band(int64_t a, int64_t b, int bits) { return sext(uint64_t(a) & uint64_t(b), bits); }
inline int64_t bor(int64_t a, int64_t b, int bits) { return sext(uint64_t(a) | uint64_t(b), bits); }
inline int64_t bxor(int64_t a, int64_t b, int bits) { return sext(uint64_t(a) ^ uint64_t(b), bits); }
// Shifts by the zero-extended amount; an amount >= N gives 0 (shli, shrui) or the sign fill
// (shrsi), where MLIR leaves the result poison.
inline int64_t shl(int64_t a, int64_t b, int bits) {
  const uint64_t n = zext(b, bits);
  return n >= uint64_t(bits) ? 0 : sext(uint64_t(a) << n, bits);
}
inline int64_t shrs(int64_t a, int64_t b, int bits) {
  const uint64_t n = zext(b, bits);
  return n >= uint64_t(bits) ? (a < 0 ? -1 : 0) : (a >> n);
}
inline int64_t shru(int64_t a, int64_t b, int bits) {
  const uint64_t n = zext(b, bits);
  return n >= uint64_t(bits) ? 0 : sext(zext(a, bits) >> n, bits);
}
inline int64_t mins(int64_t a, int64_t b) { return a < b ? a : b; }
inline int64_t maxs(int64_t a, int64_t b) { return a < b ? b : a; }
inline int64_t minu(int64_t a, int64_t b, int bits) { return zext(a, bits) < zext(b, bits) ? a : b; }
inline int64_t maxu(int64_t a, int64_t b, int bits) { return zext(a, bits) < zext(b, bits) ? b : a; }
// An i1 from a C++ condition: -1 (true) or 0.
inline int64_t from_bool(bool c) { return c ? -1 : 0; }

}  // namespace rt
}  // namespace pld

#endif  // PLD_RUNTIME_SCALAR_H

// pld_runtime/half.h: a software IEEE 754 binary16 `half` for the CPU build of the kernels.
//
// Kernel templates rendered with dtype_cpp = half say `using Elem = half;`. The device toolchain
// has a native global `half`; g++ 12 has no C++ `_Float16`, so the CPU build gets this storage type:
// 16 bits (sign, 5-bit exponent, 10-bit mantissa), an exact half -> float conversion and a
// float -> half conversion that rounds to nearest, ties to even (overflow -> infinity, NaN stays a
// quiet NaN with the sign kept, subnormals both ways). No arithmetic: kernels widen to float, work
// there and round once when they store.
//
// A build whose compiler supplies its own `half` defines PLD_NATIVE_HALF and this header is empty.
#ifndef PLD_RUNTIME_HALF_H
#define PLD_RUNTIME_HALF_H

#ifndef PLD_NATIVE_HALF

#include <cstdint>
#include <cstring>

namespace pld {
namespace half_detail {

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// binary16 bits -> binary32 value (exact: every half is a float).
inline float to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1Fu;
  uint32_t man = h & 0x3FFu;
  if (exp == 0x1Fu) return bits_float(sign | 0x7F800000u | (man << 13));  // inf / NaN
  if (exp != 0) return bits_float(sign | ((exp + 112u) << 23) | (man << 13));
  if (man == 0) return bits_float(sign);  // +-0
  // Subnormal: man * 2^-24, normalised into a float.
  uint32_t e = 113;  // exponent field of 2^-14
  while ((man & 0x400u) == 0) {
    man <<= 1;
    --e;
  }
  return bits_float(sign | (e << 23) | ((man & 0x3FFu) << 13));
}

// binary32 value -> binary16 bits, round to nearest, ties to even.
inline uint16_t from_float(float f) {
  const uint32_t u = float_bits(f);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  const uint32_t exp = (u >> 23) & 0xFFu;
  const uint32_t man = u & 0x7FFFFFu;
  if (exp == 0xFFu) {  // inf / NaN (NaN keeps its top payload bits and stays quiet)
    return static_cast<uint16_t>(sign | 0x7C00u | (man ? 0x200u | (man >> 13) : 0u));
  }
  const int32_t e = static_cast<int32_t>(exp) - 127;  // unbiased exponent
  if (e > 15) return static_cast<uint16_t>(sign | 0x7C00u);  // overflow -> inf
  uint32_t full;   // significand with its implicit bit
  int32_t shift;   // right shift that leaves the half's mantissa field (or subnormal value)
  uint16_t hexp;   // the half's biased exponent before rounding
  if (e >= -14) {  // normal half
    full = man | 0x800000u;
    shift = 13;
    hexp = static_cast<uint16_t>(e + 15);
  } else {  // subnormal half (or underflow to zero): value = full * 2^(e-23) = m * 2^-24
    if (e < -25) return sign;  // below half the smallest subnormal: rounds to 0
    full = exp == 0 ? man : (man | 0x800000u);
    shift = 13 + (-14 - e);
    hexp = 0;
  }
  uint32_t m = full >> shift;
  const uint32_t rem = full & ((1u << shift) - 1u);
  const uint32_t halfway = 1u << (shift - 1);
  if (rem > halfway || (rem == halfway && (m & 1u))) ++m;
  // For normals m includes the implicit bit (0x400); a carry out of the mantissa bumps the
  // exponent, and exponent 31 is infinity, which the addition produces naturally.
  if (hexp != 0) {
    return static_cast<uint16_t>(sign | ((static_cast<uint32_t>(hexp) << 10) + (m - 0x400u)));
  }
  return static_cast<uint16_t>(sign | m);  // m == 0x400 is the smallest normal: still correct
}

}  // namespace half_detail
}  // namespace pld

// Global, like the device toolchain's type. Trivially copyable, 2 bytes, no arithmetic.
struct half {
  uint16_t bits;

  half() = default;
  explicit half(float f) : bits(pld::half_detail::from_float(f)) {}
  explicit operator float() const { return pld::half_detail::to_float(bits); }

  static half from_bits(uint16_t b) {
    half h;
    h.bits = b;
    return h;
  }
};
static_assert(sizeof(half) == 2, "half must be 2 bytes");

#endif  // PLD_NATIVE_HALF

#endif  // PLD_RUNTIME_HALF_H

// pto/comm/comm_types.hpp (pld's CPU runtime): signals and their operations, as pto-isa@cd4a3d3
// names them (docs/spec/device.md). A signal is an int32 cell of global memory (a window), viewed
// as a one-element GlobalTensor.
#ifndef PLD_DEVICE_PTO_COMM_TYPES_HPP
#define PLD_DEVICE_PTO_COMM_TYPES_HPP

#include <cstdint>

#include <pto/pto-inst.hpp>

namespace pto {
namespace comm {

enum class NotifyOp : uint8_t { AtomicAdd = 0, Set = 1 };
enum class WaitCmp : uint8_t { EQ = 0, NE = 1, GT = 2, GE = 3, LT = 4, LE = 5 };

using Signal = GlobalTensor<int32_t, Shape<1, 1, 1, 1, 1>, Stride<1, 1, 1, 1, 1>, Layout::ND>;

}  // namespace comm
}  // namespace pto

#endif  // PLD_DEVICE_PTO_COMM_TYPES_HPP

//===- TensorLike.h - what !pl.tensor and !pld.dtensor share --------------===//
#ifndef PLD_TENSORLIKE_H
#define PLD_TENSORLIKE_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <string>

namespace pld {

/// Memory layout of a tensor (PyPTO's TensorLayout).
enum class Layout : uint32_t { ND = 0, DN = 1, NZ = 2 };

llvm::StringRef stringifyLayout(Layout layout);
std::optional<Layout> symbolizeLayout(llvm::StringRef text);

/// A read-only view of the parameters both tensor types carry.
struct TensorLikeInfo {
  bool ranked;
  llvm::ArrayRef<int64_t> shape;
  mlir::Type elementType;
  Layout layout;
  llvm::ArrayRef<int64_t> valid;   // empty: the valid_shape is the shape
  llvm::ArrayRef<int64_t> strides; // empty: packed row-major

  bool hasStaticShape() const {
    return ranked && llvm::none_of(shape, mlir::ShapedType::isDynamic);
  }
  /// Packed row-major strides of `shape`, `kDynamic` where a trailing dim is dynamic.
  llvm::SmallVector<int64_t> packedStrides() const;
  /// True when `strides` is present and differs from packed at a position
  /// where packed is known.
  bool stridesProvablyNotPacked() const;
  /// True when `valid` is present and narrower than the shape somewhere.
  bool validProvablyNarrower() const;
  /// The extents a runtime descriptor of this type has: the valid_shape (the
  /// runtime carries no separate valid shape; set_validshape narrows the
  /// descriptor's shape), which is the shape unless the type narrows it.
  llvm::ArrayRef<int64_t> extents() const { return valid.empty() ? shape : valid; }
};

/// `[8, ?, 2]`: dims as diagnostics print them.
std::string formatDims(llvm::ArrayRef<int64_t> dims);

/// True for !pl.tensor and !pld.dtensor.
bool isTensorLike(mlir::Type type);
/// The parameters of a !pl.tensor or !pld.dtensor; std::nullopt otherwise.
std::optional<TensorLikeInfo> getTensorLikeInfo(mlir::Type type);

namespace detail {
/// Shared parser/printer/verifier for both types. `parse` yields the
/// normalized parameters through `build`.
struct TensorLikeParams {
  bool ranked = true;
  llvm::SmallVector<int64_t> shape;
  mlir::Type elementType;
  Layout layout = Layout::ND;
  llvm::SmallVector<int64_t> valid;
  llvm::SmallVector<int64_t> strides;
};
/// `typeName` (`!pl.tensor` / `!pld.dtensor`) is the subject every
/// diagnostic starts with (docs/diagnostics.md).
mlir::LogicalResult parseTensorLike(mlir::AsmParser &parser,
                                    TensorLikeParams &params,
                                    llvm::StringRef typeName);
void printTensorLike(mlir::AsmPrinter &printer, const TensorLikeInfo &info);
mlir::LogicalResult
verifyTensorLike(llvm::function_ref<mlir::InFlightDiagnostic()> emitError,
                 const TensorLikeInfo &info, llvm::StringRef typeName);
/// Drops parameters equal to their defaults.
void normalizeTensorLike(TensorLikeParams &params);
} // namespace detail
} // namespace pld

#endif // PLD_TENSORLIKE_H

//===- TensorTypeBase.td - parameters shared by !pl.tensor / !pld.dtensor -===//

#ifndef PLD_TENSORTYPEBASE_TD
#define PLD_TENSORTYPEBASE_TD

include "mlir/IR/AttrTypeBase.td"

// Both tensor types carry the same parameters and share one parser, printer
// and verifier (TensorLike.cpp). Defaults are normalized away when a type is
// built through `getNormalized`, so `layout = nd`, a `valid` equal to the
// shape and packed row-major `strides` are stored (and printed) as absent.
class PlTensorLikeType<Dialect dialect, string name, string typeMnemonic,
                       string doc>
    : TypeDef<dialect, name> {
  let mnemonic = typeMnemonic;
  let parameters = (ins
    "bool":$ranked,
    OptionalArrayRefParameter<"int64_t">:$shape,
    "::mlir::Type":$elementType,
    "::pld::Layout":$layout,
    OptionalArrayRefParameter<"int64_t">:$valid,
    OptionalArrayRefParameter<"int64_t">:$strides
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Builds the type with its defaults normalized away (the only builder
    /// the parser and the passes use).
    static }] # name # [{Type  getNormalized(::mlir::Type elementType, bool ranked,
        ::llvm::ArrayRef<int64_t> shape, ::pld::Layout layout = ::pld::Layout::ND,
        ::llvm::ArrayRef<int64_t> valid = {}, ::llvm::ArrayRef<int64_t> strides = {});
    static }] # name # [{Type  getNormalizedChecked(
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError,
        ::mlir::Type elementType, bool ranked, ::llvm::ArrayRef<int64_t> shape,
        ::pld::Layout layout, ::llvm::ArrayRef<int64_t> valid,
        ::llvm::ArrayRef<int64_t> strides);
    ::pld::TensorLikeInfo getInfo() const {
      return {getRanked(), getShape(), getElementType(), getLayout(), getValid(),
              getStrides()};
    }
  }];
  let description = doc # [{

    Syntax: `<shape x element-type [, layout = nd|dn|nz] [, valid = [d, ...]]
    [, strides = [s, ...]]>`. Shape dims are integers or `?`; `*x` makes the
    type unranked. `valid` (the valid_shape) and `strides` need a ranked shape
    of the same rank and `valid` may not exceed the shape. Element types are
    `f32`, `f16`, `bf16`, `i8`, `i32` and `i64`.
  }];
}

#endif // PLD_TENSORTYPEBASE_TD

// Type parameter errors of !pl.tensor / !pld.dtensor, one per rule.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

// A layout keyword other than nd, dn, nz.
// expected-error@+1 {{'!pl.tensor' parameter 'layout' must be nd, dn or nz, got zz}}
func.func @f(%a: !pl.tensor<4x4xf32, layout = zz>)

// -----

// An unknown keyword parameter.
// expected-error@+1 {{'!pld.dtensor' parameter 'stride' is unknown (expected layout, valid or strides)}}
func.func @f(%a: !pld.dtensor<4x4xf32, stride = [4, 1]>)

// -----

// Keyword parameters out of the documented order.
// expected-error@+1 {{'!pl.tensor' parameter 'valid' is repeated or out of order (layout, valid, strides)}}
func.func @f(%a: !pl.tensor<4x4xf32, strides = [4, 1], valid = [4, 4]>)

// -----

// A keyword parameter given twice.
// expected-error@+1 {{'!pl.tensor' parameter 'layout' is repeated or out of order (layout, valid, strides)}}
func.func @f(%a: !pl.tensor<4x4xf32, layout = dn, layout = dn>)

// -----

// valid on an unranked type.
// expected-error@+1 {{'valid' needs a ranked shape}}
func.func @f(%a: !pld.dtensor<*xf32, valid = [4]>)

// -----

// strides on an unranked type.
// expected-error@+1 {{'strides' needs a ranked shape}}
func.func @f(%a: !pl.tensor<*xf32, strides = [1]>)

// -----

// valid of another rank than the shape.
// expected-error@+1 {{'valid' has 1 entries but the shape has rank 2}}
func.func @f(%a: !pl.tensor<4x4xf32, valid = [4]>)

// -----

// An empty valid list is a rank mismatch too (it is not "absent").
// expected-error@+1 {{'valid' has 0 entries but the shape has rank 2}}
func.func @f(%a: !pl.tensor<4x4xf32, valid = []>)

// -----

// strides of another rank than the shape.
// expected-error@+1 {{'strides' has 3 entries but the shape has rank 2}}
func.func @f(%a: !pld.dtensor<4x4xf32, strides = [16, 4, 1]>)

// -----

// valid exceeding the shape.
// expected-error@+1 {{'valid' may not exceed the shape: dimension 1 has valid 5 > 4}}
func.func @f(%a: !pld.dtensor<4x4xf32, valid = [4, 5]>)

// -----

// A negative valid entry.
// expected-error@+1 {{'valid' entries must be >= 0 or '?', got -1}}
func.func @f(%a: !pl.tensor<4x4xf32, valid = [-1, 4]>)

// -----

// A negative stride.
// expected-error@+1 {{'strides' entries must be >= 0 or '?', got -4}}
func.func @f(%a: !pl.tensor<4x4xf32, strides = [-4, 1]>)

// -----

// An element type outside f32, f16, bf16, i8, i32, i64.
// expected-error@+1 {{element type must be f32, f16, bf16, i8, i32 or i64, got 'f64'}}
func.func @f(%a: !pl.tensor<4xf64>)

// -----

// i1 is not an element type either (also not for a window).
// expected-error@+1 {{element type must be f32, f16, bf16, i8, i32 or i64, got 'i1'}}
func.func @f(%a: !pld.dtensor<4x4xi1>)

// -----

// A tensor type is not an element type.
// expected-error@+1 {{element type must be f32, f16, bf16, i8, i32 or i64, got '!pl.tensor<4xf32>'}}
func.func @f(%a: !pld.dtensor<4x!pl.tensor<4xf32>>)

// -----

// A static shape whose element count does not fit int64.
// expected-error@+1 {{shape has more elements than fit in int64}}
func.func @f(%a: !pld.dtensor<9223372036854775807x2xf32>)

// -----

// A dimension that is not an integer or `?`.
// expected-error@+1 {{invalid dimension}}
func.func @f(%a: !pl.tensor<99999999999999999999x4xf32>)

// -----

// A missing element type.
// expected-error@+1 {{expected non-function type}}
func.func @f(%a: !pl.tensor<4x>)

// -----

// The tensor types need their parameters.
// expected-error@+1 {{expected '<'}}
func.func @f(%a: !pld.dtensor)

// -----

// INT64_MIN is not a stride (it would read back as `?`).
// expected-error@+1 {{'strides' entries must be >= 0 or '?', got -9223372036854775808}}
func.func @f(%a: !pl.tensor<4x4xf32, strides = [-9223372036854775808, 1]>)

// -----

// !pld.comm_ctx takes no parameters.
// expected-error@+1 {{'!pld.comm_ctx' takes no parameters}}
func.func @f(%a: !pld.comm_ctx<4>)

// -----

// !pld.window_buffer takes no parameters.
// expected-error@+1 {{'!pld.window_buffer' takes no parameters}}
func.func @f(%a: !pld.window_buffer<>)

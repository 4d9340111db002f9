// Micro-batching over the leading dimension: P = 2 ranks, each with M = 3
// micro-batches of mb = P * R = 4 rows (R = 2 rows per peer) of H = 3 f32,
// so x and y are [M * mb, H] = 12x3 and the exchange windows [P * R, H] = 4x3.
//
//   @pl.function(type=pl.FunctionType.Orchestration)
//   def micro_batches(self, x, y, stage, recv, signal, send_counts, recv_counts):
//       for i in range(M):                                   # an scf.for, not unrolled
//           xs = x[i * mb : (i + 1) * mb, :]                 # pl.tensor.slice, SSA offsets
//           stage, send_counts = self.mb_pack(xs, stage, send_counts)
//           recv = pld.all_to_all_v(stage, recv, signal, send_counts, recv_counts, core_num=2)
//           part = self.mb_unpack(recv, recv_counts, pl.create([mb, H], f32))
//           y[i * mb : (i + 1) * mb, :] = part               # pl.tensor.assemble into a slice of y
//
// Per micro-batch, on rank r (kernels in runtime/examples/kernels/mb_*.cpp):
//   pack   : the rows [q * R, (q + 1) * R) of the micro-batch are for peer q; the rows whose
//            int(first element) is not a multiple of 3 are packed to the front of chunk q of
//            the stage window, send_counts[q] = how many;
//   unpack : rows [q * R, q * R + recv_counts[q]) of the micro-batch's result are 2 * x + 1 of
//            what peer q sent; the rest stay 0 (pl.tensor.create is zero-filled, and the
//            buffer is fresh every iteration);
// so y_r[i * mb + q * R + k] = 2 * (k-th kept row of x_q[i * mb + r * R ..]) + 1, else 0.
//
//   pld-opt --pld-lower-collectives examples/micro_batches.mlir \
//     | pld-translate --pld-to-ascend-build --output-dir build --kernel-source-dir runtime/examples
//
// tests/examples.rs builds and runs it for P = 2 and, with the P-dependent shapes (12x3, 4x3,
// sizes, 2x4, 2xi32, %mb) rewritten, for P = 4, against an independent golden.

func.func private @mb_pack(%xs: !pl.tensor<4x3xf32> {pl.direction = "in"},
                           %stage: !pld.dtensor<4x3xf32> {pl.direction = "out"},
                           %send_counts: !pld.dtensor<2xi32> {pl.direction = "out"})
    -> (!pld.dtensor<4x3xf32>, !pld.dtensor<2xi32>)
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/mb_pack.cpp"} {
  return %stage, %send_counts : !pld.dtensor<4x3xf32>, !pld.dtensor<2xi32>
}

func.func private @mb_unpack(%recv: !pld.dtensor<4x3xf32> {pl.direction = "in"},
                             %recv_counts: !pld.dtensor<2xi32> {pl.direction = "in"},
                             %part: !pl.tensor<4x3xf32> {pl.direction = "out"}) -> !pl.tensor<4x3xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/mb_unpack.cpp"} {
  return %part : !pl.tensor<4x3xf32>
}

func.func @micro_batches(%x: !pl.tensor<12x3xf32>, %y: !pl.tensor<12x3xf32>,
                         %stage: !pld.dtensor<4x3xf32>, %recv: !pld.dtensor<4x3xf32>,
                         %signal: !pld.dtensor<2x4xi32>, %send_counts: !pld.dtensor<2xi32>,
                         %recv_counts: !pld.dtensor<2xi32>)
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %num_micro = arith.constant 3 : index
  %mb = arith.constant 4 : index
  scf.for %i = %c0 to %num_micro step %c1 {
    %row = arith.muli %i, %mb : index
    // Rows [i * mb, (i + 1) * mb) of x: a descriptor into x, no copy.
    %xs = pl.tensor.slice %x[%row, %c0] {sizes = array<i64: 4, 3>}
        : (!pl.tensor<12x3xf32>, index, index) -> !pl.tensor<4x3xf32>
    %staged, %sent = func.call @mb_pack(%xs, %stage, %send_counts)
        : (!pl.tensor<4x3xf32>, !pld.dtensor<4x3xf32>, !pld.dtensor<2xi32>) -> (!pld.dtensor<4x3xf32>, !pld.dtensor<2xi32>)
    %got = pld.tensor.all_to_all_v %staged, %recv, %signal, %sent, %recv_counts {core_num = 2 : i64}
        : !pld.dtensor<4x3xf32>, !pld.dtensor<4x3xf32>, !pld.dtensor<2x4xi32>,
          !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<4x3xf32>
    // A fresh zero-filled buffer per micro-batch, for the kernel's result.
    %buf = pl.tensor.create : !pl.tensor<4x3xf32>
    %part = func.call @mb_unpack(%got, %recv_counts, %buf)
        : (!pld.dtensor<4x3xf32>, !pld.dtensor<2xi32>, !pl.tensor<4x3xf32>) -> !pl.tensor<4x3xf32>
    // Written back into the same rows of y, through a slice of y.
    %ys = pl.tensor.slice %y[%row, %c0] {sizes = array<i64: 4, 3>}
        : (!pl.tensor<12x3xf32>, index, index) -> !pl.tensor<4x3xf32>
    %written = pl.tensor.assemble %part into %ys {offsets = array<i64: 0, 0>}
        : !pl.tensor<4x3xf32> into !pl.tensor<4x3xf32>
  }
  return
}

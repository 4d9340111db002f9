// pld-reduce's worked example (docs/reducing.md): twelve CHIP layers, each
// stage -> all_to_all_v -> a loop of allreduces -> consume. One layer feeds
// the all_to_all_v a transposed view, which --lower-l2-tensor-collectives
// rejects: operand 'input' is not provably contiguous.

func.func private @stage_step(%inp: !pl.tensor<16x4xf32> {pl.direction = "in"},
                              %stage: !pld.dtensor<16x4xf32> {pl.direction = "out"},
                              %counts: !pld.dtensor<2xi32> {pl.direction = "out"})
    -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/stage_step.cpp"} {
  return %stage, %counts : !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>
}

func.func private @consume_step(%data: !pld.dtensor<16x4xf32> {pl.direction = "in"},
                                %recv: !pld.dtensor<2xi32> {pl.direction = "in"},
                                %out: !pl.tensor<16x4xf32> {pl.direction = "out"})
    -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/consume_step.cpp"} {
  return %out : !pl.tensor<16x4xf32>
}

func.func @layer_0(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>,
                 %stage: !pld.dtensor<16x4xf32>, %data: !pld.dtensor<16x4xf32>,
                 %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                 %recv: !pld.dtensor<2xi32>, %acc: !pld.dtensor<64x128xf32>,
                 %sig: !pld.dtensor<4x2xi32>, %wide: !pld.dtensor<4x16xf32>, %n: index)
    -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %staged, %sent = call @stage_step(%inp, %stage, %counts)
      : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
      -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
  %received = pld.tensor.all_to_all_v %staged, %data, %signal, %sent, %recv {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %acc) -> !pld.dtensor<64x128xf32> {
    %r = pld.tensor.allreduce %cur, %sig {reduce = "sum", core_num = 2 : i64}
        : !pld.dtensor<64x128xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<64x128xf32>
    scf.yield %r : !pld.dtensor<64x128xf32>
  }
  %result = call @consume_step(%received, %recv, %out)
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return %result : !pl.tensor<16x4xf32>
}

func.func @layer_1(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>,
                 %stage: !pld.dtensor<16x4xf32>, %data: !pld.dtensor<16x4xf32>,
                 %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                 %recv: !pld.dtensor<2xi32>, %acc: !pld.dtensor<64x128xf32>,
                 %sig: !pld.dtensor<4x2xi32>, %wide: !pld.dtensor<4x16xf32>, %n: index)
    -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %staged, %sent = call @stage_step(%inp, %stage, %counts)
      : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
      -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
  %received = pld.tensor.all_to_all_v %staged, %data, %signal, %sent, %recv {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %acc) -> !pld.dtensor<64x128xf32> {
    %r = pld.tensor.allreduce %cur, %sig {reduce = "sum", core_num = 2 : i64}
        : !pld.dtensor<64x128xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<64x128xf32>
    scf.yield %r : !pld.dtensor<64x128xf32>
  }
  %result = call @consume_step(%received, %recv, %out)
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return %result : !pl.tensor<16x4xf32>
}

func.func @layer_2(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>,
                 %stage: !pld.dtensor<16x4xf32>, %data: !pld.dtensor<16x4xf32>,
                 %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                 %recv: !pld.dtensor<2xi32>, %acc: !pld.dtensor<64x128xf32>,
                 %sig: !pld.dtensor<4x2xi32>, %wide: !pld.dtensor<4x16xf32>, %n: index)
    -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %staged, %sent = call @stage_step(%inp, %stage, %counts)
      : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
      -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
  %received = pld.tensor.all_to_all_v %staged, %data, %signal, %sent, %recv {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %acc) -> !pld.dtensor<64x128xf32> {
    %r = pld.tensor.allreduce %cur, %sig {reduce = "sum", core_num = 2 : i64}
        : !pld.dtensor<64x128xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<64x128xf32>
    scf.yield %r : !pld.dtensor<64x128xf32>
  }
  %result = call @consume_step(%received, %recv, %out)
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return %result : !pl.tensor<16x4xf32>
}

func.func @layer_3(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>,
                 %stage: !pld.dtensor<16x4xf32>, %data: !pld.dtensor<16x4xf32>,
                 %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                 %recv: !pld.dtensor<2xi32>, %acc: !pld.dtensor<64x128xf32>,
                 %sig: !pld.dtensor<4x2xi32>, %wide: !pld.dtensor<4x16xf32>, %n: index)
    -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %staged, %sent = call @stage_step(%inp, %stage, %counts)
      : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
      -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
  %received = pld.tensor.all_to_all_v %staged, %data, %signal, %sent, %recv {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %acc) -> !pld.dtensor<64x128xf32> {
    %r = pld.tensor.allreduce %cur, %sig {reduce = "sum", core_num = 2 : i64}
        : !pld.dtensor<64x128xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<64x128xf32>
    scf.yield %r : !pld.dtensor<64x128xf32>
  }
  %result = call @consume_step(%received, %recv, %out)
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return %result : !pl.tensor<16x4xf32>
}

func.func @layer_4(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>,
                 %stage: !pld.dtensor<16x4xf32>, %data: !pld.dtensor<16x4xf32>,
                 %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                 %recv: !pld.dtensor<2xi32>, %acc: !pld.dtensor<64x128xf32>,
                 %sig: !pld.dtensor<4x2xi32>, %wide: !pld.dtensor<4x16xf32>, %n: index)
    -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %staged, %sent = call @stage_step(%inp, %stage, %counts)
      : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
      -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
  %received = pld.tensor.all_to_all_v %staged, %data, %signal, %sent, %recv {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %acc) -> !pld.dtensor<64x128xf32> {
    %r = pld.tensor.allreduce %cur, %sig {reduce = "sum", core_num = 2 : i64}
        : !pld.dtensor<64x128xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<64x128xf32>
    scf.yield %r : !pld.dtensor<64x128xf32>
  }
  %result = call @consume_step(%received, %recv, %out)
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return %result : !pl.tensor<16x4xf32>
}

func.func @layer_5(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>,
                 %stage: !pld.dtensor<16x4xf32>, %data: !pld.dtensor<16x4xf32>,
                 %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                 %recv: !pld.dtensor<2xi32>, %acc: !pld.dtensor<64x128xf32>,
                 %sig: !pld.dtensor<4x2xi32>, %wide: !pld.dtensor<4x16xf32>, %n: index)
    -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %staged, %sent = call @stage_step(%inp, %stage, %counts)
      : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
      -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
  %received = pld.tensor.all_to_all_v %staged, %data, %signal, %sent, %recv {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %acc) -> !pld.dtensor<64x128xf32> {
    %r = pld.tensor.allreduce %cur, %sig {reduce = "sum", core_num = 2 : i64}
        : !pld.dtensor<64x128xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<64x128xf32>
    scf.yield %r : !pld.dtensor<64x128xf32>
  }
  %result = call @consume_step(%received, %recv, %out)
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return %result : !pl.tensor<16x4xf32>
}

func.func @layer_6(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>,
                 %stage: !pld.dtensor<16x4xf32>, %data: !pld.dtensor<16x4xf32>,
                 %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                 %recv: !pld.dtensor<2xi32>, %acc: !pld.dtensor<64x128xf32>,
                 %sig: !pld.dtensor<4x2xi32>, %wide: !pld.dtensor<4x16xf32>, %n: index)
    -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %staged, %sent = call @stage_step(%inp, %stage, %counts)
      : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
      -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
  %received = pld.tensor.all_to_all_v %staged, %data, %signal, %sent, %recv {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %acc) -> !pld.dtensor<64x128xf32> {
    %r = pld.tensor.allreduce %cur, %sig {reduce = "sum", core_num = 2 : i64}
        : !pld.dtensor<64x128xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<64x128xf32>
    scf.yield %r : !pld.dtensor<64x128xf32>
  }
  %result = call @consume_step(%received, %recv, %out)
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return %result : !pl.tensor<16x4xf32>
}

func.func @layer_7(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>,
                 %stage: !pld.dtensor<16x4xf32>, %data: !pld.dtensor<16x4xf32>,
                 %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                 %recv: !pld.dtensor<2xi32>, %acc: !pld.dtensor<64x128xf32>,
                 %sig: !pld.dtensor<4x2xi32>, %wide: !pld.dtensor<4x16xf32>, %n: index)
    -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %staged, %sent = call @stage_step(%inp, %stage, %counts)
      : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
      -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
  %packed = pl.tensor.transpose %wide {perm = array<i64: 1, 0>}
      : !pld.dtensor<4x16xf32> -> !pld.dtensor<16x4xf32>
  %received = pld.tensor.all_to_all_v %packed, %data, %signal, %sent, %recv {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %acc) -> !pld.dtensor<64x128xf32> {
    %r = pld.tensor.allreduce %cur, %sig {reduce = "sum", core_num = 2 : i64}
        : !pld.dtensor<64x128xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<64x128xf32>
    scf.yield %r : !pld.dtensor<64x128xf32>
  }
  %result = call @consume_step(%received, %recv, %out)
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return %result : !pl.tensor<16x4xf32>
}

func.func @layer_8(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>,
                 %stage: !pld.dtensor<16x4xf32>, %data: !pld.dtensor<16x4xf32>,
                 %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                 %recv: !pld.dtensor<2xi32>, %acc: !pld.dtensor<64x128xf32>,
                 %sig: !pld.dtensor<4x2xi32>, %wide: !pld.dtensor<4x16xf32>, %n: index)
    -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %staged, %sent = call @stage_step(%inp, %stage, %counts)
      : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
      -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
  %received = pld.tensor.all_to_all_v %staged, %data, %signal, %sent, %recv {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %acc) -> !pld.dtensor<64x128xf32> {
    %r = pld.tensor.allreduce %cur, %sig {reduce = "sum", core_num = 2 : i64}
        : !pld.dtensor<64x128xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<64x128xf32>
    scf.yield %r : !pld.dtensor<64x128xf32>
  }
  %result = call @consume_step(%received, %recv, %out)
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return %result : !pl.tensor<16x4xf32>
}

func.func @layer_9(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>,
                 %stage: !pld.dtensor<16x4xf32>, %data: !pld.dtensor<16x4xf32>,
                 %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                 %recv: !pld.dtensor<2xi32>, %acc: !pld.dtensor<64x128xf32>,
                 %sig: !pld.dtensor<4x2xi32>, %wide: !pld.dtensor<4x16xf32>, %n: index)
    -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %staged, %sent = call @stage_step(%inp, %stage, %counts)
      : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
      -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
  %received = pld.tensor.all_to_all_v %staged, %data, %signal, %sent, %recv {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %acc) -> !pld.dtensor<64x128xf32> {
    %r = pld.tensor.allreduce %cur, %sig {reduce = "sum", core_num = 2 : i64}
        : !pld.dtensor<64x128xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<64x128xf32>
    scf.yield %r : !pld.dtensor<64x128xf32>
  }
  %result = call @consume_step(%received, %recv, %out)
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return %result : !pl.tensor<16x4xf32>
}

func.func @layer_10(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>,
                 %stage: !pld.dtensor<16x4xf32>, %data: !pld.dtensor<16x4xf32>,
                 %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                 %recv: !pld.dtensor<2xi32>, %acc: !pld.dtensor<64x128xf32>,
                 %sig: !pld.dtensor<4x2xi32>, %wide: !pld.dtensor<4x16xf32>, %n: index)
    -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %staged, %sent = call @stage_step(%inp, %stage, %counts)
      : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
      -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
  %received = pld.tensor.all_to_all_v %staged, %data, %signal, %sent, %recv {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %acc) -> !pld.dtensor<64x128xf32> {
    %r = pld.tensor.allreduce %cur, %sig {reduce = "sum", core_num = 2 : i64}
        : !pld.dtensor<64x128xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<64x128xf32>
    scf.yield %r : !pld.dtensor<64x128xf32>
  }
  %result = call @consume_step(%received, %recv, %out)
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return %result : !pl.tensor<16x4xf32>
}

func.func @layer_11(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>,
                 %stage: !pld.dtensor<16x4xf32>, %data: !pld.dtensor<16x4xf32>,
                 %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                 %recv: !pld.dtensor<2xi32>, %acc: !pld.dtensor<64x128xf32>,
                 %sig: !pld.dtensor<4x2xi32>, %wide: !pld.dtensor<4x16xf32>, %n: index)
    -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %staged, %sent = call @stage_step(%inp, %stage, %counts)
      : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
      -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
  %received = pld.tensor.all_to_all_v %staged, %data, %signal, %sent, %recv {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %acc) -> !pld.dtensor<64x128xf32> {
    %r = pld.tensor.allreduce %cur, %sig {reduce = "sum", core_num = 2 : i64}
        : !pld.dtensor<64x128xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<64x128xf32>
    scf.yield %r : !pld.dtensor<64x128xf32>
  }
  %result = call @consume_step(%received, %recv, %out)
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return %result : !pl.tensor<16x4xf32>
}

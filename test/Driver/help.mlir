// The driver lists every pass of the project, and the pipeline, as a flag.
// RUN: pld-opt --help | FileCheck %s --implicit-check-not=amdgpu --implicit-check-not=--x86-
// CHECK: Available Dialects: {{.*}}pl, pld
// CHECK-DAG: --auto-derive-task-dependencies
// CHECK-DAG: --derive-call-directions
// CHECK-DAG: --legalize-spmd-launches
// CHECK-DAG: --lower-composite-ops
// CHECK-DAG: --lower-host-tensor-collectives
// CHECK-DAG: --lower-l2-tensor-collectives
// CHECK-DAG: --materialize-dist-tensor-ctx
// CHECK-DAG: --pld-lower-collectives
// CHECK-DAG: --pld-test-func-kinds

// The driver lists every pass of the project as a flag.
// RUN: pld-opt --help | FileCheck %s
// CHECK: Available Dialects: {{.*}}pl, pld
// CHECK-DAG: --lower-l2-tensor-collectives
// CHECK-DAG: --pld-lower-collectives
// CHECK-DAG: --pld-test-func-kinds

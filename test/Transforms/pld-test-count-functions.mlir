// RUN: pld-opt %s --pld-test-count-functions --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: pld-opt %s --pld-test-count-functions=private-only=true --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=PRIVATE
// RUN: pld-opt --help | FileCheck %s --check-prefix=HELP

// ALL:      PldTestCountFunctions
// ALL-NEXT:   (S) 3 functions-counted - Functions counted
// PRIVATE:      PldTestCountFunctions
// PRIVATE-NEXT:   (S) 2 functions-counted - Functions counted
// HELP:      --pld-test-count-functions {{ *}}- Test pass: count the module's functions
// HELP-NEXT:   --private-only {{ *}}- Count only the private functions

func.func private @a()
func.func private @b()
func.func @c() {
  return
}

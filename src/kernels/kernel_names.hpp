// Names of the kernel functions (for error messages and test output) and range checks of the
// function codes a Program carries.
#pragma once

#include "kernels/kernels.hpp"

namespace ng::kernels {

const char *fn_name(UnaryFn f);
const char *fn_name(BinaryFn f);
const char *fn_name(CompareFn f);
const char *fn_name(ReduceFn f);

// Throw NG_ERR_INTERNAL for a code outside the enumeration.
void check_fn(UnaryFn f);
void check_fn(BinaryFn f);
void check_fn(CompareFn f);
void check_fn(ReduceFn f);

}  // namespace ng::kernels

#include "kernels/kernel_names.hpp"

#include <iterator>

#include "core/error.hpp"

namespace ng::kernels {
namespace {

constexpr const char *kUnary[] = {
#define NG_UNARY_FN(Name, name, ...) #name,
#include "kernels/kernel_fns.def"
};
constexpr const char *kBinary[] = {
#define NG_BINARY_FN(Name, name, ...) #name,
#include "kernels/kernel_fns.def"
};
constexpr const char *kCompare[] = {
#define NG_COMPARE_FN(Name, name) #name,
#include "kernels/kernel_fns.def"
};
constexpr const char *kReduce[] = {
#define NG_REDUCE_FN(Name, name, ...) #name,
#include "kernels/kernel_fns.def"
};

template <class Fn, size_t N>
const char *lookup(Fn f, const char *const (&names)[N]) {
    auto i = static_cast<int32_t>(f);
    return i >= 0 && static_cast<size_t>(i) < N ? names[i] : "invalid";
}

template <size_t N, class Fn>
void check(Fn f, const char *kind) {
    auto i = static_cast<int32_t>(f);
    if (i < 0 || static_cast<size_t>(i) >= N)
        throw internal_error("invalid ", kind, " function code ", i);
}

}  // namespace

const char *fn_name(UnaryFn f) {
    return lookup(f, kUnary);
}
const char *fn_name(BinaryFn f) {
    return lookup(f, kBinary);
}
const char *fn_name(CompareFn f) {
    return lookup(f, kCompare);
}
const char *fn_name(ReduceFn f) {
    return lookup(f, kReduce);
}

void check_fn(UnaryFn f) {
    check<std::size(kUnary)>(f, "unary");
}
void check_fn(BinaryFn f) {
    check<std::size(kBinary)>(f, "binary");
}
void check_fn(CompareFn f) {
    check<std::size(kCompare)>(f, "compare");
}
void check_fn(ReduceFn f) {
    check<std::size(kReduce)>(f, "reduce");
}

}  // namespace ng::kernels

// The four tensor kinds (constant, placeholder, persistent tensor, variable) and the assignable
// tensor they are all made from.
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/checked_math.hpp"
#include "core/error.hpp"
#include "graph/axes_rules.hpp"
#include "graph/builders.hpp"

namespace ng::build {
namespace {

constexpr uint32_t kAllFlags = kFlagConstant | kFlagPersistent | kFlagTrainable | kFlagInput;

void check_flags(uint32_t flags, const void *data, const Op *initial_value) {
    if (flags & ~kAllFlags)
        throw invalid_argument("flags 0x", std::hex, flags, " has unknown bits");
    if (!(flags & kFlagPersistent))
        throw invalid_argument("flags 0x", std::hex, flags,
                               " lack NG_FLAG_PERSISTENT, which every assignable tensor has");
    if (flags & kFlagConstant) {
        if (flags & (kFlagTrainable | kFlagInput))
            throw invalid_argument("flags 0x", std::hex, flags,
                                   " make a constant trainable or an input");
        if (initial_value) throw invalid_argument("a constant takes data, not an initial_value op");
    } else if (data) {
        throw invalid_argument("only a constant takes data; give the others an initial_value op");
    }
}

void check_axes(const Graph &g, const Axes &axes) {
    for (const Axis *a : axes) require_graph(g, a, "axis");
    require_distinct_names(axes, "axes");
}

void check_initial_value(const Graph &g, DType dt, const Axes &axes, const Op *init) {
    require_graph(g, init, "initial_value");
    if (init->dtype != dt)
        throw dtype_error("initial_value ", init->name, " is ", dtype_name(init->dtype),
                          " but the tensor is ", dtype_name(dt));
    positions_of(init->axes, axes, "the tensor");
}

// The size of the elements of a constant of `axes`.
size_t constant_bytes(DType dt, const Axes &axes) {
    return checked_bytes(checked_numel(axes_shape(axes), "constant"), dtype_size(dt), "constant");
}

// Bool elements are stored as 0/1 whatever nonzero byte the caller used.
void normalize_bools(std::vector<uint8_t> &bytes) {
    for (uint8_t &b : bytes) b = b ? 1 : 0;
}

// An assignable tensor; a constant takes `elements` (ignored otherwise), which must be its
// size: an empty vector for zeros is grown here.
Op *add_assignable(Graph &g, DType dt, const Axes &axes, uint32_t flags,
                   std::vector<uint8_t> elements, Op *initial_value) {
    auto op = make_op(OpKind::AssignableTensor, dt, axes, {});
    op->attrs.flags = flags;
    op->attrs.axes = axes;
    op->initial_value = initial_value;
    if (flags & kFlagConstant) {
        const size_t bytes = constant_bytes(dt, axes);
        if (elements.empty()) elements.resize(bytes);
        if (elements.size() != bytes)
            throw internal_error("a constant of ", bytes, " bytes was given ", elements.size());
        if (dt == NG_BOOL) normalize_bools(elements);
        op->attrs.data = SharedBytes(std::move(elements));
    }
    return g.add(std::move(op));
}

}  // namespace

Op *assignable(Graph &g, DType dt, const Axes &axes, uint32_t flags, const void *data,
               Op *initial_value) {
    check_dtype(dt, "dtype");
    check_flags(flags, data, initial_value);
    check_axes(g, axes);
    if (initial_value) check_initial_value(g, dt, axes, initial_value);
    std::vector<uint8_t> elements;
    if ((flags & kFlagConstant) && data) {
        const auto *first = static_cast<const uint8_t *>(data);
        elements.assign(first, first + constant_bytes(dt, axes));
    }
    return add_assignable(g, dt, axes, flags, std::move(elements), initial_value);
}

Op *constant(Graph &g, DType dt, const Axes &axes, const void *data) {
    return assignable(g, dt, axes, kFlagConstant | kFlagPersistent, data, nullptr);
}

Op *constant(Graph &g, DType dt, const Axes &axes, std::vector<uint8_t> elements) {
    check_dtype(dt, "dtype");
    check_axes(g, axes);
    return add_assignable(g, dt, axes, kFlagConstant | kFlagPersistent, std::move(elements),
                          nullptr);
}

Op *scalar(Graph &g, DType dt, double value) {
    check_dtype(dt, "dtype");
    return visit_dtype(dt, [&](auto zero) {
        using T = decltype(zero);
        T element;
        if (dt == NG_BOOL) {
            element = value != 0;
        } else if constexpr (std::is_integral_v<T>) {
            // max() + 1 is a power of two, exact in a double even for int64.
            const double past_max = static_cast<double>(std::numeric_limits<T>::max()) + 1.0;
            if (!(value >= static_cast<double>(std::numeric_limits<T>::lowest()) &&
                  value < past_max && value == std::trunc(value)))
                throw invalid_argument("value ", value, " is not representable as ",
                                       dtype_name(dt));
            element = static_cast<T>(value);
        } else {
            if (std::isfinite(value) &&
                std::fabs(value) > static_cast<double>(std::numeric_limits<T>::max()))
                throw invalid_argument("value ", value, " overflows ", dtype_name(dt));
            element = static_cast<T>(value);
        }
        return constant(g, dt, {}, &element);
    });
}

Op *placeholder(Graph &g, DType dt, const Axes &axes, Op *initial_value) {
    return assignable(g, dt, axes, kFlagPersistent | kFlagInput, nullptr, initial_value);
}

Op *persistent_tensor(Graph &g, DType dt, const Axes &axes, Op *initial_value) {
    return assignable(g, dt, axes, kFlagPersistent, nullptr, initial_value);
}

Op *variable(Graph &g, DType dt, const Axes &axes, Op *initial_value) {
    return assignable(g, dt, axes, kFlagPersistent | kFlagTrainable, nullptr, initial_value);
}

}  // namespace ng::build

#include "train/initializers.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/checked_math.hpp"
#include "core/error.hpp"
#include "graph/axes_rules.hpp"
#include "graph/builders.hpp"
#include "train/random.hpp"

namespace ng::train {
namespace {

void require_float_dtype(DType dt) {
    check_dtype(dt, "dtype");
    if (!dtype_is_float(dt))
        throw dtype_error("initial values need float32 or float64, not ", dtype_name(dt));
}

void require_finite(double value, const char *what) {
    if (!std::isfinite(value)) throw invalid_argument(what, " is not finite (", value, ")");
}

int64_t element_count(const Axes &axes) {
    return checked_numel(axes_shape(axes), "the number of initial values");
}

// A constant of `axes` whose values are drawn one after the other, in row-major order.
template <class Draw>
Op *filled_constant(Graph &g, DType dt, const Axes &axes, Draw &&draw) {
    require_float_dtype(dt);
    const int64_t n = element_count(axes);
    std::vector<uint8_t> elements(checked_bytes(n, dtype_size(dt), "the initial values"));
    visit_dtype(dt, [&](auto zero) {
        using T = decltype(zero);
        for (size_t at = 0; at < elements.size(); at += sizeof(T)) {
            const T v = static_cast<T>(draw());
            std::memcpy(elements.data() + at, &v, sizeof v);
        }
    });
    return build::constant(g, dt, axes, std::move(elements));
}

// fan_in and fan_out (see the header) of `axes`; every fan_in axis must be one of `axes`.
std::pair<double, double> fans(const Axes &axes, const Axes &fan_in) {
    if (fan_in.empty()) throw invalid_argument("the fan-in axes are empty");
    double in = 1.0, out = 1.0;
    for (const Axis *axis : fan_in) {
        if (std::find(axes.begin(), axes.end(), axis) == axes.end())
            throw axes_error("fan-in axis ", axis->name, "(", axis->length,
                             ") is not one of the tensor's axes");
        if (std::count(fan_in.begin(), fan_in.end(), axis) > 1)
            throw axes_error("fan-in axis ", axis->name, "(", axis->length, ") is listed twice");
        in *= static_cast<double>(axis->length);
    }
    for (const Axis *axis : axes)
        if (std::find(fan_in.begin(), fan_in.end(), axis) == fan_in.end())
            out *= static_cast<double>(axis->length);
    if (in == 0.0) throw invalid_argument("the fan-in is 0 (an axis of length 0)");
    return {in, out};
}

}  // namespace

Op *uniform_initializer(Graph &g, DType dt, const Axes &axes, double low, double high,
                        uint64_t seed) {
    require_finite(low, "low");
    require_finite(high, "high");
    if (!(low < high))
        throw invalid_argument("low (", low, ") must be less than high (", high, ")");
    Random random(seed);
    return filled_constant(g, dt, axes, [&] { return low + (high - low) * random.uniform(); });
}

Op *normal_initializer(Graph &g, DType dt, const Axes &axes, double mean, double stddev,
                       uint64_t seed) {
    require_finite(mean, "mean");
    require_finite(stddev, "stddev");
    if (stddev < 0) throw invalid_argument("stddev is negative (", stddev, ")");
    Random random(seed);
    return filled_constant(g, dt, axes, [&] { return mean + stddev * random.normal(); });
}

Op *glorot_uniform_initializer(Graph &g, DType dt, const Axes &axes, const Axes &fan_in,
                               uint64_t seed) {
    auto [in, out] = fans(axes, fan_in);
    const double limit = std::sqrt(6.0 / (in + out));
    return uniform_initializer(g, dt, axes, -limit, limit, seed);
}

Op *he_normal_initializer(Graph &g, DType dt, const Axes &axes, const Axes &fan_in, uint64_t seed) {
    const double in = fans(axes, fan_in).first;
    return normal_initializer(g, dt, axes, 0.0, std::sqrt(2.0 / in), seed);
}

}  // namespace ng::train

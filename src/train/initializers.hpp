// Initial values for variables: constant ops filled from a seeded generator (train/random.hpp),
// so the same seed gives the same values. Fan-in and fan-out come from named axes: fan-in is the
// product of the lengths of `fan_in` (a subset of `axes`), fan-out the product of the other axes
// (1 when there are none).
#pragma once

#include <cstdint>

#include "graph/op.hpp"

namespace ng::train {

Op *uniform_initializer(Graph &g, DType dt, const Axes &axes, double low, double high,
                        uint64_t seed);
Op *normal_initializer(Graph &g, DType dt, const Axes &axes, double mean, double stddev,
                       uint64_t seed);
// Uniform in +-sqrt(6 / (fan_in + fan_out)) (Glorot and Bengio, 2010).
Op *glorot_uniform_initializer(Graph &g, DType dt, const Axes &axes, const Axes &fan_in,
                               uint64_t seed);
// Normal with mean 0 and standard deviation sqrt(2 / fan_in) (He et al., 2015).
Op *he_normal_initializer(Graph &g, DType dt, const Axes &axes, const Axes &fan_in, uint64_t seed);

}  // namespace ng::train

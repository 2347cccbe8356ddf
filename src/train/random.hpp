// A small seeded generator for initializers: xoshiro256** seeded through splitmix64, so every
// seed (0 included) gives a well-mixed state and the same seed gives the same values on every
// platform (no dependence on the C++ library's distributions).
#pragma once

#include <cstdint>

namespace ng::train {

class Random {
public:
    explicit Random(uint64_t seed);

    uint64_t next();
    // Uniform in [0, 1) with 53 random bits.
    double uniform();
    // Standard normal (Box-Muller; the second value of each pair is kept for the next call).
    double normal();

private:
    uint64_t state_[4];
    double spare_normal_ = 0.0;
    bool has_spare_ = false;
};

}  // namespace ng::train

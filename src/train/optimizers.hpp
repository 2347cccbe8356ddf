// Optimizers as graph builders: each returns one op whose computation is one training step. The
// op is a `sequential` that first evaluates the cost and every new value (gradients from one
// reverse sweep, new optimizer state, new weights) and only then assigns them, so every value of
// a step is computed from the state before the step. Its value is the cost before the step.
// Optimizer state (velocities, moments, step count) lives in persistent tensors made here.
#pragma once

#include "graph/op.hpp"

namespace ng::train {

struct SgdConfig {
    double momentum = 0.0;      // 0 disables the velocity
    bool nesterov = false;      // needs momentum > 0
    double weight_decay = 0.0;  // L2: adds weight_decay * w to each gradient
};

struct AdamConfig {
    double beta1 = 0.9;
    double beta2 = 0.999;
    double epsilon = 1e-8;
    double weight_decay = 0.0;
};

// `learning_rate` is a rank-0 float op, usually a persistent tensor, so it can change between
// steps without recompiling.
Op *sgd(Op *cost, Op *learning_rate, const SgdConfig &config);
Op *adam(Op *cost, Op *learning_rate, const AdamConfig &config);

}  // namespace ng::train

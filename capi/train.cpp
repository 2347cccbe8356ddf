// C entry points of train.h: optimizers and initializers.
#include <cstddef>

#include "capi/graph_handle.hpp"
#include "capi/sized_struct.hpp"
#include "nanograph/train.h"
#include "train/initializers.hpp"
#include "train/optimizers.hpp"

using namespace ng;
using namespace ng::capi;

namespace {

// An axes argument whose count argument is named in messages ("rank is negative (-1)").
Axes axes_argument(const Graph &g, const ng_axis_t *const *axes, int32_t count, const char *name,
                   const char *count_name) {
    require_array(axes, count, name, count_name);
    return axes_in(g, axes, count, name);
}

// The sizes of the first published options structs: fields appended later are optional.
constexpr size_t kSgdOptionsMinSize = offsetof(ng_sgd_options_t, weight_decay) + sizeof(double);
constexpr size_t kAdamOptionsMinSize = offsetof(ng_adam_options_t, weight_decay) + sizeof(double);

ng_sgd_options_t sgd_defaults() {
    const train::SgdConfig defaults;
    ng_sgd_options_t options{};
    options.struct_size = sizeof options;
    options.momentum = defaults.momentum;
    options.nesterov = defaults.nesterov ? 1 : 0;
    options.weight_decay = defaults.weight_decay;
    return options;
}

ng_adam_options_t adam_defaults() {
    const train::AdamConfig defaults;
    ng_adam_options_t options{};
    options.struct_size = sizeof options;
    options.beta1 = defaults.beta1;
    options.beta2 = defaults.beta2;
    options.epsilon = defaults.epsilon;
    options.weight_decay = defaults.weight_decay;
    return options;
}

}  // namespace

extern "C" {

NG_API ng_status_t ng_sgd_options_init(ng_sgd_options_t *options, size_t struct_size) {
    return call("ng_sgd_options_init", [&] {
        write_sized(require(options, "options"), struct_size, kSgdOptionsMinSize, sgd_defaults(),
                    "options");
    });
}

NG_API ng_status_t ng_adam_options_init(ng_adam_options_t *options, size_t struct_size) {
    return call("ng_adam_options_init", [&] {
        write_sized(require(options, "options"), struct_size, kAdamOptionsMinSize, adam_defaults(),
                    "options");
    });
}

NG_API ng_op_t *ng_sgd(ng_graph_t *g, ng_op_t *cost, ng_op_t *learning_rate,
                       const ng_sgd_options_t *options) {
    return call_builder("ng_sgd", g, {cost, learning_rate}, [&] {
        Graph &graph = graph_of(g, "g");
        const ng_sgd_options_t o =
            options ? read_sized(*options, kSgdOptionsMinSize, sgd_defaults(), "options")
                    : sgd_defaults();
        train::SgdConfig config;
        config.momentum = o.momentum;
        config.nesterov = o.nesterov != 0;
        config.weight_decay = o.weight_decay;
        return train::sgd(op_in(graph, cost, "cost"), op_in(graph, learning_rate, "learning_rate"),
                          config);
    });
}

NG_API ng_op_t *ng_adam(ng_graph_t *g, ng_op_t *cost, ng_op_t *learning_rate,
                        const ng_adam_options_t *options) {
    return call_builder("ng_adam", g, {cost, learning_rate}, [&] {
        Graph &graph = graph_of(g, "g");
        const ng_adam_options_t o =
            options ? read_sized(*options, kAdamOptionsMinSize, adam_defaults(), "options")
                    : adam_defaults();
        train::AdamConfig config;
        config.beta1 = o.beta1;
        config.beta2 = o.beta2;
        config.epsilon = o.epsilon;
        config.weight_decay = o.weight_decay;
        return train::adam(op_in(graph, cost, "cost"), op_in(graph, learning_rate, "learning_rate"),
                           config);
    });
}

NG_API ng_op_t *ng_initializer_uniform(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                       int32_t rank, double low, double high, uint64_t seed) {
    return call_builder("ng_initializer_uniform", g, {}, [&] {
        Graph &graph = graph_of(g, "g");
        return train::uniform_initializer(
            graph, dt, axes_argument(graph, axes, rank, "axes", "rank"), low, high, seed);
    });
}

NG_API ng_op_t *ng_initializer_normal(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                      int32_t rank, double mean, double stddev, uint64_t seed) {
    return call_builder("ng_initializer_normal", g, {}, [&] {
        Graph &graph = graph_of(g, "g");
        return train::normal_initializer(
            graph, dt, axes_argument(graph, axes, rank, "axes", "rank"), mean, stddev, seed);
    });
}

NG_API ng_op_t *ng_initializer_glorot_uniform(ng_graph_t *g, ng_dtype_t dt,
                                              const ng_axis_t *const *axes, int32_t rank,
                                              const ng_axis_t *const *fan_in_axes,
                                              int32_t fan_in_rank, uint64_t seed) {
    return call_builder("ng_initializer_glorot_uniform", g, {}, [&] {
        Graph &graph = graph_of(g, "g");
        return train::glorot_uniform_initializer(
            graph, dt, axes_argument(graph, axes, rank, "axes", "rank"),
            axes_argument(graph, fan_in_axes, fan_in_rank, "fan_in_axes", "fan_in_rank"), seed);
    });
}

NG_API ng_op_t *ng_initializer_he_normal(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                         int32_t rank, const ng_axis_t *const *fan_in_axes,
                                         int32_t fan_in_rank, uint64_t seed) {
    return call_builder("ng_initializer_he_normal", g, {}, [&] {
        Graph &graph = graph_of(g, "g");
        return train::he_normal_initializer(
            graph, dt, axes_argument(graph, axes, rank, "axes", "rank"),
            axes_argument(graph, fan_in_axes, fan_in_rank, "fan_in_axes", "fan_in_rank"), seed);
    });
}

}  // extern "C"

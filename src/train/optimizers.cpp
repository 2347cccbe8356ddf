#include "train/optimizers.hpp"

#include <cmath>
#include <string>

#include "autodiff/deriv.hpp"
#include "graph/queries.hpp"
#include "core/error.hpp"
#include "graph/builders.hpp"

namespace ng::train {
namespace {

Op *add(Op *a, Op *b) {
    return build::binary(OpKind::Add, a, b);
}
Op *sub(Op *a, Op *b) {
    return build::binary(OpKind::Subtract, a, b);
}
Op *mul(Op *a, Op *b) {
    return build::binary(OpKind::Multiply, a, b);
}
Op *div(Op *a, Op *b) {
    return build::binary(OpKind::Divide, a, b);
}
Op *constant_like(const Op *like, double value) {
    return build::scalar(*like->graph, like->dtype, value);
}

void require_in_range(double value, double low, double high, const char *what, const char *range) {
    if (!(value >= low && value < high))
        throw invalid_argument(what, " must be in ", range, ", not ", value);
}

struct Step {
    std::vector<Op *> variables;
    std::vector<Op *> gradients;
    Op *learning_rate;
    std::vector<std::pair<Op *, Op *>> assignments;  // (target, new value)

    // The learning rate in w's dtype.
    Op *learning_rate_for(const Op *w) const {
        return learning_rate->dtype == w->dtype ? learning_rate
                                                : build::cast(learning_rate, w->dtype);
    }
};

Step begin_step(Op *cost, Op *learning_rate) {
    if (cost->graph != learning_rate->graph)
        throw invalid_argument("learning_rate ", learning_rate->name, " belongs to another graph");
    if (learning_rate->rank() != 0)
        throw axes_error("learning_rate ", learning_rate->name, " must be a scalar but has ",
                         learning_rate->rank(), " axes");
    if (!dtype_is_float(learning_rate->dtype))
        throw dtype_error("learning_rate ", learning_rate->name, " has dtype ",
                          dtype_name(learning_rate->dtype), "; it must be float32 or float64");
    if (cost->rank() != 0)
        throw axes_error("cost ", cost->name, " must be a scalar but has ", cost->rank(), " axes");
    Step step;
    step.variables = upstream_assignables(cost, kFlagTrainable);
    if (step.variables.empty())
        throw invalid_argument("cost ", cost->name, " depends on no trainable variable");
    step.gradients = vjp(cost, build::scalar(*cost->graph, cost->dtype, 1.0), step.variables);
    step.learning_rate = learning_rate;
    return step;
}

// Optimizer state shaped like w, zero to start; named after w when the name is free.
Op *state_like(Op *w, const char *what) {
    Op *state = build::persistent_tensor(*w->graph, w->dtype, w->axes, nullptr);
    const std::string name = w->name + "/" + what;
    if (w->graph->find(name) == nullptr) w->graph->rename(state, name);
    return state;
}

Op *with_weight_decay(Op *gradient, Op *w, double weight_decay) {
    return weight_decay == 0.0 ? gradient : add(gradient, mul(constant_like(w, weight_decay), w));
}

// sequential(cost, new values..., assigns..., cost): every new value is computed before the
// first assignment, and the op's value is the cost of the weights before the step.
Op *finish_step(Op *cost, const Step &step) {
    std::vector<Op *> sequence{cost};
    for (auto &[target, value] : step.assignments) sequence.push_back(value);
    for (auto &[target, value] : step.assignments) sequence.push_back(build::assign(target, value));
    sequence.push_back(cost);
    return build::sequential(sequence);
}

}  // namespace

Op *sgd(Op *cost, Op *learning_rate, const SgdConfig &config) {
    require_in_range(config.momentum, 0.0, 1.0, "momentum", "[0, 1)");
    require_in_range(config.weight_decay, 0.0, INFINITY, "weight_decay", "[0, inf)");
    if (config.nesterov && config.momentum == 0.0)
        throw invalid_argument("nesterov needs a momentum above 0");
    Step step = begin_step(cost, learning_rate);
    for (size_t i = 0; i < step.variables.size(); ++i) {
        Op *w = step.variables[i];
        Op *g = with_weight_decay(step.gradients[i], w, config.weight_decay);
        Op *direction = g;
        if (config.momentum != 0.0) {
            // v <- momentum v + g; the step follows v, or g + momentum v for Nesterov.
            Op *velocity = state_like(w, "velocity");
            Op *new_velocity = add(mul(constant_like(w, config.momentum), velocity), g);
            step.assignments.emplace_back(velocity, new_velocity);
            direction = config.nesterov
                            ? add(g, mul(constant_like(w, config.momentum), new_velocity))
                            : new_velocity;
        }
        step.assignments.emplace_back(w, sub(w, mul(step.learning_rate_for(w), direction)));
    }
    return finish_step(cost, step);
}

Op *adam(Op *cost, Op *learning_rate, const AdamConfig &config) {
    require_in_range(config.beta1, 0.0, 1.0, "beta1", "[0, 1)");
    require_in_range(config.beta2, 0.0, 1.0, "beta2", "[0, 1)");
    if (!(config.epsilon > 0.0 && std::isfinite(config.epsilon)))
        throw invalid_argument("epsilon must be positive and finite, not ", config.epsilon);
    require_in_range(config.weight_decay, 0.0, INFINITY, "weight_decay", "[0, inf)");
    Step step = begin_step(cost, learning_rate);
    Graph &g = *cost->graph;

    // The step number t, counted in float64 so the bias corrections 1 - beta^t stay exact.
    Op *t = build::persistent_tensor(g, NG_FLOAT64, {}, nullptr);
    Op *new_t = add(t, build::scalar(g, NG_FLOAT64, 1.0));
    step.assignments.emplace_back(t, new_t);
    auto correction = [&](double beta) {
        return sub(build::scalar(g, NG_FLOAT64, 1.0),
                   build::binary(OpKind::Power, build::scalar(g, NG_FLOAT64, beta), new_t));
    };
    Op *correction1 = correction(config.beta1), *correction2 = correction(config.beta2);

    for (size_t i = 0; i < step.variables.size(); ++i) {
        Op *w = step.variables[i];
        Op *grad = with_weight_decay(step.gradients[i], w, config.weight_decay);
        Op *m = state_like(w, "adam_m"), *v = state_like(w, "adam_v");
        // m <- beta1 m + (1 - beta1) g;  v <- beta2 v + (1 - beta2) g^2
        Op *new_m = add(mul(constant_like(w, config.beta1), m),
                        mul(constant_like(w, 1.0 - config.beta1), grad));
        Op *new_v =
            add(mul(constant_like(w, config.beta2), v),
                mul(constant_like(w, 1.0 - config.beta2), build::unary(OpKind::Square, grad)));
        step.assignments.emplace_back(m, new_m);
        step.assignments.emplace_back(v, new_v);
        // w <- w - lr * (m / c1) / (sqrt(v / c2) + epsilon)
        auto in_w_dtype = [&](Op *x) {
            return x->dtype == w->dtype ? x : build::cast(x, w->dtype);
        };
        Op *m_hat = div(new_m, in_w_dtype(correction1));
        Op *v_hat = div(new_v, in_w_dtype(correction2));
        Op *denominator = add(build::unary(OpKind::Sqrt, v_hat), constant_like(w, config.epsilon));
        step.assignments.emplace_back(
            w, sub(w, mul(step.learning_rate_for(w), div(m_hat, denominator))));
    }
    return finish_step(cost, step);
}

}  // namespace ng::train

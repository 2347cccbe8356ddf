// C API of transformers and computations (include/nanograph/exec.h).
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "capi/boundary.hpp"
#include "capi/graph_handle.hpp"
#include "capi/sized_struct.hpp"
#include "capi/tensor_handle.hpp"
#include "capi/transformer_handle.hpp"
#include "nanograph/exec.h"
#include "runtime/computation.hpp"
#include "runtime/transformer.hpp"

namespace {

using namespace ng::capi;

ng::Computation &computation_of(const ng_computation_t *c, const char *arg) {
    return *checked(c, arg)->impl;
}

// A persistent tensor: placeholder, persistent tensor or variable (constants have no settable
// value).
const ng::Op *persistent_of(const ng_op_t *op, const char *arg) {
    const ng::Op *o = op_of(op, arg);
    if (!o->is_assignable() || !(o->flags() & ng::kFlagPersistent))
        throw ng::invalid_argument(arg, " (", o->name, ") is not a persistent tensor");
    return o;
}

std::vector<const ng::Op *> ops_of(ng_op_t *const *ops, int32_t n, const char *arg,
                                   const char *count_arg) {
    require_array(ops, n, arg, count_arg);
    std::vector<const ng::Op *> out;
    for (int32_t i = 0; i < n; ++i) out.push_back(checked_at(ops, static_cast<size_t>(i), arg));
    return out;
}

// The size of the first published ng_computation_stats_t: fields appended later are optional.
constexpr size_t kStatsMinSize = offsetof(ng_computation_stats_t, buffer_bytes) + sizeof(size_t);

const ng::ValueInfo &param_info(const ng_computation_t *c, int32_t i) {
    return at_index(computation_of(c, "c").param_info(), i, "parameters");
}

const ng::ValueInfo &result_info(const ng_computation_t *c, int32_t i) {
    return at_index(computation_of(c, "c").result_info(), i, "results");
}

}  // namespace

extern "C" {

NG_API ng_transformer_t *ng_transformer_create(const char *backend) {
    return call_returning("ng_transformer_create", static_cast<ng_transformer_t *>(nullptr), [&] {
        if (backend && std::strcmp(backend, "cpu") != 0)
            throw ng::unsupported("backend \"", backend, "\" is not available (only \"cpu\")");
        auto handle = std::make_unique<ng_transformer>();
        handle->impl = std::make_shared<ng::Transformer>(0);
        return handle.release();
    });
}

NG_API void ng_transformer_destroy(ng_transformer_t *t) {
    call_silently([&] {
        if (!live_or_null(t)) return;
        t->tag = 0;
        delete t;
    });
}

NG_API ng_status_t ng_transformer_set_num_threads(ng_transformer_t *t, int32_t threads) {
    return call("ng_transformer_set_num_threads",
                [&] { transformer_of(t, "t").set_threads(threads); });
}

NG_API ng_status_t ng_transformer_set_seed(ng_transformer_t *t, uint64_t seed) {
    return call("ng_transformer_set_seed", [&] { transformer_of(t, "t").set_seed(seed); });
}

NG_API int32_t ng_transformer_num_threads(const ng_transformer_t *t) {
    return call_returning("ng_transformer_num_threads", int32_t{-1},
                          [&] { return static_cast<int32_t>(transformer_of(t, "t").threads()); });
}

NG_API ng_computation_t *ng_computation_create(ng_transformer_t *t, ng_op_t *const *results,
                                               int32_t nresults, ng_op_t *const *params,
                                               int32_t nparams) {
    return call_returning("ng_computation_create", static_cast<ng_computation_t *>(nullptr), [&] {
        transformer_of(t, "t");
        auto result_ops = ops_of(results, nresults, "results", "nresults");
        auto param_ops = ops_of(params, nparams, "params", "nparams");
        auto handle = std::make_unique<ng_computation>();
        handle->impl = std::make_unique<ng::Computation>(t->impl, result_ops, param_ops);
        handle->impl->recycle_outputs();
        handle->inputs.resize(param_ops.size());
        handle->outputs.resize(result_ops.size());
        handle->fresh.resize(result_ops.size());
        handle->fresh_handles.resize(result_ops.size());
        return handle.release();
    });
}

NG_API void ng_computation_destroy(ng_computation_t *c) {
    call_silently([&] {
        if (!live_or_null(c)) return;
        c->tag = 0;
        delete c;
    });
}

NG_API int32_t ng_computation_num_params(const ng_computation_t *c) {
    return call_returning("ng_computation_num_params", int32_t{-1}, [&] {
        return static_cast<int32_t>(computation_of(c, "c").param_info().size());
    });
}

NG_API int32_t ng_computation_num_results(const ng_computation_t *c) {
    return call_returning("ng_computation_num_results", int32_t{-1}, [&] {
        return static_cast<int32_t>(computation_of(c, "c").result_info().size());
    });
}

NG_API ng_status_t ng_computation_run(ng_computation_t *c, ng_tensor_t *const *inputs,
                                      int32_t num_inputs, ng_tensor_t **outputs,
                                      int32_t num_outputs) {
    return call("ng_computation_run", [&] {
        ng::Computation &comp = computation_of(c, "c");
        std::lock_guard<std::mutex> lock(c->run_mutex);
        const size_t np = comp.param_info().size(), nr = comp.plan().results.size();
        if (num_inputs != static_cast<int64_t>(np))
            throw ng::invalid_argument("num_inputs is ", num_inputs, ", but the computation has ",
                                       np, " parameters");
        if (num_outputs != static_cast<int64_t>(nr))
            throw ng::invalid_argument("num_outputs is ", num_outputs, ", but the computation has ",
                                       nr, " results");
        require_array(inputs, static_cast<int64_t>(np), "inputs", "the number of parameters");
        require_array(outputs, static_cast<int64_t>(nr), "outputs", "the number of results");
        for (size_t i = 0; i < np; ++i) c->inputs[i] = &tensor_at(inputs, i, "inputs");
        bool any_new = false;
        for (size_t i = 0; i < nr; ++i) {
            c->outputs[i] = outputs[i] ? &tensor_at(outputs, i, "outputs") : nullptr;
            any_new |= !outputs[i];
        }
        comp.run(c->inputs.data(), c->outputs.data(), c->fresh.data());
        if (!any_new) return;  // every output was given: no handle to make
        // Only now, with nothing left to fail but the handles, hand new tensors to the NULL slots.
        std::fill(c->fresh_handles.begin(), c->fresh_handles.end(), nullptr);
        try {
            for (size_t i = 0; i < nr; ++i)
                if (!outputs[i]) c->fresh_handles[i] = new_tensor_handle(std::move(c->fresh[i]));
        } catch (...) {
            for (ng_tensor_t *f : c->fresh_handles) release_tensor_handle(f);
            throw;
        }
        for (size_t i = 0; i < nr; ++i)
            if (!outputs[i]) outputs[i] = c->fresh_handles[i];
    });
}

NG_API ng_status_t ng_computation_stats(const ng_computation_t *c, ng_computation_stats_t *out) {
    return call("ng_computation_stats", [&] {
        const ng::Computation &comp = computation_of(c, "c");
        require(out, "out");
        std::lock_guard<std::mutex> lock(c->run_mutex);
        const ng::Plan &p = comp.plan();
        ng_computation_stats_t stats{};
        stats.arena_bytes = p.arena_bytes;
        stats.num_buffers = p.num_arena_buffers;
        stats.num_kernels = static_cast<int32_t>(p.steps.size());
        stats.num_nodes = p.num_nodes;
        stats.num_source_ops = comp.num_source_ops();
        stats.buffer_bytes = p.buffer_bytes;
        write_sized(out, out->struct_size, kStatsMinSize, stats, "out");
    });
}

NG_API const char *ng_computation_param_name(const ng_computation_t *c, int32_t i) {
    return call_returning("ng_computation_param_name", static_cast<const char *>(nullptr),
                          [&] { return param_info(c, i).name.c_str(); });
}

NG_API ng_dtype_t ng_computation_param_dtype(const ng_computation_t *c, int32_t i) {
    return call_returning("ng_computation_param_dtype", ng_dtype_t{0},
                          [&] { return param_info(c, i).dtype; });
}

NG_API int32_t ng_computation_param_rank(const ng_computation_t *c, int32_t i) {
    return call_returning("ng_computation_param_rank", int32_t{-1},
                          [&] { return static_cast<int32_t>(param_info(c, i).axis_names.size()); });
}

NG_API const char *ng_computation_param_axis_name(const ng_computation_t *c, int32_t i,
                                                  int32_t axis) {
    return call_returning(
        "ng_computation_param_axis_name", static_cast<const char *>(nullptr),
        [&] { return at_index(param_info(c, i).axis_names, axis, "axes").c_str(); });
}

NG_API int64_t ng_computation_param_axis_length(const ng_computation_t *c, int32_t i,
                                                int32_t axis) {
    return call_returning("ng_computation_param_axis_length", int64_t{-1},
                          [&] { return at_index(param_info(c, i).axis_lengths, axis, "axes"); });
}

NG_API const char *ng_computation_result_name(const ng_computation_t *c, int32_t i) {
    return call_returning("ng_computation_result_name", static_cast<const char *>(nullptr),
                          [&] { return result_info(c, i).name.c_str(); });
}

NG_API ng_dtype_t ng_computation_result_dtype(const ng_computation_t *c, int32_t i) {
    return call_returning("ng_computation_result_dtype", ng_dtype_t{0},
                          [&] { return result_info(c, i).dtype; });
}

NG_API int32_t ng_computation_result_rank(const ng_computation_t *c, int32_t i) {
    return call_returning("ng_computation_result_rank", int32_t{-1}, [&] {
        return static_cast<int32_t>(result_info(c, i).axis_names.size());
    });
}

NG_API const char *ng_computation_result_axis_name(const ng_computation_t *c, int32_t i,
                                                   int32_t axis) {
    return call_returning(
        "ng_computation_result_axis_name", static_cast<const char *>(nullptr),
        [&] { return at_index(result_info(c, i).axis_names, axis, "axes").c_str(); });
}

NG_API int64_t ng_computation_result_axis_length(const ng_computation_t *c, int32_t i,
                                                 int32_t axis) {
    return call_returning("ng_computation_result_axis_length", int64_t{-1},
                          [&] { return at_index(result_info(c, i).axis_lengths, axis, "axes"); });
}

NG_API ng_status_t ng_transformer_get_value(ng_transformer_t *t, const ng_op_t *persistent,
                                            ng_tensor_t **out) {
    if (out) *out = nullptr;
    return call("ng_transformer_get_value", [&] {
        ng::Transformer &tr = transformer_of(t, "t");
        require(out, "out");
        const ng::Op *op = persistent_of(persistent, "persistent");
        const auto values = tr.lock_values();  // no run writes it while it is copied
        if (!tr.has_value(op->uid) && !(op->flags() & ng::kFlagConstant))
            throw ng::not_found(
                op->name, " has no value yet (never set, and no computation using it has run)");
        // A constant's value comes from its data; any other tensor has one already.
        ng::PersistentSpec spec;
        spec.info = ng::describe_persistent(*op);
        if (spec.info.is_constant()) spec.constant_data = op->attrs.data;
        const ng::Tensor &v = tr.value(spec);
        ng::Tensor copy = ng::Tensor::zeros(v.dtype(), v.shape());
        copy.copy_from(v);
        *out = new_tensor_handle(std::move(copy));
    });
}

NG_API ng_status_t ng_transformer_set_value(ng_transformer_t *t, const ng_op_t *persistent,
                                            const ng_tensor_t *value) {
    return call("ng_transformer_set_value", [&] {
        ng::Transformer &tr = transformer_of(t, "t");
        const ng::Op *op = persistent_of(persistent, "persistent");
        if (op->flags() & ng::kFlagConstant) throw ng::invalid_argument(op->name, " is a constant");
        tr.set_value(ng::describe_persistent(*op), tensor_of(value, "value"));
    });
}

}  // extern "C"

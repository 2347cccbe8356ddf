// How compiled constants hold their elements: a computation, its plan, its initializers and the
// persistent specs read the bytes the graph's constant holds instead of copying them (a layer's
// initial weights would otherwise sit in memory four times); a host allocator still gets a copy
// of its own; common-subexpression elimination merges small constants by value and large ones
// only with themselves.
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "graph/builders.hpp"
#include "graph/graph.hpp"
#include "passes/pipeline.hpp"
#include "runtime/computation.hpp"
#include "runtime/persistent.hpp"
#include "runtime/transformer.hpp"

// cmocka last: its macros would rewrite names in the standard headers.
#include <cstdarg>
#include <cstddef>
#include <csetjmp>
extern "C" {
#include <cmocka.h>
}

namespace {

constexpr int64_t kLarge = 100000;  // elements: well above what CSE keys by value

// 0.5, 1.5, 2.5, ... as the bytes of a float32 constant.
std::vector<uint8_t> halves(int64_t n) {
    std::vector<uint8_t> bytes(static_cast<size_t>(n) * sizeof(float));
    for (int64_t i = 0; i < n; ++i) {
        const float v = static_cast<float>(i) + 0.5f;
        std::memcpy(bytes.data() + i * sizeof v, &v, sizeof v);
    }
    return bytes;
}

// The plan's constant buffers of exactly `bytes` bytes.
std::vector<const ng::Buffer *> constant_buffers(const ng::Plan &plan, size_t bytes) {
    std::vector<const ng::Buffer *> found;
    for (const ng::Buffer &b : plan.buffers)
        if (b.kind == ng::Buffer::Kind::Constant && b.bytes == bytes) found.push_back(&b);
    return found;
}

std::shared_ptr<ng::Transformer> make_transformer() {
    return std::make_shared<ng::Transformer>(1);
}

float run_first_output_element(ng::Computation &c, const ng::Tensor &x, int64_t at) {
    const ng::Tensor *inputs[1] = {&x};
    ng::Tensor *no_slot = nullptr;
    ng::Tensor out;
    c.run(inputs, &no_slot, &out);
    return static_cast<const float *>(out.data())[at];
}

// y = x * c over kLarge elements, c = halves(kLarge).
struct ScaledByConstant {
    ng::Graph g;
    const ng::Axis *n = g.axis("N", kLarge);
    ng::Op *c = ng::build::constant(g, NG_FLOAT32, {n}, halves(kLarge));
    ng::Op *x = ng::build::placeholder(g, NG_FLOAT32, {n}, nullptr);
    ng::Op *y = ng::build::binary(ng::OpKind::Multiply, x, c);
};

void a_plan_reads_the_graph_constant_in_place(void **) {
    ScaledByConstant m;
    ng::Computation comp(make_transformer(), {m.y}, {m.x});

    auto shared = constant_buffers(comp.plan(), m.c->attrs.data.size());
    assert_int_equal(shared.size(), 1);
    assert_ptr_equal(shared[0]->constant->data(), m.c->attrs.data.data());

    // And computes with it: y = 2 * c.
    ng::Tensor two = ng::Tensor::zeros(NG_FLOAT32, {kLarge});
    float *xs = static_cast<float *>(two.data());
    for (int64_t i = 0; i < kLarge; ++i) xs[i] = 2.0f;
    assert_true(run_first_output_element(comp, two, 0) == 1.0f);
    assert_true(run_first_output_element(comp, two, kLarge - 1) == 2.0f * (kLarge - 0.5f));
}

void the_plan_outlives_the_graph(void **) {
    auto t = make_transformer();
    std::unique_ptr<ng::Computation> comp;
    ng::Tensor ones = ng::Tensor::zeros(NG_FLOAT32, {kLarge});
    {
        ng::Graph g;
        const ng::Axis *n = g.axis("N", kLarge);
        ng::Op *c = ng::build::constant(g, NG_FLOAT32, {n}, halves(kLarge));
        ng::Op *x = ng::build::placeholder(g, NG_FLOAT32, {n}, nullptr);
        comp = std::make_unique<ng::Computation>(
            t, std::vector<const ng::Op *>{ng::build::binary(ng::OpKind::Add, x, c)},
            std::vector<const ng::Op *>{x});
    }
    // The graph and its constant op are gone; the plan still holds the bytes.
    assert_true(run_first_output_element(*comp, ones, 7) == 7.5f);
}

void an_initializer_and_its_spec_share_the_initial_value(void **) {
    ng::Graph g;
    const ng::Axis *n = g.axis("N", kLarge);
    ng::Op *init = ng::build::constant(g, NG_FLOAT32, {n}, halves(kLarge));
    ng::Op *v = ng::build::variable(g, NG_FLOAT32, {n}, init);
    auto t = make_transformer();
    ng::InitializerCompilation compiling;

    auto constant_spec = ng::compile_persistent(t, *init, compiling);
    assert_true(constant_spec->constant_data.same_block(init->attrs.data));

    auto variable_spec = ng::compile_persistent(t, *v, compiling);
    assert_non_null(variable_spec->initializer.get());
    auto shared = constant_buffers(variable_spec->initializer->plan(), init->attrs.data.size());
    assert_int_equal(shared.size(), 1);
    assert_ptr_equal(shared[0]->constant->data(), init->attrs.data.data());

    // The value made from it is the variable's own memory, with the initial elements.
    const ng::Tensor &value = t->value(*variable_spec);
    assert_ptr_not_equal(value.data(), init->attrs.data.data());
    assert_true(static_cast<const float *>(value.data())[3] == 3.5f);
}

int counted_allocations = 0;

void *counting_allocate(size_t bytes, size_t alignment, void *) {
    ++counted_allocations;
    void *p = nullptr;
    return posix_memalign(&p, alignment, bytes) == 0 ? p : nullptr;
}

void counting_deallocate(void *p, size_t, size_t, void *) {
    std::free(p);
}

void a_host_allocator_gets_its_own_copy(void **) {
    ScaledByConstant m;
    ng::Allocator host;
    host.allocate = counting_allocate;
    host.deallocate = counting_deallocate;
    auto t = make_transformer();
    t->set_allocator(host);
    counted_allocations = 0;
    ng::Computation comp(t, {m.y}, {m.x});

    auto copies = constant_buffers(comp.plan(), m.c->attrs.data.size());
    assert_int_equal(copies.size(), 1);
    assert_ptr_not_equal(copies[0]->constant->data(), m.c->attrs.data.data());
    assert_true(copies[0]->constant->made_by(host));
    assert_memory_equal(copies[0]->constant->data(), m.c->attrs.data.data(),
                        m.c->attrs.data.size());
    assert_true(counted_allocations >= 1);
}

// Constant nodes left in the simplified graph of `results`.
int constants_after_simplify(const std::vector<const ng::Op *> &results,
                             const std::vector<const ng::Op *> &params) {
    int32_t source_nodes = 0;
    ng::ExecGraph graph = ng::compile_graph(
        results, params, [](const ng::Plan &, const std::vector<char *> &) {}, source_nodes);
    std::vector<bool> live(graph.nodes.size(), false);
    int count = 0;
    for (const ng::Node &node : graph.nodes)
        for (int32_t a : node.args) live[static_cast<size_t>(a)] = true;
    for (size_t i = 0; i < graph.nodes.size(); ++i)
        if (live[i] && graph.nodes[i].is_constant()) ++count;
    return count;
}

void small_constants_merge_by_value_large_ones_by_identity(void **) {
    ng::Graph g;
    const ng::Axis *small = g.axis("S", 16);
    const ng::Axis *large = g.axis("L", kLarge);
    ng::Op *xs = ng::build::placeholder(g, NG_FLOAT32, {small}, nullptr);
    ng::Op *xl = ng::build::placeholder(g, NG_FLOAT32, {large}, nullptr);
    auto product_sum = [&](ng::Op *x, const ng::Axis *axis, int64_t n) {
        ng::Op *a = ng::build::constant(g, NG_FLOAT32, {axis}, halves(n));
        ng::Op *b = ng::build::constant(g, NG_FLOAT32, {axis}, halves(n));
        return ng::build::binary(ng::OpKind::Add, ng::build::binary(ng::OpKind::Multiply, x, a),
                                 ng::build::binary(ng::OpKind::Multiply, x, b));
    };
    // Two equal 64-byte constants become one; two equal 400,000-byte ones stay two, unless
    // they are one op used twice.
    assert_int_equal(constants_after_simplify({product_sum(xs, small, 16)}, {xs}), 1);
    assert_int_equal(constants_after_simplify({product_sum(xl, large, kLarge)}, {xl}), 2);
    ng::Op *once = ng::build::constant(g, NG_FLOAT32, {large}, halves(kLarge));
    ng::Op *twice =
        ng::build::binary(ng::OpKind::Add, ng::build::binary(ng::OpKind::Multiply, xl, once),
                          ng::build::binary(ng::OpKind::Multiply, once, xl));
    assert_int_equal(constants_after_simplify({twice}, {xl}), 1);
}

void a_constant_takes_exactly_its_size(void **) {
    ng::Graph g;
    const ng::Axis *n = g.axis("N", 4);
    bool threw = false;
    try {
        ng::build::constant(g, NG_FLOAT32, {n}, std::vector<uint8_t>(15));
    } catch (const ng::Error &e) {
        threw = e.status() == NG_ERR_INTERNAL;
    }
    assert_true(threw);
    // An empty vector is zeros; bools are stored as 0/1.
    ng::Op *zeros = ng::build::constant(g, NG_FLOAT32, {n}, std::vector<uint8_t>{});
    assert_int_equal(zeros->attrs.data.size(), 16);
    for (size_t i = 0; i < 16; ++i) assert_int_equal(zeros->attrs.data.data()[i], 0);
    ng::Op *flags = ng::build::constant(g, NG_BOOL, {n}, std::vector<uint8_t>{0, 7, 1, 255});
    const uint8_t expected[4] = {0, 1, 1, 1};
    assert_memory_equal(flags->attrs.data.data(), expected, 4);
}

}  // namespace

int main() {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_plan_reads_the_graph_constant_in_place),
        cmocka_unit_test(the_plan_outlives_the_graph),
        cmocka_unit_test(an_initializer_and_its_spec_share_the_initial_value),
        cmocka_unit_test(a_host_allocator_gets_its_own_copy),
        cmocka_unit_test(small_constants_merge_by_value_large_ones_by_identity),
        cmocka_unit_test(a_constant_takes_exactly_its_size),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}

// The op attributes declared in one table: the compiler's common-subexpression key tells apart two
// nodes that differ in any part of any attribute their kind declares (and only those: identical
// nodes share a key), a builder that sets an attribute its kind does not declare is refused, and
// the DOT description names every set attribute.
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "graph/axes_rules.hpp"
#include "graph/graph.hpp"
#include "passes/simplify.hpp"

// cmocka last: its macros would rewrite names in the standard headers.
#include <cstdarg>
#include <cstddef>
#include <csetjmp>
extern "C" {
#include <cmocka.h>
}

namespace {

using ng::AttrId;
using ng::Node;
using ng::OpAttrs;

// Two axes to vary axis-valued attributes with.
struct AxisPair {
    ng::Graph graph;
    const ng::Axis *a = graph.axis("A", 4);
    const ng::Axis *b = graph.axis("B", 4);
};

// One attribute value and the variations of it that must key differently: each changes one part.
template <class T>
struct Variations {
    T base;
    std::vector<T> others;
};

Variations<ng::Axes> variations_of(const ng::Axes &, const AxisPair &x) {
    return {{x.a}, {{x.b}, {x.a, x.b}, {}}};
}
Variations<ng::AxisRef> variations_of(ng::AxisRef, const AxisPair &x) {
    return {x.a, {x.b, nullptr}};
}
Variations<uint32_t> variations_of(uint32_t, const AxisPair &) {
    return {1, {0, 3}};
}
Variations<uint64_t> variations_of(uint64_t, const AxisPair &) {
    return {7, {0, 8}};
}
Variations<ng::SharedBytes> variations_of(const ng::SharedBytes &, const AxisPair &) {
    const std::vector<uint8_t> small{1, 2, 3, 4}, large(8192, 5);
    // The large ones key by identity: two copies of the same bytes are different constants.
    return {ng::SharedBytes(small),
            {ng::SharedBytes(std::vector<uint8_t>{1, 2, 3, 5}),
             ng::SharedBytes(std::vector<uint8_t>{1, 2, 3}), ng::SharedBytes(large),
             ng::SharedBytes(large), ng::SharedBytes()}};
}
Variations<ng::SliceSpecs> variations_of(const ng::SliceSpecs &, const AxisPair &) {
    const ng::SliceSpec s{0, 4, 1, false};
    auto with = [&](const std::function<void(ng::SliceSpec &)> &change) {
        ng::SliceSpec c = s;
        change(c);
        return ng::SliceSpecs{c};
    };
    return {{s},
            {with([](ng::SliceSpec &c) { c.start = 1; }),
             with([](ng::SliceSpec &c) { c.stop = 3; }),
             with([](ng::SliceSpec &c) { c.step = 2; }),
             with([](ng::SliceSpec &c) { c.drop = true; }),
             {s, s},
             {}}};
}
Variations<ng::PadWidths> variations_of(const ng::PadWidths &, const AxisPair &) {
    return {{{1, 2}}, {{{0, 2}}, {{1, 3}}, {{2, 1}}, {{1, 2}, {0, 0}}, {}}};
}
Variations<ng::Reals> variations_of(const ng::Reals &, const AxisPair &) {
    return {{0.0, 1.0}, {{0.5, 1.0}, {0.0, 2.0}, {0.0}, {}}};
}

// A node of `kind` whose declared attributes all hold their base value.
Node base_node(ng::OpKind kind, const AxisPair &x) {
    Node n;
    n.kind = kind;
    n.dtype = NG_FLOAT32;
    n.axes = {x.a};
    const ng::AttrSet declared = ng::op_kind_attrs(kind);
    ng::for_each_attr(n.attrs, [&](AttrId id, const char *, auto &field) {
        if (declared & ng::attr_bit(id)) field = variations_of(field, x).base;
    });
    return n;
}

void cse_keeps_apart_nodes_differing_in_any_declared_attribute(void **) {
    AxisPair x;
    int checked = 0;
    for (int32_t k = 0; k < ng::kNumOpKinds; ++k) {
        const auto kind = static_cast<ng::OpKind>(k);
        const Node base = base_node(kind, x);
        assert_true(ng::cse_key(base) == ng::cse_key(base_node(kind, x)));
        const ng::AttrSet declared = ng::op_kind_attrs(kind);
        for (int32_t a = 0; a < ng::kNumAttrs; ++a) {
            if (!(declared & ng::attr_bit(static_cast<AttrId>(a)))) continue;
            ng::for_each_attr(base.attrs, [&](AttrId id, const char *name, const auto &field) {
                if (static_cast<int32_t>(id) != a) return;
                for (const auto &other : variations_of(field, x).others) {
                    Node changed = base;
                    ng::for_each_attr(changed.attrs, [&](AttrId i, const char *, auto &f) {
                        if constexpr (std::is_same_v<std::decay_t<decltype(f)>,
                                                     std::decay_t<decltype(other)>>)
                            if (i == id) f = other;
                    });
                    if (ng::cse_key(changed) == ng::cse_key(base))
                        fail_msg("%s nodes differing in %s share a key", ng::op_kind_name(kind),
                                 name);
                    ++checked;
                }
            });
        }
    }
    assert_true(checked > 50);  // every kind with attributes was varied
}

void cse_keeps_apart_nodes_differing_in_args_or_axes(void **) {
    AxisPair x;
    Node base = base_node(ng::OpKind::Add, x);
    base.args = {0, 1};
    Node swapped = base;
    swapped.args = {1, 0};
    Node more_axes = base;
    more_axes.axes = {x.a, x.b};
    Node other_dtype = base;
    other_dtype.dtype = NG_FLOAT64;
    for (const Node *n : {&swapped, &more_axes, &other_dtype})
        assert_true(ng::cse_key(*n) != ng::cse_key(base));
}

void a_builder_setting_an_undeclared_attribute_is_refused(void **) {
    AxisPair x;
    auto leaf = ng::make_op(ng::OpKind::AssignableTensor, NG_FLOAT32, {x.a}, {});
    leaf->attrs.axes = {x.a};
    leaf->attrs.flags = ng::kFlagPersistent;
    leaf->graph = &x.graph;
    ng::Op *tensor = ng::finish(std::move(leaf));
    auto add = ng::make_op(ng::OpKind::Add, NG_FLOAT32, {x.a}, {tensor, tensor});
    add->attrs.stream = 3;  // Add declares no attribute
    try {
        ng::finish(std::move(add));
        fail_msg("an Add with a stream was built");
    } catch (const ng::Error &e) {
        assert_int_equal(e.status(), NG_ERR_INTERNAL);
        assert_non_null(std::strstr(e.what(), "Add"));
        assert_non_null(std::strstr(e.what(), "stream=3"));
    }
}

void described_attributes_name_each_set_field(void **) {
    AxisPair x;
    OpAttrs attrs;
    attrs.slices = {{1, 4, 2, false}, {3, 0, 1, true}};
    attrs.padding = {{1, 2}};
    attrs.axis = x.b;
    const ng::AttrSet all = ~ng::AttrSet{0};
    assert_string_equal(ng::describe_attrs(attrs, all).c_str(),
                        "axis=B(4)\nslices=[1:4:2, 3]\npadding=[1/2]");
    assert_string_equal(ng::describe_attrs(attrs, ng::attr_bit(AttrId::padding)).c_str(),
                        "padding=[1/2]");
    assert_int_equal(ng::attrs_set(attrs), ng::attr_bit(AttrId::slices) |
                                               ng::attr_bit(AttrId::padding) |
                                               ng::attr_bit(AttrId::axis));
}

}  // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cse_keeps_apart_nodes_differing_in_any_declared_attribute),
        cmocka_unit_test(cse_keeps_apart_nodes_differing_in_args_or_axes),
        cmocka_unit_test(a_builder_setting_an_undeclared_attribute_is_refused),
        cmocka_unit_test(described_attributes_name_each_set_field),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}

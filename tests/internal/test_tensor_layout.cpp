// The parts of the tensor core that the C API does not reach directly: dense strides with
// allocated sizes, extents, the strided walker (coalescing several layouts at once, rows in
// memory order), copies between overlapping views of one storage, the checked sizes of
// Tensor::zeros, and tensor identities.
#include <cstdint>
#include <numeric>
#include <utility>

#include "core/error.hpp"
#include "core/strided_space.hpp"
#include "core/tensor.hpp"

// cmocka last: its macros would rewrite names in the standard headers.
#include <cstdarg>
#include <cstddef>
#include <csetjmp>
extern "C" {
#include <cmocka.h>
}

using ng::Dims;

namespace {

void expect_dims(const Dims &actual, const Dims &expected) {
    assert_int_equal(actual.size(), expected.size());
    for (size_t k = 0; k < expected.size(); ++k) assert_int_equal(actual[k], expected[k]);
}

void dense_strides_with_sizes(void **) {
    expect_dims(ng::row_major_strides({5, 3, 2}), {6, 2, 1});
    // Padded: strides follow the allocated sizes (5, 4, 8), which may exceed the shape.
    expect_dims(ng::row_major_strides({5, 3, 2}, {5, 4, 8}), {32, 8, 1});
    expect_dims(ng::row_major_strides({}), {});
    bool threw = false;
    try {
        ng::row_major_strides({5, 3}, {4, 3});  // a size below its length
    } catch (const ng::Error &e) {
        threw = e.status() == NG_ERR_INVALID_ARGUMENT;
    }
    assert_true(threw);
}

void extents_cover_negative_and_zero_strides(void **) {
    ng::Layout l{{2, 3}, {-3, 1}, 3};
    int64_t low, high;
    l.extent(low, high);
    assert_int_equal(low, 0);
    assert_int_equal(high, 6);
    ng::Layout broadcast{{4, 3}, {0, 1}, 2};
    broadcast.extent(low, high);
    assert_int_equal(low, 2);
    assert_int_equal(high, 5);
    assert_true(broadcast.has_broadcast_dims());
    ng::Layout empty{{0, 3}, {3, 1}, 7};
    empty.extent(low, high);
    assert_int_equal(low, 7);
    assert_int_equal(high, 7);
    assert_true(empty.is_row_major_contiguous());
}

// The space's shape and operand strides after drop_unit_dims() and coalesce().
void expect_coalesced(const Dims &shape, std::vector<Dims> strides, const Dims &want_shape,
                      const std::vector<Dims> &want_strides) {
    ng::StridedSpace space;
    space.reset("test", shape);
    for (const Dims &s : strides) space.add_operand("test", s);
    space.drop_unit_dims();
    space.coalesce();
    Dims got_shape;
    for (int32_t d = 0; d < space.rank(); ++d) got_shape.push_back(space.dim(d));
    expect_dims(got_shape, want_shape);
    assert_int_equal(space.operands(), want_strides.size());
    for (int32_t op = 0; op < space.operands(); ++op) {
        Dims got;
        for (int32_t d = 0; d < space.rank(); ++d) got.push_back(space.stride(op, d));
        expect_dims(got, want_strides[op]);
    }
}

void coalesce_merges_what_every_layout_allows(void **) {
    // A row-major (2, 3, 4) and a copy of it: everything folds into one run of 24.
    expect_coalesced({2, 3, 4}, {{12, 4, 1}, {12, 4, 1}}, {24}, {{1}, {1}});
    // The second operand broadcasts over the last dimension: only the first two fold.
    expect_coalesced({2, 3, 4}, {{12, 4, 1}, {3, 1, 0}}, {6, 4}, {{4, 1}, {1, 0}});
    // A transpose folds nothing, but a size-1 dimension disappears.
    expect_coalesced({2, 1, 3}, {{1, 7, 2}}, {2, 3}, {{1, 2}});
    // Reversed rows of a contiguous matrix: inner run folds with nothing else.
    expect_coalesced({3, 4}, {{-4, 1}}, {3, 4}, {{-4, 1}});
    // A fully reversed vector stays one dimension; a single element is one dimension of 1.
    expect_coalesced({3, 2}, {{-2, -1}}, {6}, {{-1}});
    expect_coalesced({1, 1}, {{5, 9}}, {1}, {{0}});
    // Strides whose product with a length overflows never merge (wrapped caller memory), even
    // when the wrapped product would equal the outer stride (2^62 * 4 wraps to 0).
    const int64_t huge = int64_t{1} << 62;
    expect_coalesced({2, 4}, {{0, huge}}, {2, 4}, {{0, huge}});
    // An empty space says so.
    ng::StridedSpace empty;
    empty.reset("test", {0, 3});
    empty.add_operand("test", {3, 1});
    assert_int_equal(empty.numel(), 0);
}

void strided_space_walks_rows_in_memory_order(void **) {
    // Operand 0 is a transposed (3, 2) matrix, operand 1 dense: sorting by operand 0's strides
    // walks it in memory order, rows of length 3 with step 1.
    ng::StridedSpace space;
    space.reset("test", {3, 2});
    space.add_operand("test", {1, 3});
    space.add_operand("test", {2, 1});
    space.simplify_for(0);
    assert_int_equal(space.rank(), 2);
    assert_int_equal(space.dim(1), 3);
    assert_int_equal(space.last_stride(0), 1);
    assert_int_equal(space.last_stride(1), 2);
    std::vector<int64_t> starts;
    space.for_each_row([&](const int64_t *offsets) {
        starts.push_back(offsets[0]);
        starts.push_back(offsets[1]);
    });
    expect_dims(starts, {0, 0, 3, 1});
    // Each operand spans its dimensions' elements; one broadcast along a dimension (stride 0)
    // spans that dimension once.
    assert_int_equal(space.elements_of(0), 6);
    ng::StridedSpace broadcast;
    broadcast.reset("test", {4, 5, 3});
    broadcast.add_operand("test", {15, 3, 1});  // dense
    broadcast.add_operand("test", {0, 1, 0});   // one value per middle index
    broadcast.add_operand("test", {0, 0, 0});   // a scalar
    assert_int_equal(broadcast.elements_of(0), 60);
    assert_int_equal(broadcast.elements_of(1), 5);
    assert_int_equal(broadcast.elements_of(2), 1);
    // Entering at a linear position gives the same offsets as walking to it.
    int64_t offsets[2] = {0, 0};
    space.add_offsets(0, 1, 1, offsets);
    assert_int_equal(offsets[0], 3);
    assert_int_equal(offsets[1], 1);
    // A rank-0 space is one row of one element; an empty one has no rows.
    ng::StridedSpace scalar;
    scalar.reset("test", {});
    scalar.add_operand("test", {});
    int rows = 0;
    scalar.for_each_row([&](const int64_t *offsets) { rows += offsets[0] == 0; });
    assert_int_equal(rows, 1);
    ng::StridedSpace empty;
    empty.reset("test", {2, 0});
    empty.add_operand("test", {0, 1});
    empty.for_each_row([&](const int64_t *) { ++rows; });
    assert_int_equal(rows, 1);
    empty.add_operand("test", {1, 0});
    assert_int_equal(empty.elements_of(0), 0);
    assert_int_equal(empty.elements_of(1), 0);
}

std::vector<float> contents(const ng::Tensor &t) {
    std::vector<float> out(static_cast<size_t>(t.numel()));
    t.read(out.data(), out.size() * sizeof(float));
    return out;
}

void copy_between_overlapping_views(void **) {
    ng::Tensor t = ng::Tensor::zeros(NG_FLOAT32, {8});
    std::vector<float> ramp(8);
    std::iota(ramp.begin(), ramp.end(), 0.0f);
    t.write(ramp.data(), ramp.size() * sizeof(float));
    // t[1:8] = t[0:7]: a forward element-by-element copy would smear t[0] everywhere.
    ng::Tensor dst = t.slice(0, 1, 8, 1), src = t.slice(0, 0, 7, 1);
    dst.copy_from(src);
    std::vector<float> expected = {0, 0, 1, 2, 3, 4, 5, 6};
    assert_memory_equal(contents(t).data(), expected.data(), 8 * sizeof(float));
    // In-place reversal through a reversed view of the same storage.
    t.copy_from(t.slice(0, INT64_MAX, INT64_MIN, -1));
    std::vector<float> reversed = {6, 5, 4, 3, 2, 1, 0, 0};
    assert_memory_equal(contents(t).data(), reversed.data(), 8 * sizeof(float));
}

void copy_from_checks_dtype_and_shape(void **) {
    ng::Tensor a = ng::Tensor::zeros(NG_FLOAT32, {2, 3});
    ng::Tensor b = ng::Tensor::zeros(NG_FLOAT64, {2, 3});
    ng::Tensor c = ng::Tensor::zeros(NG_FLOAT32, {3, 2});
    ng_status_t dtype_status = NG_OK, shape_status = NG_OK;
    try {
        a.copy_from(b);
    } catch (const ng::Error &e) {
        dtype_status = e.status();
    }
    try {
        a.copy_from(c);
    } catch (const ng::Error &e) {
        shape_status = e.status();
    }
    assert_int_equal(dtype_status, NG_ERR_DTYPE);
    assert_int_equal(shape_status, NG_ERR_AXES);
}

void zeros_refuses_overflowing_shapes(void **) {
    ng_status_t status = NG_OK;
    try {
        ng::Tensor::zeros(NG_FLOAT32, {INT64_MAX, 2});
    } catch (const ng::Error &e) {
        status = e.status();
    }
    assert_int_equal(status, NG_ERR_INVALID_ARGUMENT);
}

// Every tensor made, views included, has an identity of its own; copies share it, and a
// moved-from tensor, whose layout and storage are gone, has none.
void identities_follow_layout_and_storage(void **) {
    const ng::Tensor a = ng::Tensor::zeros(NG_FLOAT32, {2, 3});
    const ng::Tensor b = ng::Tensor::zeros(NG_FLOAT32, {2, 3});
    const ng::Tensor view = a.transpose(), same_shape_view = a.reshape({2, 3});
    const uint64_t ids[] = {a.identity(), b.identity(), view.identity(),
                            same_shape_view.identity()};
    for (size_t i = 0; i < 4; ++i) {
        assert_true(ids[i] != 0);
        for (size_t j = 0; j < i; ++j) assert_true(ids[i] != ids[j]);
    }
    ng::Tensor copy = a;
    assert_true(copy.identity() == a.identity());
    ng::Tensor assigned = b;
    assigned = a;
    assert_true(assigned.identity() == a.identity());
    ng::Tensor moved = std::move(copy);
    assert_true(moved.identity() == a.identity());
    assert_true(copy.identity() == 0);  // what moving leaves behind
    ng::Tensor moved_into = b;
    moved_into = std::move(assigned);
    assert_true(moved_into.identity() == a.identity());
    assert_true(assigned.identity() == 0);
    assert_true(ng::Tensor().identity() == 0);
}

}  // namespace

int main() {
    const CMUnitTest tests[] = {
        cmocka_unit_test(dense_strides_with_sizes),
        cmocka_unit_test(extents_cover_negative_and_zero_strides),
        cmocka_unit_test(coalesce_merges_what_every_layout_allows),
        cmocka_unit_test(strided_space_walks_rows_in_memory_order),
        cmocka_unit_test(copy_between_overlapping_views),
        cmocka_unit_test(copy_from_checks_dtype_and_shape),
        cmocka_unit_test(zeros_refuses_overflowing_shapes),
        cmocka_unit_test(identities_follow_layout_and_storage),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}

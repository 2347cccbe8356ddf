// The parts of the tensor core that the C API does not reach directly: dense strides with
// allocated sizes, extents, coalescing several layouts at once (seed 002 flattening), copies
// between overlapping views of one storage, and the checked sizes of Tensor::zeros.
#include <cstdint>
#include <numeric>

#include "core/error.hpp"
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
    // Padded: allocated sizes (5, 4, 8) >= shape (seed 000).
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

void coalesce_merges_what_every_layout_allows(void **) {
    // A row-major (2, 3, 4) and a copy of it: everything folds into one run of 24.
    Dims a = {12, 4, 1}, b = {12, 4, 1};
    expect_dims(ng::coalesce({2, 3, 4}, {&a, &b}), {24});
    expect_dims(a, {1});
    expect_dims(b, {1});

    // The second operand broadcasts over the last dimension: only the first two fold.
    Dims c = {12, 4, 1}, d = {3, 1, 0};
    expect_dims(ng::coalesce({2, 3, 4}, {&c, &d}), {6, 4});
    expect_dims(c, {4, 1});
    expect_dims(d, {1, 0});

    // A transpose folds nothing, but a size-1 dimension disappears.
    Dims e = {1, 7, 2};
    expect_dims(ng::coalesce({2, 1, 3}, {&e}), {2, 3});
    expect_dims(e, {1, 2});

    // Reversed rows of a contiguous matrix: inner run folds with nothing else.
    Dims f = {-4, 1};
    expect_dims(ng::coalesce({3, 4}, {&f}), {3, 4});
    expect_dims(f, {-4, 1});

    // A fully reversed vector stays one dimension; a scalar has none; empty says so.
    Dims g = {-2, -1};
    expect_dims(ng::coalesce({3, 2}, {&g}), {6});
    expect_dims(g, {-1});
    Dims h = {5, 9};
    expect_dims(ng::coalesce({1, 1}, {&h}), {});
    expect_dims(h, {});
    Dims i = {3, 1};
    expect_dims(ng::coalesce({0, 3}, {&i}), {0});
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

}  // namespace

int main() {
    const CMUnitTest tests[] = {
        cmocka_unit_test(dense_strides_with_sizes),
        cmocka_unit_test(extents_cover_negative_and_zero_strides),
        cmocka_unit_test(coalesce_merges_what_every_layout_allows),
        cmocka_unit_test(copy_between_overlapping_views),
        cmocka_unit_test(copy_from_checks_dtype_and_shape),
        cmocka_unit_test(zeros_refuses_overflowing_shapes),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}

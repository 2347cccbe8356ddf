// run_one_hot against a scalar loop written here: every integer index dtype into every value dtype,
// the class axis first, in the middle and last in the output, indices read transposed, rank 0 and
// empty shapes; indices below 0 or at or past the depth leave their whole class axis zero, and
// what the kernel does not set keeps the value it had. Bad requests are refused.
#include "test_kernels_support.hpp"

using namespace ng::kernels;
using ng::DType;

namespace {

// Indices of the given dtype: each value of `values` converted (uint8 wraps -1 to 255).
std::vector<unsigned char> index_bytes(DType dt, const std::vector<int64_t> &values) {
    std::vector<unsigned char> bytes(values.size() * ng::dtype_size(dt));
    ng::visit_dtype(dt, [&](auto tag) {
        using I = decltype(tag);
        for (size_t i = 0; i < values.size(); ++i) {
            const I v = static_cast<I>(values[i]);
            std::memcpy(bytes.data() + i * sizeof v, &v, sizeof v);
        }
    });
    return bytes;
}

// Element i of bytes read as dtype dt, as a double.
double element(DType dt, const std::vector<unsigned char> &bytes, int64_t i) {
    double v = 0;
    ng::visit_dtype(dt, [&](auto tag) {
        using V = decltype(tag);
        V x;
        std::memcpy(&x, bytes.data() + size_t(i) * sizeof x, sizeof x);
        v = double(x);
    });
    return v;
}

// One request: indices of `shape` (index_strides into a dense array of values), an output of
// `shape` with a class axis of `depth` inserted at position `axis` (dense, row-major).
struct Case {
    std::vector<int64_t> shape, index_strides;
    std::vector<int64_t> values;  // the index at storage position p, as read through the strides
    int64_t depth;
    size_t axis;
};

// The output's shape, its strides over `shape` and the class axis's stride.
void output_layout(const Case &c, std::vector<int64_t> &strides, int64_t &depth_stride,
                   int64_t &size) {
    std::vector<int64_t> full = c.shape;
    full.insert(full.begin() + int64_t(c.axis), c.depth);
    std::vector<int64_t> full_strides(full.size());
    size = 1;
    for (size_t d = full.size(); d-- > 0;) {
        full_strides[d] = size;
        size *= full[d];
    }
    depth_stride = full_strides[c.axis];
    strides = full_strides;
    strides.erase(strides.begin() + int64_t(c.axis));
}

// The scalar loop: every point of the shape in row-major order, its index read through the
// strides, a 1 at its class when the class is in range.
std::vector<double> expected(const Case &c, double fill) {
    std::vector<int64_t> out_strides;
    int64_t depth_stride = 0, size = 0;
    output_layout(c, out_strides, depth_stride, size);
    std::vector<double> want(size_t(size), fill);
    int64_t points = 1;
    for (int64_t d : c.shape) points *= d;
    for (int64_t p = 0; p < points; ++p) {
        int64_t rest = p, in = 0, out = 0;
        for (size_t d = c.shape.size(); d-- > 0;) {
            const int64_t at = rest % c.shape[d];
            rest /= c.shape[d];
            in += at * c.index_strides[d];
            out += at * out_strides[d];
        }
        const int64_t k = c.values[size_t(in)];
        if (k >= 0 && k < c.depth) want[size_t(out + k * depth_stride)] = 1;
    }
    return want;
}

// Runs c with indices of index_dtype into an output of dt filled with `fill`, and compares every
// element with the scalar loop's.
void check_case(const Case &c, DType index_dtype, DType dt, double fill) {
    std::vector<int64_t> values = c.values;
    if (index_dtype == NG_UINT8)  // the loop reads what the uint8 indices hold
        for (int64_t &v : values) v = int64_t(uint8_t(v));
    Case read = c;
    read.values = values;
    std::vector<unsigned char> indices = index_bytes(index_dtype, c.values);
    std::vector<int64_t> out_strides;
    int64_t depth_stride = 0, size = 0;
    output_layout(c, out_strides, depth_stride, size);
    std::vector<unsigned char> out(size_t(size) * ng::dtype_size(dt));
    for (int64_t i = 0; i < size; ++i)
        ng::visit_dtype(dt, [&](auto tag) {
            using V = decltype(tag);
            const V v = V(fill);
            std::memcpy(out.data() + size_t(i) * sizeof v, &v, sizeof v);
        });
    run_one_hot(index_dtype, Strided{indices.data(), c.index_strides}, dt,
                Strided{out.data(), out_strides}, c.shape, c.depth, depth_stride);
    const std::vector<double> want = expected(read, fill);
    for (int64_t i = 0; i < size; ++i)
        if (element(dt, out, i) != want[size_t(i)])
            fail_msg("%s indices into %s, depth %lld, class axis %zu: element %lld is %g, want %g",
                     ng::dtype_name(index_dtype), ng::dtype_name(dt), (long long)c.depth, c.axis,
                     (long long)i, element(dt, out, i), want[size_t(i)]);
}

const DType kIndexDTypes[] = {NG_INT32, NG_INT64, NG_UINT8};
const DType kValueDTypes[] = {NG_FLOAT32, NG_FLOAT64, NG_INT32, NG_INT64, NG_UINT8, NG_BOOL};

void test_one_hot_against_scalar_loop(void **) {
    // 3 x 4 indices, in range and out of it (-1, the depth, far past it).
    const std::vector<int64_t> values = {0, 4, -1, 2, 3, 5, 1, 1, 4, 100, 0, -7};
    std::vector<Case> cases;
    for (size_t axis = 0; axis <= 2; ++axis) {
        cases.push_back({{3, 4}, {4, 1}, values, 5, axis});  // row-major indices
        cases.push_back({{4, 3}, {1, 4}, values, 5, axis});  // read transposed
    }
    cases.push_back({{12}, {1}, values, 1, 1});       // depth 1: only index 0 sets a value
    cases.push_back({{3, 4}, {4, 1}, values, 0, 0});  // depth 0: an empty output
    cases.push_back({{4}, {0}, {3}, 5, 0});           // one index broadcast over the shape
    cases.push_back({{}, {}, {2}, 4, 0});             // rank 0: one index
    cases.push_back({{0, 4}, {4, 1}, {}, 3, 1});      // no index at all
    for (const Case &c : cases)
        for (DType index_dtype : kIndexDTypes)
            for (DType dt : kValueDTypes) check_case(c, index_dtype, dt, 0);
}

// Values by hand: one_hot([2, -1, 0, 3], depth 3) with the classes first is
// [[0, 0, 1, 0], [0, 0, 0, 0], [1, 0, 0, 0]]: indices -1 and 3 leave their columns zero.
void test_one_hot_by_hand(void **) {
    const int64_t x[4] = {2, -1, 0, 3};
    float y[3][4] = {};
    run_one_hot(NG_INT64, Strided{const_cast<int64_t *>(x), {1}}, NG_FLOAT32,
                Strided{&y[0][0], {1}}, {4}, 3, 4);
    const float want[3][4] = {{0, 0, 1, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}};
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 4; ++i)
            if (y[k][i] != want[k][i])
                fail_msg("class %d of index %d is %g, want %g", k, i, double(y[k][i]),
                         double(want[k][i]));
}

// Out-of-range indices leave every class of their point as it was, whatever the index dtype
// (int64's extremes included): zero in a zeroed output, the old value in another.
void test_one_hot_out_of_range_is_all_zeros(void **) {
    const std::vector<int64_t> extremes = {INT64_MIN, -1, 6, INT64_MAX, 3};
    check_case({{5}, {1}, extremes, 6, 1}, NG_INT64, NG_FLOAT64, 0);
    const std::vector<int64_t> wide = {INT32_MIN, -1, 6, INT32_MAX, 3};
    check_case({{5}, {1}, wide, 6, 0}, NG_INT32, NG_FLOAT32, 0);
    check_case({{5}, {1}, {255, 6, 200, 0, 5}, 6, 1}, NG_UINT8, NG_INT32, 0);
    // Not zeroed first: the kernel writes only the ones.
    check_case({{3, 4}, {4, 1}, {0, 4, -1, 2, 3, 5, 1, 1, 4, 100, 0, -7}, 5, 1}, NG_INT32,
               NG_FLOAT32, 7);
}

void test_one_hot_bad_requests(void **) {
    int64_t x[2] = {0, 1};
    float y[4] = {};
    const Strided in{x, {1}}, out{y, {2}};
    kt::expect_contains(
        kt::expect_error(NG_ERR_DTYPE,
                         [&] { run_one_hot(NG_FLOAT32, in, NG_FLOAT32, out, {2}, 2, 1); }),
        "float32");
    kt::expect_error(NG_ERR_DTYPE, [&] { run_one_hot(NG_BOOL, in, NG_FLOAT32, out, {2}, 2, 1); });
    kt::expect_contains(
        kt::expect_error(NG_ERR_DTYPE, [&] { run_one_hot(NG_INT64, in, 99, out, {2}, 2, 1); }),
        "99");
    kt::expect_contains(
        kt::expect_error(NG_ERR_INVALID_ARGUMENT,
                         [&] { run_one_hot(NG_INT64, in, NG_FLOAT32, out, {2}, -1, 1); }),
        "-1");
    kt::expect_error(NG_ERR_INVALID_ARGUMENT,
                     [&] { run_one_hot(NG_INT64, in, NG_FLOAT32, out, {-2}, 2, 1); });
    kt::expect_error(NG_ERR_INTERNAL, [&] {
        run_one_hot(NG_INT64, Strided{x, {1, 1}}, NG_FLOAT32, out, {2}, 2, 1);
    });
    for (float v : y)
        if (v != 0) fail_msg("a refused request wrote %g", double(v));
}

}  // namespace

int main() {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_hot_against_scalar_loop),
        cmocka_unit_test(test_one_hot_by_hand),
        cmocka_unit_test(test_one_hot_out_of_range_is_all_zeros),
        cmocka_unit_test(test_one_hot_bad_requests),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}

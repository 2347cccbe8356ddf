// The attributes of an op, generated from the table in op_attrs.def. Code that must treat every
// attribute (keys, labels, copies) walks them with for_each_attr instead of naming fields, so a
// field added to the table cannot be forgotten by a pass.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/shared_bytes.hpp"

namespace ng {

struct Axis;
using Axes = std::vector<const Axis *>;

// One operand axis of a Slice. `drop` (an integer index) removes the axis from the result.
struct SliceSpec {
    int64_t start = 0;
    int64_t stop = 0;
    int64_t step = 1;
    bool drop = false;
};

// The types an attribute may have (the Type column of op_attrs.def).
using AxisRef = const Axis *;
using SliceSpecs = std::vector<SliceSpec>;
using PadWidths = std::vector<std::pair<int64_t, int64_t>>;
using Reals = std::vector<double>;

enum class AttrId : int32_t {
#define NG_ATTR(Type, Name, Meaning) Name,
#include "graph/op_attrs.def"
};

constexpr int32_t kNumAttrs = 0
#define NG_ATTR(Type, Name, Meaning) +1
#include "graph/op_attrs.def"
    ;

// A set of attributes, one bit per AttrId.
using AttrSet = uint32_t;
static_assert(kNumAttrs <= 32, "AttrSet has one bit per attribute");

constexpr AttrSet attr_bit(AttrId id) {
    return AttrSet{1} << static_cast<int32_t>(id);
}

// Everything an op may carry besides args. Only the fields its kind declares are set.
struct OpAttrs {
#define NG_ATTR(Type, Name, Meaning) Type Name{};
#include "graph/op_attrs.def"
};

// Calls f(id, name, field) for every field of `attrs` (const or not), in the table's order.
template <class Attrs, class F>
void for_each_attr(Attrs &attrs, F &&f) {
#define NG_ATTR(Type, Name, Meaning) f(AttrId::Name, #Name, attrs.Name);
#include "graph/op_attrs.def"
}

// The fields of `attrs` that differ from their default.
AttrSet attrs_set(const OpAttrs &attrs);

// Appends to `key` a byte string that differs for any two `attrs` that differ in any field: the
// part of the compiler's common-subexpression key that the attributes make. Constant data of at
// most `max_keyed_bytes` bytes is keyed by value, larger data by identity (so that no key copies
// a layer's weights).
void append_attrs_key(std::string &key, const OpAttrs &attrs, size_t max_keyed_bytes);

// The fields in `which` that are set, as "name=value" lines for people (DOT labels, messages).
std::string describe_attrs(const OpAttrs &attrs, AttrSet which);

}  // namespace ng

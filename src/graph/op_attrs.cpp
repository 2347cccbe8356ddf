// Keys, defaults and descriptions of attribute values, one overload per attribute type: a type
// added to op_attrs.def without its overloads here does not compile.
#include "graph/op_attrs.hpp"

#include <sstream>

#include "graph/axes_rules.hpp"
#include "graph/op.hpp"

namespace ng {
namespace {

template <class T>
void put(std::string &key, const T &value) {
    static_assert(std::is_trivially_copyable_v<T>, "keyed by its bytes");
    key.append(reinterpret_cast<const char *>(&value), sizeof value);
}

// Every variable-length value is preceded by its length, so that the fields' keys cannot run
// into each other.
void key_of(std::string &key, const Axes &axes, size_t) {
    put(key, axes.size());
    for (const Axis *a : axes) put(key, a);
}
void key_of(std::string &key, AxisRef axis, size_t) {
    put(key, axis);
}
void key_of(std::string &key, uint32_t v, size_t) {
    put(key, v);
}
void key_of(std::string &key, uint64_t v, size_t) {
    put(key, v);
}
void key_of(std::string &key, const SharedBytes &data, size_t max_keyed_bytes) {
    put(key, data.size());
    if (data.size() <= max_keyed_bytes) {
        key.push_back('=');
        key.append(reinterpret_cast<const char *>(data.data()), data.size());
    } else {
        key.push_back('@');
        put(key, data.data());
    }
}
void key_of(std::string &key, const SliceSpecs &slices, size_t) {
    put(key, slices.size());
    for (const SliceSpec &s : slices) {
        put(key, s.start);
        put(key, s.stop);
        put(key, s.step);
        put(key, s.drop);
    }
}
void key_of(std::string &key, const PadWidths &padding, size_t) {
    put(key, padding.size());
    for (const auto &p : padding) {
        put(key, p.first);
        put(key, p.second);
    }
}
void key_of(std::string &key, const Reals &values, size_t) {
    put(key, values.size());
    for (double v : values) put(key, v);
}

bool is_default(const Axes &v) {
    return v.empty();
}
bool is_default(AxisRef v) {
    return v == nullptr;
}
bool is_default(uint32_t v) {
    return v == 0;
}
bool is_default(uint64_t v) {
    return v == 0;
}
bool is_default(const SharedBytes &v) {
    return v.empty();
}
bool is_default(const SliceSpecs &v) {
    return v.empty();
}
bool is_default(const PadWidths &v) {
    return v.empty();
}
bool is_default(const Reals &v) {
    return v.empty();
}

void describe_value(std::ostream &out, const Axes &v) {
    out << describe(v);
}
void describe_value(std::ostream &out, AxisRef v) {
    out << describe(v);
}
void describe_value(std::ostream &out, uint32_t v) {
    out << v;
}
void describe_value(std::ostream &out, uint64_t v) {
    out << v;
}
void describe_value(std::ostream &out, const SharedBytes &v) {
    out << v.size() << " bytes";
}
void describe_value(std::ostream &out, const SliceSpecs &v) {
    out << '[';
    for (size_t i = 0; i < v.size(); ++i) {
        if (i) out << ", ";
        if (v[i].drop)
            out << v[i].start;
        else
            out << v[i].start << ':' << v[i].stop << ':' << v[i].step;
    }
    out << ']';
}
void describe_value(std::ostream &out, const PadWidths &v) {
    out << '[';
    for (size_t i = 0; i < v.size(); ++i)
        out << (i ? ", " : "") << v[i].first << '/' << v[i].second;
    out << ']';
}
void describe_value(std::ostream &out, const Reals &v) {
    out << '[';
    for (size_t i = 0; i < v.size(); ++i) out << (i ? ", " : "") << v[i];
    out << ']';
}

}  // namespace

AttrSet attrs_set(const OpAttrs &attrs) {
    AttrSet set = 0;
    for_each_attr(attrs, [&](AttrId id, const char *, const auto &field) {
        if (!is_default(field)) set |= attr_bit(id);
    });
    return set;
}

void append_attrs_key(std::string &key, const OpAttrs &attrs, size_t max_keyed_bytes) {
    for_each_attr(attrs, [&](AttrId, const char *, const auto &field) {
        key_of(key, field, max_keyed_bytes);
    });
}

std::string describe_attrs(const OpAttrs &attrs, AttrSet which) {
    std::ostringstream out;
    for_each_attr(attrs, [&](AttrId id, const char *name, const auto &field) {
        if (!(which & attr_bit(id)) || is_default(field)) return;
        out << '\n' << name << '=';
        describe_value(out, field);
    });
    std::string text = out.str();
    return text.empty() ? text : text.substr(1);
}

}  // namespace ng

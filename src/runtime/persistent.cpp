#include "runtime/persistent.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "runtime/computation.hpp"
#include "runtime/transformer.hpp"

namespace ng {

PersistentInfo describe_persistent(const Op &op) {
    PersistentInfo p;
    p.id = op.uid;
    p.value = describe_values({&op}).front();
    p.flags = op.flags();
    return p;
}

std::shared_ptr<const PersistentSpec> compile_persistent(const std::shared_ptr<Transformer> &t,
                                                         const Op &op,
                                                         std::vector<uint64_t> &compiling) {
    auto spec = std::make_shared<PersistentSpec>();
    spec->info = describe_persistent(op);
    if (spec->info.is_constant()) spec->constant_data = op.attrs.data;
    if (!op.initial_value || t->has_value(op.uid)) return spec;
    if (std::find(compiling.begin(), compiling.end(), op.uid) != compiling.end())
        throw invalid_argument("the initial value of ", op.name, " depends on itself");
    compiling.push_back(op.uid);
    try {
        spec->initializer = std::make_shared<Computation>(
            t, std::vector<const Op *>{op.initial_value}, std::vector<const Op *>{}, &compiling);
    } catch (...) {
        compiling.pop_back();
        throw;
    }
    compiling.pop_back();
    spec->initial_value = describe_values({op.initial_value}).front();
    return spec;
}

}  // namespace ng

#include "runtime/persistent.hpp"

#include <algorithm>
#include <unordered_set>

#include "core/error.hpp"
#include "graph/queries.hpp"
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

namespace {

// Makes `op`'s spec. Its initializer's computation compiles the specs of the tensors it reads
// (compile_persistent): those of `compiling.compiled` are shared, the others compiled there.
std::shared_ptr<const PersistentSpec> make_spec(const std::shared_ptr<Transformer> &t, const Op &op,
                                                InitializerCompilation &compiling) {
    auto spec = std::make_shared<PersistentSpec>();
    spec->info = describe_persistent(op);
    if (spec->info.is_constant()) spec->constant_data = op.attrs.data;
    if (!op.initial_value || t->has_value(op.uid)) return spec;
    std::vector<uint64_t> &in_progress = compiling.in_progress;
    if (std::find(in_progress.begin(), in_progress.end(), op.uid) != in_progress.end())
        throw invalid_argument("the initial value of ", op.name, " depends on itself");
    in_progress.push_back(op.uid);
    try {
        spec->initializer = std::make_shared<Computation>(
            t, std::vector<const Op *>{op.initial_value}, std::vector<const Op *>{}, &compiling);
    } catch (...) {
        in_progress.pop_back();
        throw;
    }
    in_progress.pop_back();
    spec->initial_value = describe_values({op.initial_value}).front();
    compiling.compiled.emplace(op.uid, spec);
    return spec;
}

// Whether `op`'s initializer has still to be compiled.
bool needs_initializer(const std::shared_ptr<Transformer> &t, const Op &op,
                       const InitializerCompilation &compiling) {
    return op.initial_value && !t->has_value(op.uid) && !compiling.compiled.count(op.uid);
}

// The tensors whose initializers `op`'s initializer reads, directly or through theirs, that have
// still to be compiled, each after those it reads. Compiled in this order, each finds the specs
// it needs made: a chain of tensors each initialised from the one before compiles one at a time
// instead of each inside the next (which recursed as deep as the chain). Empty when the
// initializers form a cycle: make_spec then meets it and refuses it as it always did.
std::vector<const Op *> initializers_first(const std::shared_ptr<Transformer> &t, const Op &op,
                                           const InitializerCompilation &compiling) {
    auto reads = [&](const Op &tensor) {
        std::vector<const Op *> found;
        walk_upstream({tensor.initial_value}, false, [&](Op *o) {
            if (o->is_assignable() && needs_initializer(t, *o, compiling)) found.push_back(o);
        });
        return found;
    };
    struct Pending {
        const Op *tensor;
        std::vector<const Op *> reads;
        size_t next = 0;
    };
    std::vector<const Op *> order;
    std::unordered_set<const Op *> seen{&op}, on_path{&op};
    std::vector<Pending> stack;
    stack.push_back(Pending{&op, reads(op)});
    while (!stack.empty()) {
        Pending &top = stack.back();
        if (top.next < top.reads.size()) {
            const Op *read = top.reads[top.next++];
            if (on_path.count(read)) return {};
            if (!seen.insert(read).second) continue;
            on_path.insert(read);
            std::vector<const Op *> its_reads = reads(*read);
            stack.push_back(Pending{read, std::move(its_reads)});  // top is invalid from here on
            continue;
        }
        on_path.erase(top.tensor);
        if (top.tensor != &op) order.push_back(top.tensor);
        stack.pop_back();
    }
    return order;
}

}  // namespace

std::shared_ptr<const PersistentSpec> compile_persistent(const std::shared_ptr<Transformer> &t,
                                                         const Op &op,
                                                         InitializerCompilation &compiling) {
    auto compiled = compiling.compiled.find(op.uid);
    if (compiled != compiling.compiled.end()) return compiled->second;
    if (compiling.in_progress.empty() && needs_initializer(t, op, compiling))
        for (const Op *read : initializers_first(t, op, compiling))
            if (needs_initializer(t, *read, compiling)) make_spec(t, *read, compiling);
    return make_spec(t, op, compiling);
}

}  // namespace ng

#include "passes/memory_plan.hpp"

#include <algorithm>
#include <map>
#include <vector>

namespace ng {

namespace {

constexpr size_t kAlignment = 64;

size_t align_up(size_t n) {
    return (n + kAlignment - 1) / kAlignment * kAlignment;
}

// Follows in-place reuse to the buffer that owns the memory.
int32_t owner(const Plan &plan, int32_t b) {
    while (plan.buffers[b].reuses >= 0) b = plan.buffers[b].reuses;
    return b;
}

void compute_liveness(Plan &plan) {
    auto touch = [&](int32_t b, int32_t step) {
        if (b < 0) return;
        Buffer &buf = plan.buffers[b];
        if (buf.first_step < 0) buf.first_step = step;
        buf.last_step = std::max(buf.last_step, step);
    };
    for (int32_t i = 0; i < static_cast<int32_t>(plan.steps.size()); ++i) {
        const Step &s = plan.steps[i];
        for (const Operand &o : s.inputs) touch(o.buffer, i);
        touch(s.output.buffer, i);
    }
    // Results are read after the last step.
    const int32_t end = static_cast<int32_t>(plan.steps.size());
    for (const Value &v : plan.results) touch(v.buffer, end);
}

std::vector<bool> forwardable_buffers(const Plan &plan) {
    std::vector<bool> forwardable(plan.buffers.size(), false);
    for (const Value &v : plan.results)
        if (is_forwardable_result(plan, v)) forwardable[v.buffer] = true;
    return forwardable;
}

// An elementwise step can write over an arena input that dies at that step when the input is
// read at exactly the positions written (same offset and strides) and has the same size. A
// forwardable result keeps a buffer of its own: it is usually written into an output tensor.
void reuse_in_place(Plan &plan, const std::vector<bool> &forwardable) {
    for (int32_t i = 0; i < static_cast<int32_t>(plan.steps.size()); ++i) {
        Step &s = plan.steps[i];
        if (s.kind != Step::Kind::Elementwise) continue;
        Buffer &out = plan.buffers[s.output.buffer];
        if (out.kind != Buffer::Kind::Arena || out.first_step != i || out.reuses >= 0 ||
            forwardable[s.output.buffer])
            continue;
        for (const Operand &in : s.inputs) {
            if (in.buffer < 0 || in.buffer == s.output.buffer) continue;
            int32_t root = owner(plan, in.buffer);
            Buffer &src = plan.buffers[root];
            if (src.kind != Buffer::Kind::Arena || src.last_step != i) continue;
            if (plan.buffers[in.buffer].bytes != out.bytes || in.offset != s.output.offset ||
                in.strides != s.output.strides)
                continue;
            out.reuses = root;
            src.last_step = std::max(src.last_step, out.last_step);
            break;
        }
    }
}

// The buffers placed so far, indexed by lifetime, to find those whose lifetimes overlap a new
// one without looking at all of them: a buffer overlaps [first, last] when it starts inside it
// (by_first) or starts before it and is still live at `first` (a segment tree over the steps,
// each node listing the lifetimes that cover its whole range).
class PlacedIndex {
public:
    struct Placed {
        size_t offset, bytes;
        int32_t first, last;
    };

    explicit PlacedIndex(int32_t steps) {
        while (leaves_ < steps) leaves_ *= 2;
        head_.assign(2 * static_cast<size_t>(leaves_), -1);
    }

    void add(const Placed &p) {
        const auto index = static_cast<int32_t>(placed_.size());
        placed_.push_back(p);
        by_first_.emplace(p.first, index);
        for (int32_t lo = p.first + leaves_, hi = p.last + leaves_ + 1; lo < hi; lo /= 2, hi /= 2) {
            if (lo & 1) link(lo++, index);
            if (hi & 1) link(--hi, index);
        }
    }

    // [offset, end) of every placed buffer whose lifetime overlaps [first, last], sorted.
    std::vector<std::pair<size_t, size_t>> busy(int32_t first, int32_t last) const {
        std::vector<std::pair<size_t, size_t>> out;
        auto take = [&](int32_t index) {
            const Placed &p = placed_[index];
            out.emplace_back(p.offset, p.offset + p.bytes);
        };
        for (auto it = by_first_.lower_bound(first); it != by_first_.end() && it->first <= last;
             ++it)
            take(it->second);
        for (int32_t node = first + leaves_; node >= 1; node /= 2)
            for (int32_t e = head_[node]; e >= 0; e = links_[e].next)
                if (placed_[links_[e].placed].first < first) take(links_[e].placed);
        std::sort(out.begin(), out.end());
        return out;
    }

private:
    struct Link {
        int32_t placed, next;
    };

    void link(int32_t node, int32_t index) {
        links_.push_back(Link{index, head_[node]});
        head_[node] = static_cast<int32_t>(links_.size() - 1);
    }

    int32_t leaves_ = 1;
    std::vector<Placed> placed_;
    std::multimap<int32_t, int32_t> by_first_;  // first step -> placed buffer
    std::vector<int32_t> head_;                 // per tree node: its first link, or -1
    std::vector<Link> links_;
};

}  // namespace

bool is_forwardable_result(const Plan &plan, const Value &v) {
    if (v.buffer < 0) return false;
    const Buffer &buf = plan.buffers[v.buffer];
    const int64_t numel = v.layout.numel();
    return buf.kind == Buffer::Kind::Arena && numel > 0 && v.layout.offset == 0 &&
           v.layout.is_row_major_contiguous() &&
           buf.bytes == static_cast<size_t>(numel) * dtype_size(buf.dtype);
}

void plan_memory(Plan &plan) {
    compute_liveness(plan);
    const std::vector<bool> forwardable = forwardable_buffers(plan);
    reuse_in_place(plan, forwardable);

    std::vector<int32_t> order;
    plan.buffer_bytes = 0;
    plan.num_arena_buffers = 0;
    for (int32_t b = 0; b < static_cast<int32_t>(plan.buffers.size()); ++b) {
        const Buffer &buf = plan.buffers[b];
        // A buffer no step touches any more (a fusion took its steps) takes no memory.
        if (buf.kind != Buffer::Kind::Arena || buf.first_step < 0) continue;
        ++plan.num_arena_buffers;
        plan.buffer_bytes += buf.bytes;
        if (buf.reuses < 0) order.push_back(b);
    }
    // Largest first, then earliest: a classic greedy that packs well for chains of ops.
    // Forwardable results go last, each past everything placed before it.
    std::sort(order.begin(), order.end(), [&](int32_t x, int32_t y) {
        if (forwardable[x] != forwardable[y]) return forwardable[y];
        const Buffer &a = plan.buffers[x], &b = plan.buffers[y];
        return a.bytes != b.bytes ? a.bytes > b.bytes : a.first_step < b.first_step;
    });
    // Lifetimes end at the last step, or one past it for results.
    PlacedIndex placed(static_cast<int32_t>(plan.steps.size()) + 1);
    size_t arena = 0;
    for (int32_t b : order) {
        Buffer &buf = plan.buffers[b];
        const size_t size = align_up(std::max<size_t>(buf.bytes, 1));
        size_t offset = forwardable[b] ? arena : 0;
        for (const auto &[lo, hi] : placed.busy(buf.first_step, buf.last_step)) {
            if (offset + size <= lo) break;
            offset = std::max(offset, hi);
        }
        buf.arena_offset = offset;
        placed.add({offset, size, buf.first_step, buf.last_step});
        arena = std::max(arena, offset + size);
    }
    for (Buffer &buf : plan.buffers)
        if (buf.kind == Buffer::Kind::Arena && buf.reuses >= 0)
            buf.arena_offset =
                plan.buffers[owner(plan, static_cast<int32_t>(&buf - plan.buffers.data()))]
                    .arena_offset;
    plan.arena_bytes = arena;
}

}  // namespace ng

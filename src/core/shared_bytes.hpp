// SharedBytes: immutable bytes that every copy shares. A constant's elements are made once, by
// its builder or by folding, and the compiled graphs, plans and persistent specs made from the
// op all read that one block, so a large constant (a layer's initial weights) is held once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/storage.hpp"

namespace ng {

class SharedBytes {
public:
    SharedBytes() = default;
    // Takes the bytes without copying them.
    explicit SharedBytes(std::vector<uint8_t> bytes);

    const uint8_t *data() const noexcept { return block_ ? block_->data() : nullptr; }
    size_t size() const noexcept { return block_ ? block_->size() : 0; }
    bool empty() const noexcept { return size() == 0; }
    // Whether both hold the same block (not merely equal bytes).
    bool same_block(const SharedBytes &other) const noexcept { return block_ == other.block_; }

    // The bytes as a borrowed Storage that keeps them alive, for a plan's constant buffer. Its
    // data() is not const for the executor's sake: nothing may write through it.
    std::shared_ptr<Storage> storage() const;

private:
    std::shared_ptr<const std::vector<uint8_t>> block_;
};

}  // namespace ng

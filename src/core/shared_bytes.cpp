#include "core/shared_bytes.hpp"

namespace ng {

namespace {

using Block = std::shared_ptr<const std::vector<uint8_t>>;

void release_block(void *, void *ctx) {
    delete static_cast<Block *>(ctx);
}

}  // namespace

SharedBytes::SharedBytes(std::vector<uint8_t> bytes)
    : block_(std::make_shared<const std::vector<uint8_t>>(std::move(bytes))) {}

std::shared_ptr<Storage> SharedBytes::storage() const {
    auto keep = std::make_unique<Block>(block_);
    void *data = const_cast<uint8_t *>(this->data());
    std::shared_ptr<Storage> s = Storage::wrap(data, size(), release_block, keep.get());
    keep.release();  // the storage owns it now
    return s;
}

}  // namespace ng

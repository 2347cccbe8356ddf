// Checkpoint files, untrusted, through the library's own decoder (io/checkpoint.hpp): the same
// functions ng_transformer_load runs after reading the file, reached without a file per input.
// The first byte chooses the form: odd, the rest of the input is the whole file (header
// included); even, the rest is the payload and a correct header is put in front of it, so that
// mutations reach the protobuf payload instead of stopping at the CRC-32.
// Whatever the bytes, decoding must return or throw ng::Error, allocating only what the checked
// sizes allow. A decoded checkpoint is applied to a transformer that knows three tensors (the
// names, dtypes and axes of the seeds); after a refusal its values must be unchanged, after a
// success its own checkpoint must decode again.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <zlib.h>

#include "core/error.hpp"
#include "io/checkpoint.hpp"
#include "runtime/transformer.hpp"

namespace {

ng::PersistentInfo info(uint64_t id, const char *name, ng::DType dt, std::vector<std::string> axes,
                        std::vector<int64_t> lengths) {
    ng::PersistentInfo p;
    p.id = id;
    p.value.name = name;
    p.value.dtype = dt;
    p.value.axis_names = std::move(axes);
    p.value.axis_lengths = std::move(lengths);
    p.flags = ng::kFlagPersistent;
    return p;
}

// The transformer's values, concatenated, to see that a refused load changed none.
std::string values_of(const ng::Transformer &t) {
    std::string out;
    for (uint64_t id = 1; id <= 3; ++id)
        t.for_each_value([&](const ng::PersistentInfo &p, const ng::Tensor &v) {
            if (p.id == id)
                out.append(static_cast<const char *>(v.data()),
                           static_cast<size_t>(v.numel()) * v.element_size());
        });
    return out;
}

std::string with_header(const uint8_t *payload, size_t n) {
    std::string file("\x89NGCKPT\n", 8);
    const uint32_t crc = static_cast<uint32_t>(::crc32(::crc32(0L, Z_NULL, 0), payload, n));
    const uint64_t fields[3] = {ng::io::kCheckpointVersion, crc, n};
    const int widths[3] = {4, 4, 8};
    for (int f = 0; f < 3; ++f)
        for (int i = 0; i < widths[f]; ++i)
            file.push_back(static_cast<char>((fields[f] >> (8 * i)) & 0xff));
    file.append(reinterpret_cast<const char *>(payload), n);
    return file;
}

void run(const uint8_t *data, size_t size) {
    const std::string file = (size > 0 && (data[0] & 1))
                                 ? std::string(reinterpret_cast<const char *>(data) + 1, size - 1)
                                 : with_header(size > 0 ? data + 1 : data, size > 0 ? size - 1 : 0);
    ng::io::CheckpointContents contents;
    try {
        contents = ng::io::decode_checkpoint(file.data(), file.size(), "input");
    } catch (const ng::Error &) {
        return;
    }
    auto t = std::make_shared<ng::Transformer>(1);
    t->set_value(info(1, "w", NG_FLOAT32, {"A", "B"}, {2, 3}),
                 ng::Tensor::zeros(NG_FLOAT32, {2, 3}));
    t->set_value(info(2, "step", NG_FLOAT64, {}, {}), ng::Tensor::zeros(NG_FLOAT64, {}));
    t->set_value(info(3, "n", NG_INT64, {"K"}, {1}), ng::Tensor::zeros(NG_INT64, {1}));
    const std::string before = values_of(*t);
    try {
        ng::io::apply_checkpoint(*t, std::move(contents), "input");
    } catch (const ng::Error &) {
        if (values_of(*t) != before) abort();
        return;
    }
    const std::string again = ng::io::checkpoint_bytes(*t);
    ng::io::decode_checkpoint(again.data(), again.size(), "the checkpoint written back");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    try {
        run(data, size);
    } catch (const std::bad_alloc &) {
        // what the allocation cap gives a large but well-formed checkpoint
    }
    return 0;
}

#include "io/checkpoint.hpp"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>
#include <utility>

#include "core/error.hpp"
#include "io/arena_message.hpp"
#include "io/checkpoint.pb.h"
#include "io/file_bytes.hpp"
#include "io/tensor_proto.hpp"

namespace ng::io {

namespace {

// The PNG idea: a high-bit first byte catches 7-bit transfers, the newline catches text-mode
// conversions, and the letters say what the file is to a person running `head`.
constexpr unsigned char kMagic[8] = {0x89, 'N', 'G', 'C', 'K', 'P', 'T', '\n'};

void put_le(std::string &out, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t get_le(const unsigned char *p, int bytes) {
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

// zlib's crc32 takes at most UINT_MAX bytes a call.
uint32_t crc32_of(const unsigned char *data, size_t size) {
    uLong crc = ::crc32(0L, Z_NULL, 0);
    while (size > 0) {
        const uInt n = static_cast<uInt>(std::min<size_t>(size, UINT_MAX));
        crc = ::crc32(crc, data, n);
        data += n;
        size -= n;
    }
    return static_cast<uint32_t>(crc);
}

std::string axes_text(const std::vector<std::string> &names, const std::vector<int64_t> &lengths) {
    std::string out = "(";
    for (size_t i = 0; i < names.size(); ++i)
        out += concat(i ? ", " : "", names[i], "(", lengths[i], ")");
    return out + ")";
}

// At most `limit` names of a list, for a message.
std::string names_text(const std::vector<std::string> &names, size_t limit = 8) {
    std::string out;
    for (size_t i = 0; i < names.size() && i < limit; ++i) out += concat(i ? ", " : "", names[i]);
    if (names.size() > limit) out += concat(" and ", names.size() - limit, " more");
    return out;
}

// The transformer's saved tensors, sorted by name; two of one name are refused.
std::vector<PersistentInfo> saved_tensors(const Transformer &t, const char *doing) {
    std::vector<PersistentInfo> out;
    for (PersistentInfo &p : t.known_persistents())
        if (p.is_state()) out.push_back(std::move(p));
    std::stable_sort(out.begin(), out.end(), [](const PersistentInfo &a, const PersistentInfo &b) {
        return a.value.name < b.value.name;
    });
    for (size_t i = 1; i < out.size(); ++i)
        if (out[i].value.name == out[i - 1].value.name)
            throw state_error("two persistent tensors of the transformer are named ",
                              out[i].value.name, " (from different graphs): a checkpoint finds ",
                              "values by name, so rename one (ng_op_set_name) before creating ",
                              "its computations, then ", doing);
    return out;
}

// A name from the file: not empty, no NUL (names are C strings at the API).
std::string checked_name(const std::string &bytes, const std::string &what) {
    if (bytes.empty()) throw format_error(what, " is empty");
    if (bytes.find('\0') != std::string::npos) throw format_error(what, " contains a NUL byte");
    return bytes;
}

CheckpointValue decode_value(const ckpt::Value &v, int index, const std::string &what) {
    CheckpointValue out;
    out.name = checked_name(v.name(), concat(what, ": the name of value ", index));
    const std::string value_what = concat(what, ": value ", out.name);
    if (!v.has_tensor()) throw format_error(value_what, " has no tensor");
    const tf::TensorProto &proto = v.tensor();
    // Elements must be in tensor_content, whose size must equal the tensor's: so a file can never
    // ask for more memory than it occupies (the typed fields could describe any size).
    if (proto.tensor_content().empty()) {
        bool empty = false;
        for (const auto &d : proto.tensor_shape().dim()) empty |= d.size() == 0;
        if (!empty) throw format_error(value_what, " has no tensor_content");
    }
    out.value = from_tensor_proto(proto, value_what);
    if (static_cast<int64_t>(v.axis_names_size()) != out.value.rank())
        throw format_error(value_what, " has ", v.axis_names_size(), " axis names for ",
                           out.value.rank(), " dimensions");
    for (int i = 0; i < v.axis_names_size(); ++i) {
        out.axis_names.push_back(
            checked_name(v.axis_names(i), concat(value_what, ": the name of axis ", i)));
        for (int j = 0; j < i; ++j)
            if (out.axis_names[static_cast<size_t>(j)] == out.axis_names.back())
                throw format_error(value_what, " has two axes named ", out.axis_names.back());
    }
    return out;
}

}  // namespace

std::string checkpoint_bytes(Transformer &t) {
    ArenaMessage<ckpt::Checkpoint> arena_message;
    ckpt::Checkpoint &message = *arena_message;
    {
        const auto lock = t.lock_values();
        t.create_registered_values();
        const std::vector<PersistentInfo> saved = saved_tensors(t, "save");
        std::map<uint64_t, ckpt::Value *> by_id;
        for (const PersistentInfo &p : saved) {
            ckpt::Value *v = message.add_values();
            v->set_name(p.value.name);
            for (const std::string &a : p.value.axis_names) v->add_axis_names(a);
            by_id.emplace(p.id, v);
        }
        t.for_each_value([&](const PersistentInfo &p, const Tensor &value) {
            auto at = by_id.find(p.id);
            if (at != by_id.end()) to_tensor_proto(value, *at->second->mutable_tensor());
        });
        for (const auto &v : by_id)
            if (!v.second->has_tensor())
                throw internal_error("persistent tensor ", v.second->name(), " has no value");
        message.set_random_seed(t.seed());
        message.set_random_draws(t.draws());
    }
    const size_t payload_size = message.ByteSizeLong();
    if (payload_size > static_cast<size_t>(INT_MAX))
        throw unsupported("a checkpoint of ", payload_size,
                          " bytes is larger than 2 GiB, the limit of its protobuf payload");
    std::string out;
    out.reserve(kCheckpointHeaderSize + payload_size);
    out.append(reinterpret_cast<const char *>(kMagic), sizeof kMagic);
    put_le(out, kCheckpointVersion, 4);
    put_le(out, 0, 4);  // the CRC, once the payload is written
    put_le(out, payload_size, 8);
    if (!message.AppendToString(&out))
        throw internal_error("the checkpoint message could not be serialized");
    const uint32_t crc = crc32_of(
        reinterpret_cast<const unsigned char *>(out.data()) + kCheckpointHeaderSize, payload_size);
    for (int i = 0; i < 4; ++i) out[12 + i] = static_cast<char>((crc >> (8 * i)) & 0xff);
    return out;
}

CheckpointContents decode_checkpoint(const void *bytes, size_t size, const std::string &what) {
    if (size == 0) throw format_error(what, " is empty, not a checkpoint");
    if (!bytes) throw invalid_argument(what, " is NULL");
    const auto *p = static_cast<const unsigned char *>(bytes);
    if (size < kCheckpointHeaderSize)
        throw format_error(what, " is ", size, " bytes long, shorter than a checkpoint's ",
                           kCheckpointHeaderSize, "-byte header");
    if (std::memcmp(p, kMagic, sizeof kMagic) != 0)
        throw format_error(what, " is not a nanograph checkpoint (its first 8 bytes are not ",
                           "the checkpoint magic \\x89NGCKPT\\n)");
    const uint64_t version = get_le(p + 8, 4);
    if (version != kCheckpointVersion)
        throw unsupported(what, " is a checkpoint of format version ", version,
                          "; this library reads version ", kCheckpointVersion);
    const uint64_t payload_size = get_le(p + 16, 8);
    const uint64_t present = size - kCheckpointHeaderSize;
    if (payload_size != present)
        throw format_error(what, " is ", payload_size > present ? "truncated" : "followed by junk",
                           ": its header gives a payload of ", payload_size, " bytes but ", present,
                           " follow the header");
    if (payload_size > static_cast<uint64_t>(INT_MAX))
        throw unsupported(what, " has a payload of ", payload_size,
                          " bytes, larger than 2 GiB (the limit of its protobuf payload)");
    const uint32_t stored_crc = static_cast<uint32_t>(get_le(p + 12, 4));
    const uint32_t crc = crc32_of(p + kCheckpointHeaderSize, static_cast<size_t>(payload_size));
    if (crc != stored_crc)
        throw format_error(what, " is damaged: the CRC-32 of its payload is 0x", std::hex, crc,
                           " but its header says 0x", stored_crc);
    ArenaMessage<ckpt::Checkpoint> arena_message;
    ckpt::Checkpoint &message = *arena_message;
    if (!message.ParseFromArray(p + kCheckpointHeaderSize, static_cast<int>(payload_size)))
        throw format_error(what, " is damaged: its payload is not a checkpoint message");
    CheckpointContents out;
    out.random_seed = message.random_seed();
    out.random_draws = message.random_draws();
    std::map<std::string, int> seen;
    for (int i = 0; i < message.values_size(); ++i) {
        out.values.push_back(decode_value(message.values(i), i, what));
        if (!seen.emplace(out.values.back().name, i).second)
            throw format_error(what, " has two values named ", out.values.back().name);
    }
    return out;
}

void apply_checkpoint(Transformer &t, CheckpointContents contents, const std::string &what) {
    const auto lock = t.lock_values();  // nothing runs between the checks and the swap
    const std::vector<PersistentInfo> saved = saved_tensors(t, "load");
    std::map<std::string, CheckpointValue *> by_name;
    for (CheckpointValue &v : contents.values) by_name.emplace(v.name, &v);
    std::vector<std::string> missing, unknown;
    for (const PersistentInfo &p : saved)
        if (!by_name.count(p.value.name)) missing.push_back(p.value.name);
    if (!missing.empty())
        throw not_found(what, " has no value for ", names_text(missing),
                        " (the transformer's persistent tensors must all be in the checkpoint)");
    std::map<std::string, const PersistentInfo *> known;
    for (const PersistentInfo &p : saved) known.emplace(p.value.name, &p);
    for (const CheckpointValue &v : contents.values)
        if (!known.count(v.name)) unknown.push_back(v.name);
    if (!unknown.empty())
        throw not_found(what, " has values for ", names_text(unknown),
                        ", which no computation of the transformer uses and no value was set for "
                        "(create every computation before loading)");
    std::vector<std::pair<PersistentInfo, Tensor>> values;
    for (const PersistentInfo &p : saved) {
        CheckpointValue &v = *by_name.at(p.value.name);
        if (v.value.dtype() != p.value.dtype)
            throw dtype_error(p.value.name, " is ", dtype_name(v.value.dtype()), " in ", what,
                              " but ", dtype_name(p.value.dtype), " in the transformer");
        if (v.axis_names != p.value.axis_names || v.value.shape() != p.shape())
            throw axes_error(p.value.name, " has axes ", axes_text(v.axis_names, v.value.shape()),
                             " in ", what, " but ",
                             axes_text(p.value.axis_names, p.value.axis_lengths),
                             " in the transformer");
        values.emplace_back(p, std::move(v.value));
    }
    t.restore(std::move(values), contents.random_seed, contents.random_draws);
}

void save_checkpoint(Transformer &t, const std::string &path) {
    write_file_atomically(path, checkpoint_bytes(t));
}

void load_checkpoint(Transformer &t, const std::string &path) {
    const AllocatorScope scope = t.allocator_scope();  // the decoded values become its values
    const std::string bytes = read_file_bytes(path);
    apply_checkpoint(t, decode_checkpoint(bytes.data(), bytes.size(), path), path);
}

}  // namespace ng::io

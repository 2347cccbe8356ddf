// Protobuf messages built and parsed on an arena of their own.
#pragma once

#include <google/protobuf/arena.h>

namespace ng {

// A message of type M made on an arena that also holds everything protobuf allocates for it
// (sub-messages, strings, repeated fields), all freed together when this goes out of scope.
// Protobuf is not exception-safe on the heap: when an allocation fails while a repeated field
// grows, the element it had just made to add is leaked. On an arena nothing is owned one by one,
// so a save or a load that runs out of memory leaves nothing allocated.
template <class M>
class ArenaMessage {
public:
    ArenaMessage() : message_(google::protobuf::Arena::CreateMessage<M>(&arena_)) {}
    ArenaMessage(const ArenaMessage &) = delete;
    ArenaMessage &operator=(const ArenaMessage &) = delete;

    M &operator*() { return *message_; }
    M *operator->() { return message_; }

private:
    google::protobuf::Arena arena_;
    M *message_;
};

}  // namespace ng

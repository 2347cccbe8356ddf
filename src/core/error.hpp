// The one exception type of the core. Every layer below capi/ reports failures by throwing
// ng::Error; the C boundary turns it into a status code and a thread-local message.
#pragma once

#include <stdexcept>
#include <string>

#include "nanograph/base.h"

namespace ng {

class Error : public std::runtime_error {
public:
    Error(ng_status_t status, const std::string &message)
        : std::runtime_error(message), status_(status) {}
    ng_status_t status() const noexcept { return status_; }

private:
    ng_status_t status_;
};

// Shorthands that read well at the throw site: `throw invalid_argument("rank ", r, " is
// negative")`.
template <class... Parts>
std::string concat(const Parts &...parts);

}  // namespace ng

#include "core/error_format.hpp"

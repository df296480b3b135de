// Engine messages (engine/message.h) in the JSON contract: {"code", "args", "message"},
// so a program can act on a message without parsing its English.
#pragma once

#include <vector>

#include "engine/contract/json_fields.h"
#include "engine/message.h"

namespace engine::contract {

// {name: value}: counts as integers, numbers and bytes as numbers (bytes as bytes), money
// as {"amount", "currency"}, texts as they are, a nested message as its own object.
Json MessageArgsJson(const std::vector<engine::MessageArg>& args);

// {"code": id, "args": {...}, "message": English}.
Json MessageJson(const engine::Message& message);

}  // namespace engine::contract

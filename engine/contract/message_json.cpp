#include "engine/contract/message_json.h"

namespace engine::contract {

Json MessageArgsJson(const std::vector<engine::MessageArg>& args) {
  Json out = Json::object();
  for (const engine::MessageArg& a : args) {
    switch (a.kind) {
      case engine::ArgKind::kText: out[a.name] = a.text; break;
      case engine::ArgKind::kCount: out[a.name] = static_cast<long long>(a.number); break;
      case engine::ArgKind::kNumber:
      case engine::ArgKind::kExact:
      case engine::ArgKind::kBytes: out[a.name] = a.number; break;
      case engine::ArgKind::kMoney: out[a.name] = Json{{"amount", a.number}, {"currency", a.text}}; break;
      case engine::ArgKind::kMessage:
        out[a.name] = a.nested.empty() ? Json::object() : MessageJson(a.nested.front());
        break;
    }
  }
  return out;
}

Json MessageJson(const engine::Message& message) {
  return Json{{"code", message.id}, {"args", MessageArgsJson(message.args)}, {"message", message.english}};
}

}  // namespace engine::contract

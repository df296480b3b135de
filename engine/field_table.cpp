#include "field_table.h"

namespace engine {

std::string_view KeyGroup(std::string_view key) {
  const size_t dot = key.find('.');
  return dot == std::string_view::npos ? std::string_view{} : key.substr(0, dot);
}

std::string_view KeyName(std::string_view key) {
  const size_t dot = key.find('.');
  return dot == std::string_view::npos ? key : key.substr(dot + 1);
}

}  // namespace engine

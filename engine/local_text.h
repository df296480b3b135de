// Catalog prose in the languages the page speaks: the catalog's English and its 简体中文
// sibling (a JSON field "title" next to "title_zh"). The engine and the CLI use `en`; the
// page picks by its language (wasm/ui/i18n.h Local). Names of products and people are not
// prose and stay plain strings.
#pragma once

#include <string>

namespace engine {

struct LocalText {
  std::string en;
  std::string zh;  // empty only when `en` is

  bool empty() const { return en.empty(); }
};

}  // namespace engine

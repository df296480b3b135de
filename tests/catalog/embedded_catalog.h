// The embedded catalog for tests, failing the test (not crashing) when it does not load.
#pragma once

#include <gtest/gtest.h>

#include "catalog/catalog_loader.h"

namespace catalog {

inline const engine::Catalog& Cat() {
  const auto& c = Embedded();
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().field + ": " + c.error().message);
  return c.value();
}

}  // namespace catalog

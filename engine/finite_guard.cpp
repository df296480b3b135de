#include "finite_guard.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace engine {

void FiniteGuard::Check(std::string_view figure, double value) {
  if (failed_.empty() && !std::isfinite(value)) failed_ = std::string(figure) + " = " + std::to_string(value);
}

void FiniteGuard::Check(std::initializer_list<std::pair<std::string_view, double>> figures) {
  for (const auto& [figure, value] : figures) Check(figure, value);
}

void StrictGuardFailed([[maybe_unused]] const std::string& what) {
#if !defined(NDEBUG) || defined(TRAINSIZER_STRICT_GUARD)
  std::fprintf(stderr, "engine figure not finite: %s\n", what.c_str());
  std::abort();
#endif
}

}  // namespace engine

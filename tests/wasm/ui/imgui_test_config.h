// Dear ImGui configuration for the native UI smoke test (IMGUI_USER_CONFIG): every
// IM_ASSERT is recorded instead of aborting, so the test can fail with the message.
#pragma once

namespace ui_test {
void RecordImGuiAssert(const char* expression, const char* file, int line);
}  // namespace ui_test

#define IM_ASSERT(_EXPR) ((_EXPR) ? (void)0 : ui_test::RecordImGuiAssert(#_EXPR, __FILE__, __LINE__))

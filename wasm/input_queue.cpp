#include "input_queue.h"

#include <GLFW/glfw3.h>
#include <emscripten.h>

#include <algorithm>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "imgui.h"
#include "imgui_impl_glfw.h"

namespace web {
namespace {

enum class Kind { kKey, kButton, kChar, kPaste };

struct Event {
  Kind kind = Kind::kKey;
  int code = 0;      // GLFW key, GLFW mouse button, or the typed character
  int scancode = 0;  // keys
  int action = 0;    // keys and buttons: GLFW_PRESS, GLFW_RELEASE or GLFW_REPEAT
  int mods = 0;      // keys and buttons
  ImVec2 pointer;    // buttons: where the pointer was
  std::string text;  // pastes
};

struct Queue {
  GLFWwindow* window = nullptr;
  std::deque<Event> events;
  bool buttons[GLFW_MOUSE_BUTTON_LAST + 1] = {};  // as delivered
  std::optional<ImVec2> pointer;  // of the last button event delivered this frame
  std::string clipboard;          // what ImGui's own paste reads this frame
};

Queue& TheQueue() {
  static Queue queue;
  return queue;
}

// What the current frame's share has delivered so far.
struct Share {
  std::vector<std::pair<Kind, int>> changed;  // keys and buttons pressed or released
  bool command_key = false;  // a key that edits or moves rather than types was pressed
  bool paste_key = false;    // ImGui's own paste shortcut was pressed
};

// Enter, Backspace, arrows, Ctrl+A...: ImGui applies a frame's typed characters before its
// keys, so text typed after such a key must wait for the next frame to come after it.
bool IsCommandKey(const Event& e) {
  if (e.code >= GLFW_KEY_LEFT_SHIFT && e.code <= GLFW_KEY_RIGHT_SUPER) return false;  // modifiers
  if (e.code >= GLFW_KEY_KP_0 && e.code <= GLFW_KEY_KP_EQUAL && e.code != GLFW_KEY_KP_ENTER) return false;  // type
  return e.code >= GLFW_KEY_ESCAPE || (e.mods & (GLFW_MOD_CONTROL | GLFW_MOD_SUPER)) != 0;
}

// ImGui 1.86's paste shortcut in a text box (imgui_widgets.cpp: is_paste), off macOS.
bool IsPasteKey(const Event& e) {
  return (e.code == GLFW_KEY_V && e.mods == GLFW_MOD_CONTROL) || (e.code == GLFW_KEY_INSERT && e.mods == GLFW_MOD_SHIFT);
}

bool MustWait(const Event& e, const Share& share) {
  switch (e.kind) {
    case Kind::kKey:
    case Kind::kButton:
      if (e.action == GLFW_REPEAT) return false;  // the backend ignores it; ImGui repeats on its own
      return std::find(share.changed.begin(), share.changed.end(), std::make_pair(e.kind, e.code)) !=
             share.changed.end();
    case Kind::kChar: return share.command_key;
    case Kind::kPaste: return !share.paste_key && share.command_key;
  }
  return false;
}

void Deliver(Queue& q, const Event& e, Share& share) {
  switch (e.kind) {
    case Kind::kKey:
      ImGui_ImplGlfw_KeyCallback(q.window, e.code, e.scancode, e.action, e.mods);
      if (e.action == GLFW_REPEAT) break;
      share.changed.emplace_back(e.kind, e.code);
      if (e.action == GLFW_PRESS) {
        share.command_key |= IsCommandKey(e);
        share.paste_key |= IsPasteKey(e);
      }
      break;
    case Kind::kButton:
      ImGui_ImplGlfw_MouseButtonCallback(q.window, e.code, e.action, e.mods);
      if (e.code >= 0 && e.code <= GLFW_MOUSE_BUTTON_LAST) q.buttons[e.code] = e.action != GLFW_RELEASE;
      q.pointer = e.pointer;
      share.changed.emplace_back(e.kind, e.code);
      break;
    case Kind::kChar: ImGui_ImplGlfw_CharCallback(q.window, static_cast<unsigned int>(e.code)); break;
    case Kind::kPaste:
      // The browser pasted for ImGui's own shortcut (the text box, if one is being edited, asks
      // for the clipboard this frame). Otherwise (the browser's menu, Cmd+V) it is typed in:
      // while Ctrl is down ImGui ignores typed characters, which is why the shortcut's paste
      // goes through the clipboard.
      if (share.paste_key) {
        q.clipboard = e.text;
      } else {
        ImGui::GetIO().AddInputCharactersUTF8(e.text.c_str());
      }
      break;
  }
}

void OnKey(GLFWwindow*, int key, int scancode, int action, int mods) {
  TheQueue().events.push_back({Kind::kKey, key, scancode, action, mods, {}, {}});
}

void OnButton(GLFWwindow* window, int button, int action, int mods) {
  double x = 0, y = 0;
  glfwGetCursorPos(window, &x, &y);  // Emscripten's GLFW has just read it from this event
  TheQueue().events.push_back({Kind::kButton, button, 0, action, mods, ImVec2(float(x), float(y)), {}});
}

void OnChar(GLFWwindow*, unsigned int c) {
  TheQueue().events.push_back({Kind::kChar, static_cast<int>(c), 0, 0, 0, {}, {}});
}

// Only a paste in flight: never text from earlier, which may no longer be on the clipboard.
const char* GetClipboard(void*) { return TheQueue().clipboard.c_str(); }

// ImGui's copy and cut (Ctrl+C, Ctrl+X in a text box) go to the system clipboard.
void SetClipboard(void*, const char* text) { EM_ASM(Module.tsHost.copyText(UTF8ToString($0)), text); }

}  // namespace

void InstallInputQueue(GLFWwindow* window) {
  TheQueue().window = window;
  glfwSetKeyCallback(window, OnKey);
  glfwSetMouseButtonCallback(window, OnButton);
  glfwSetCharCallback(window, OnChar);
  ImGuiIO& io = ImGui::GetIO();
  io.GetClipboardTextFn = GetClipboard;
  io.SetClipboardTextFn = SetClipboard;
}

void QueuePaste(std::string text) {
  TheQueue().events.push_back({Kind::kPaste, 0, 0, 0, 0, {}, std::move(text)});
}

void DeliverQueuedInput() {
  Queue& q = TheQueue();
  q.clipboard.clear();
  q.pointer.reset();
  Share share;
  while (!q.events.empty() && !MustWait(q.events.front(), share)) {
    const Event e = std::move(q.events.front());
    q.events.pop_front();
    Deliver(q, e, share);
  }
}

void ApplyQueuedMouse() {
  Queue& q = TheQueue();
  ImGuiIO& io = ImGui::GetIO();
  for (int i = 0; i < IM_ARRAYSIZE(io.MouseDown) && i <= GLFW_MOUSE_BUTTON_LAST; ++i) io.MouseDown[i] = q.buttons[i];
  if (q.pointer) io.MousePos = *q.pointer;
}

}  // namespace web

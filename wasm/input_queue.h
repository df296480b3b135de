// Keys, mouse buttons, typed characters and pasted text, held in arrival order between GLFW
// and ImGui's GLFW backend, and handed over a frame's worth at a time.
//
// Why: ImGui 1.86 has no input event queue (1.87 added one). Its backend sets
// io.KeysDown[key] on a press and clears it on the release, and ImGui looks only at the
// state at the start of each frame, so a press and release that both arrive between two
// frames (a quick Enter while a slow frame draws) were never seen. Here every change of a
// key or button stays visible for at least one frame: a release of something pressed in
// this frame's share waits for the next frame, and so does everything after it.
//
// The browser's paste is ImGui's clipboard: Emscripten's GLFW clipboard is a string inside
// the page, not the system's, so ImGui's own Ctrl+V read nothing (or text copied earlier
// inside the page). js/paste_drop.js passes each paste event's text here, in order with the
// keys around it.
#pragma once

#include <string>

struct GLFWwindow;

namespace web {

// Puts the queue between GLFW and ImGui's backend (call after ImGui_ImplGlfw_InitForOpenGL,
// whose key, mouse-button and character callbacks it replaces), and points ImGui's clipboard
// at the browser's.
void InstallInputQueue(GLFWwindow* window);

// The text of a browser paste event (line ends already '\n'). Taken by ImGui's own
// Ctrl+V / Shift+Insert when that is what the browser pasted for, else typed into the text
// box being edited.
void QueuePaste(std::string text);

// Before ImGui_ImplGlfw_NewFrame: delivers the queued events up to the first that must wait
// for the next frame.
void DeliverQueuedInput();

// After ImGui_ImplGlfw_NewFrame, which reads the mouse as it is now: the buttons as
// delivered, and the pointer where the last delivered press or release happened.
void ApplyQueuedMouse();

}  // namespace web

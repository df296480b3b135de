// Browser entry point: WebGL2 context through Emscripten's GLFW, the frame loop, and
// device-pixel-ratio handling. The canvas fills the window (CSS in web/index.html); its
// backing store is sized to CSS pixels × devicePixelRatio each frame so text stays sharp.
#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "catalog/codec/catalog_loader.h"
#include "catalog/codec/result_json.h"
#include "catalog/codec/scenario_json.h"
#include "page_state.h"
#include "imgui.h"
#include "imgui_internal.h"  // ErrorCheckEndFrameRecover
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "ui/app.h"
#include "ui/i18n.h"
#include "ui/theme.h"

namespace {

struct Platform {
  GLFWwindow* window = nullptr;
  ui::AppState state;
  ui::Fonts fonts;
  float fonts_scale = 0;
  int frame = 0;
  std::string fragment_written;  // what the address bar's #fragment holds now
};

// The planner's share of a 60 Hz frame (16.7 ms); drawing takes most of the rest, so
// typing stays smooth while a new plan is searched.
constexpr double kPlannerShareOfFrameS = 0.006;

Platform* g_platform = nullptr;  // the browser's main loop takes a plain callback

// How much of a wheel event's delta is one GLFW scroll step (pre.js records it per event).
EM_JS(double, WheelDeltaPerStep, (), { return Module.wheelDeltaPerStep || 100; });

// Emscripten's GLFW hands over DOM wheel deltas (pixels, positive down): one notch
// scrolled the whole results pane the wrong way. ImGui wants GLFW's steps, positive up.
void ScrollInSteps(GLFWwindow* window, double dx, double dy) {
  const double per_step = WheelDeltaPerStep();
  ImGui_ImplGlfw_ScrollCallback(window, -dx / per_step, -dy / per_step);
}

// Strings from js/host.js (Module.tsHost); the caller owns nothing: copied out and freed.
EM_JS(char*, HostText, (const char* what), {
  const host = Module.tsHost;
  const key = UTF8ToString(what);
  const value = typeof host[key] === 'function' ? host[key]() : host[key];
  return allocateUTF8(String(value));
});

std::string HostString(const char* what) {
  char* text = HostText(what);
  std::string copy(text);
  std::free(text);
  return copy;
}

bool HostFlag(const char* what) { return HostString(what) == "true"; }

// The browser's side of the page's buttons (ui::HostActions).
ui::HostActions BrowserActions(bool offline, bool embed) {
  ui::HostActions host;
  host.copy_text = [](const std::string& text) { EM_ASM(Module.tsHost.copyText(UTF8ToString($0)), text.c_str()); };
  host.download = [](const std::string& file, const std::string& mime, const std::string& text) {
    EM_ASM(Module.tsHost.download(UTF8ToString($0), UTF8ToString($1), UTF8ToString($2)), file.c_str(), mime.c_str(),
           text.c_str());
  };
  // The offline file is already the offline copy.
  if (!offline) host.download_offline_copy = [] { EM_ASM(Module.tsHost.downloadOffline()); };
  if (embed) host.open_full_tool = [] { EM_ASM(Module.tsHost.openFullTool()); };
  host.page_url = [] { return HostString("pageUrl"); };
  return host;
}

// Keeps the address bar's #fragment and the inputs in step: edits are written back,
// a fragment the user changes by hand is read in.
void SyncAddressBar(ui::AppState& state, std::string& written) {
  if (EM_ASM_INT(return Module.tsHost.takeHashChanged() ? 1 : 0;) != 0) {
    const std::string hash = HostString("hash");
    if (hash != "#" + written) {
      ui::ApplyLink(state, hash);
      written = hash.empty() ? "" : hash.substr(1);
      return;  // state.link_fragment is stale until the next recompute: do not write it back
    }
  }
  if (!state.link_fragment.empty() && state.link_fragment != written) {
    EM_ASM(Module.tsHost.replaceHash(UTF8ToString($0)), state.link_fragment.c_str());
    written = state.link_fragment;
  }
}

// Matches the canvas backing store to its CSS size × devicePixelRatio; returns the ratio.
float SyncCanvasSize(GLFWwindow* window) {
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size("#canvas", &css_w, &css_h);
  const double dpr = emscripten_get_device_pixel_ratio();
  const int fb_w = std::max(1, int(std::lround(css_w * dpr)));
  const int fb_h = std::max(1, int(std::lround(css_h * dpr)));
  int cur_w = 0, cur_h = 0;
  glfwGetWindowSize(window, &cur_w, &cur_h);
  // Not glfwSetWindowSize: Emscripten's asks for fullscreen (rejected, every frame) when the
  // size equals the screen's, as in a maximized browser at devicePixelRatio 1.
  if (cur_w != fb_w || cur_h != fb_h) {
    EM_ASM({
      Browser.setCanvasSize($0, $1);
      if (GLFW.active) { GLFW.active.width = $0; GLFW.active.height = $1; }
    }, fb_w, fb_h);
  }
  return float(dpr);
}

void Frame() {
  Platform& p = *g_platform;
  const float dpr = SyncCanvasSize(p.window);
  if (dpr != p.fonts_scale) {  // first frame, or the window moved to another screen
    p.fonts = ui::LoadFontsAndStyle(dpr, p.state.dark);
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    p.fonts_scale = dpr;
    p.state.dpi_scale = dpr;
  }
  glfwPollEvents();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  // A library exception (the JSON boundary throws on misuse) must not stop the page: the
  // frame is closed cleanly and the message goes to the console and the status box.
  try {
    ui::RecomputeIfDirty(p.state);
    ui::AdvancePlan(p.state, kPlannerShareOfFrameS);
    ui::DrawApp(p.state, p.fonts);
    SyncAddressBar(p.state, p.fragment_written);
  } catch (const std::exception& e) {
    ImGui::ErrorCheckEndFrameRecover(nullptr);
    EM_ASM({ console.error('TrainSizer frame error: ' + UTF8ToString($0)); }, e.what());
  }
  ImGui::Render();
  int fb_w = 0, fb_h = 0;
  glfwGetFramebufferSize(p.window, &fb_w, &fb_h);
  glViewport(0, 0, fb_w, fb_h);
  const ImVec4 clear = ImGui::ColorConvertU32ToFloat4(ui::Colors().clear);
  glClearColor(clear.x, clear.y, clear.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  // Tell the page after a couple of real frames that it is drawn (tests wait on this).
  if (++p.frame == 2) EM_ASM(if (Module.onFirstFrames) Module.onFirstFrames(););
}

}  // namespace

std::string web::PageStateJson() {
  if (g_platform == nullptr) return "{}";
  const ui::AppState& s = g_platform->state;
  catalog::Json j = {{"scenario", catalog::ScenarioToJson(s.inputs.scenario)},
                     {"example", s.example_id},
                     {"goal",
                      {{"deadline_days", s.goal.deadline_days},
                       {"budget", s.goal.budget},
                       {"currency", s.goal.currency},
                       {"max_gpus", s.goal.max_gpus}}},
                     {"dark", s.dark},
                     {"lang", ui::LanguageCode(ui::Language())},
                     {"embed", s.embed},
                     {"link", s.link_fragment},
                     {"link_notice", s.link_notice},
                     {"planning", s.plan_search.has_value()},
                     {"document", ui::ScenarioDocument(s)},
                     {"anchors", s.anchors}};
  if (s.last_good) j["result"] = catalog::EstimateToJson(*s.last_good);
  if (!s.result.ok()) j["error"] = catalog::ErrorToJson(s.result.error())["error"];
  return j.dump();
}

int main() {
  const auto& catalog = catalog::Embedded();
  if (!catalog.ok()) {
    std::fprintf(stderr, "catalog error: %s: %s\n", catalog.error().field.c_str(), catalog.error().message.c_str());
    return 1;
  }
  if (!glfwInit()) {
    std::fprintf(stderr, "GLFW could not start\n");
    return 1;
  }
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  static Platform platform;
  g_platform = &platform;
  platform.window = glfwCreateWindow(1280, 800, "TrainSizer", nullptr, nullptr);
  if (platform.window == nullptr) {
    EM_ASM(if (Module.onFatal) Module.onFatal("WebGL2 context could not be created."););
    return 1;
  }
  glfwMakeContextCurrent(platform.window);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no persisted window layout
  ImGui_ImplGlfw_InitForOpenGL(platform.window, true);
  glfwSetScrollCallback(platform.window, ScrollInSteps);
  ImGui_ImplOpenGL3_Init("#version 300 es");
  platform.state = ui::MakeInitialState(catalog.value());
  // Follow the browser's colour preference at start; the header button toggles it.
  platform.state.dark = EM_ASM_INT(return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 1 : 0;) != 0;
  // Language: ?lang= or the link's lang=, else the browser's.
  const std::string query_lang = HostString("queryLang");
  ui::SetLanguage(ui::LanguageFromCode(query_lang.empty() ? HostString("browserLang") : query_lang));
  platform.state.lang_chosen = !query_lang.empty();
  platform.state.embed = HostFlag("isEmbed");
  platform.state.host = BrowserActions(HostFlag("isOffline"), platform.state.embed);
  ui::ApplyLink(platform.state, HostString("hash"));
  emscripten_set_main_loop(Frame, 0, false);
  return 0;
}

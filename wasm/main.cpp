// Browser entry point: WebGL2 context through Emscripten's GLFW, the frame loop, and
// device-pixel-ratio handling. The canvas fills the window (CSS in web/index.html); its
// backing store is sized to CSS pixels × devicePixelRatio each frame so text stays sharp.
#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/bind.h>
#include <emscripten/html5.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>

#include "engine/service/api.h"
#include "catalog/catalog_loader.h"
#include "engine/contract/message_json.h"
#include "engine/contract/plan_json.h"
#include "engine/contract/result_json.h"
#include "engine/contract/scenario_json.h"
#include "engine/link/utf8.h"
#include "page_session.h"
#include "page_state.h"
#include "imgui.h"
#include "imgui_internal.h"  // ErrorCheckEndFrameRecover
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "input_queue.h"
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
  // Surviving an exception or allocation failure in a frame (Recover): the last inputs
  // that computed, planned and drew cleanly, and what the page is busy with now.
  std::optional<ui::GoodFrame> good;
  bool changed = true;    // inputs, catalog or plan changed since `good` was saved
  int failures = 0;       // frames that threw since the page last settled cleanly
  bool safe_mode = false;  // after repeated failures: draw only the notice until a new link
  // What the current work is for, named in the notice if it throws (a link: its text).
  std::optional<ui::RefusedWork> cause;
  std::string cause_link;
  int js_catalog_generation = 0;  // TrainSizer.setCatalogOverlay calls seen (js/post.js)
  // TrainSizer._drawnText(): while on, each frame's text is captured with every section
  // open (ImGui's text log), so a test reads what a person could read on the canvas.
  bool capture_text = false;
  std::string drawn_text;
};

// The planner's share of a 60 Hz frame (16.7 ms); drawing takes most of the rest, so
// typing stays smooth while a new plan is searched.
constexpr double kPlannerShareOfFrameS = 0.006;

Platform* g_platform = nullptr;  // the browser's main loop takes a plain callback

void SetCause(Platform& p, ui::RefusedWork work, std::string link = "") {
  p.cause = work;
  p.cause_link = std::move(link);
}

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
  host.show_printable = [](const std::string& markdown, const std::string& lang, const std::string& print_label,
                           const std::string& close_label) {
    EM_ASM(Module.tsHost.showPrintable(UTF8ToString($0), UTF8ToString($1), UTF8ToString($2), UTF8ToString($3)),
           markdown.c_str(), lang.c_str(), print_label.c_str(), close_label.c_str());
  };
  return host;
}

// Keeps the address bar's #fragment and the inputs in step: edits are written back,
// a fragment the user changes by hand is read in.
std::string Shorten(const std::string& text, size_t most = 160);

// Test hook for tests/web/survive.test.mjs, standing in for an engine bug: with
// Module.tsFault = {stage, kind, times} the next `times` passes through `stage` ("link",
// "recompute", "plan", "draw", "current") throw: kind "bad_alloc", "exception" or "other"
// (not a std::exception). Unset, it costs one JS call per stage and frame.
void MaybeFault(const char* stage) {
  const int kind = EM_ASM_INT({
    const f = Module.tsFault;
    if (!f || f.stage !== UTF8ToString($0) || !(f.times > 0)) return 0;
    f.times--;
    return f.kind === 'bad_alloc' ? 1 : f.kind === 'other' ? 3 : 2;
  }, stage);
  if (kind == 1) throw std::bad_alloc();
  if (kind == 2) throw std::runtime_error(std::string("test fault in ") + stage);
  if (kind == 3) throw kind;
}

void SyncAddressBar(Platform& p) {
  ui::AppState& state = p.state;
  std::string& written = p.fragment_written;
  if (EM_ASM_INT(return Module.tsHost.takeHashChanged() ? 1 : 0;) != 0) {
    const std::string hash = HostString("hash");
    if (hash != "#" + written) {
      // Read first: if the link throws, the address bar gets the restored inputs back.
      SetCause(p, ui::RefusedWork::kLink, Shorten(hash));
      p.changed = true;
      p.safe_mode = false;  // a new link is a new chance
      state.refusal.reset();
      MaybeFault("link");
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

// Text for the notice and the console: at most `most` bytes, invalid UTF-8 and control
// characters replaced by '?' (ImGui and the JSON writer need valid UTF-8).
std::string Shorten(const std::string& text, size_t most) {
  std::string out;
  for (size_t i = 0; i < text.size() && out.size() < most;) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const size_t n = engine::link::Utf8SequenceLength(text, i);
    const bool valid = n > 0 && !(n == 1 && (c < 0x20 || c == 0x7F));
    if (valid) {
      out.append(text, i, n);
      i += n;
    } else {
      out += '?';
      ++i;
    }
  }
  if (out.size() >= most && out.size() < text.size()) out += "...";
  return out;
}

// The page's first screen again, with the built-in catalog; what the person chose about
// the page itself (theme, language, embed) and its host actions stay.
void FactoryReset(Platform& p) {
  ui::AppState& old = p.state;
  web::PageSession().SetCatalogOverlay("");  // removes any overlay (never fails)
  ui::AppState fresh = ui::MakeInitialState(web::PageSession());
  fresh.dpi_scale = old.dpi_scale;
  fresh.dark = old.dark;
  fresh.embed = old.embed;
  fresh.lang_chosen = old.lang_chosen;
  fresh.theme_chosen = old.theme_chosen;
  fresh.host = std::move(old.host);
  fresh.overlay_text = std::move(old.overlay_text);
  fresh.catalog_generation = old.catalog_generation + 1;
  if (!fresh.overlay_text.empty()) fresh.overlay_status = ui::T("Removed after an internal error: the built-in catalog is in force.");
  p.state = std::move(fresh);
  p.good.reset();
}

// An exception or allocation failure in a frame: the page goes back to the last inputs
// that worked, says what it refused and why, and keeps drawing. Each further failure in
// a row falls back further: without the catalog overlay, then the first screen, then
// only the notice (until a new link comes in).
void Recover(Platform& p, const char* what) {
  ui::AppState& state = p.state;
  ui::Refusal refusal{p.cause.value_or(ui::RefusedWork::kDrawing), p.cause_link, Shorten(what, 240),
                      ui::RefusalOutcome::kLastGoodBack};
  ++p.failures;
  ui::RefusalOutcome& outcome = refusal.outcome;
  try {
    if (p.failures == 1 && p.good) {
      ui::RestoreGoodFrame(state, *p.good);
      outcome = ui::RefusalOutcome::kLastGoodBack;
    } else if (p.failures == 2 && p.good) {
      state.session->SetCatalogOverlay("");  // the catalog may be what fails now
      state.assumption_edits = engine::contract::Json::object();
      if (!state.overlay_text.empty()) {
        state.overlay_status = ui::T("Removed after an internal error: the built-in catalog is in force.");
        state.overlay_error.reset();
      }
      state.catalog = &state.session->catalog();
      ++state.catalog_generation;
      ui::RestoreGoodFrame(state, *p.good);  // recomputed at the next frame, on the built-in catalog
      outcome = ui::RefusalOutcome::kLastGoodBuiltin;
    } else {
      FactoryReset(p);
      if (p.failures >= 4) {  // even the first screen fails: stop computing until a new link
        p.state.dirty = false;
        p.state.result = engine::MakeInputError("", "input.page.stopped");
        p.safe_mode = true;
        outcome = ui::RefusalOutcome::kStopped;
      } else {
        outcome = ui::RefusalOutcome::kStartedOver;
      }
    }
  } catch (...) {
    p.safe_mode = true;
    outcome = ui::RefusalOutcome::kStopped;
  }
  p.state.refusal = refusal;
  p.state.plan_search.reset();
  // What the next frames work on, named if they throw too.
  SetCause(p, p.failures == 1 && p.good   ? ui::RefusedWork::kLastGood
              : p.failures == 2 && p.good ? ui::RefusedWork::kLastGoodBuiltin
                                          : ui::RefusedWork::kFirstScreen);
  p.changed = true;
  p.fragment_written = "\x01";  // differs from any fragment: the address bar gets the inputs in force
  // "TrainSizer refused the link … after an internal error: …": the notice's English text.
  EM_ASM({ console.error('TrainSizer r' + UTF8ToString($0).substring(1)); },
         ui::RefusalMessage(refusal).english.c_str());
}

// Notices what the page is about to recompute, and a catalog swapped through the JS API
// (an overlay replaced by another lives at the same address: the pointer check in
// RecomputeIfDirty cannot see it).
void NoteWork(Platform& p) {
  ui::AppState& state = p.state;
  const int js_generation = EM_ASM_INT(return Module.tsCatalogGeneration | 0;);
  if (js_generation != p.js_catalog_generation) {
    p.js_catalog_generation = js_generation;
    state.catalog = &state.session->catalog();
    state.last_good.reset();
    state.plan = engine::MakeInputError("", "input.page.not_planned");
    state.plan_search.reset();
    ++state.catalog_generation;
    state.dirty = true;
    SetCause(p, ui::RefusedWork::kJsOverlay);
  }
  if (state.overlay_pending && !p.cause) SetCause(p, ui::RefusedWork::kOverlayOrEdit);
  if (state.dirty && !p.cause) SetCause(p, ui::RefusedWork::kLastEdit);
  if (state.dirty || state.overlay_pending || state.plan_search) p.changed = true;
}

// After a frame without exception: once the inputs are computed and planned, they are
// the ones to come back to.
void NoteGoodFrame(Platform& p) {
  const ui::AppState& state = p.state;
  if (state.dirty || state.overlay_pending || state.plan_search || p.safe_mode) return;
  if (p.changed) {
    p.good = ui::SaveGoodFrame(state);
    p.changed = false;
  }
  p.failures = 0;
  p.cause.reset();
}

// Only the notice, when even the first screen fails.
void DrawSafeMode(Platform& p) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->WorkPos);
  ImGui::SetNextWindowSize(viewport->WorkSize);
  ImGui::Begin("TrainSizer", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove);
  if (p.state.refusal) ImGui::TextWrapped("%s", ui::RefusalText(*p.state.refusal).c_str());
  ImGui::TextWrapped("%s", ui::SafeModeHint(ui::Language()));
  ImGui::End();
}

void AppFrame(Platform& p) {
  if (p.safe_mode) {
    DrawSafeMode(p);
  } else {
    NoteWork(p);
    const bool recompute = p.state.dirty || p.state.overlay_pending;
    ui::RecomputeIfDirty(p.state);
    if (recompute) MaybeFault("recompute");  // after it: the state is half updated
    if (p.state.plan_search) {
      if (!p.cause) SetCause(p, ui::RefusedWork::kPlanSearch);
      MaybeFault("plan");
      ui::AdvancePlan(p.state, kPlannerShareOfFrameS);
    }
    MaybeFault("draw");
    if (GImGui->LogEnabled) ImGui::LogFinish();  // a frame that threw while capturing
    ui::DrawApp(p.state, p.fonts, p.capture_text ? &p.drawn_text : nullptr);
  }
  p.state.dropped.reset();  // a drop no document box took this frame
  SyncAddressBar(p);
}

void FrameBody(Platform& p) {
  const float dpr = SyncCanvasSize(p.window);
  if (dpr != p.fonts_scale) {  // first frame, or the window moved to another screen
    p.fonts = ui::LoadFontsAndStyle(dpr, p.state.dark);
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    p.fonts_scale = dpr;
    p.state.dpi_scale = dpr;
  }
  glfwPollEvents();
  web::DeliverQueuedInput();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  web::ApplyQueuedMouse();
  ImGui::NewFrame();
  // No exception stops the page: the frame is closed cleanly, the inputs go back to the
  // last that worked, and the notice box and the console say what was refused.
  bool failed = false;
  try {
    AppFrame(p);
  } catch (const std::bad_alloc&) {
    ImGui::ErrorCheckEndFrameRecover(nullptr);
    failed = true;
    Recover(p, "out of memory (std::bad_alloc)");
  } catch (const std::exception& e) {
    ImGui::ErrorCheckEndFrameRecover(nullptr);
    failed = true;
    Recover(p, e.what());
  } catch (...) {
    ImGui::ErrorCheckEndFrameRecover(nullptr);
    failed = true;
    Recover(p, "unknown exception");
  }
  if (!failed) NoteGoodFrame(p);
  ImGui::Render();
  int fb_w = 0, fb_h = 0;
  glfwGetFramebufferSize(p.window, &fb_w, &fb_h);
  glViewport(0, 0, fb_w, fb_h);
  const ImVec4 clear = ImGui::ColorConvertU32ToFloat4(ui::Colors().clear);
  glClearColor(clear.x, clear.y, clear.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Frame() {
  Platform& p = *g_platform;
  // Last line of defence (ImGui, fonts, GL, the recovery itself): an exception escaping
  // into the browser's main loop would stop it for good.
  try {
    FrameBody(p);
  } catch (...) {
    if (ImGui::GetCurrentContext() != nullptr && GImGui->WithinFrameScope) {
      try {
        ImGui::ErrorCheckEndFrameRecover(nullptr);
        ImGui::EndFrame();
      } catch (...) {
      }
    }
    p.fonts_scale = 0;  // rebuild the fonts next frame, in case that is what failed
    EM_ASM(console.error('TrainSizer frame error outside the page: the next frame starts over'););
  }
  // Tell the page after a couple of real frames that it is drawn (tests wait on this).
  if (++p.frame == 2) EM_ASM(if (Module.onFirstFrames) Module.onFirstFrames(););
  // For tests and embedding pages: frames drawn so far, whether a plan search runs, and
  // whether anything is still to compute (an edit or link not yet estimated and planned).
  const ui::AppState& s = p.state;
  EM_ASM({ Module.tsFrames = $0; Module.tsPlanning = $1 != 0; Module.tsBusy = $2 != 0; }, p.frame,
         s.plan_search ? 1 : 0, s.plan_search || s.dirty || s.overlay_pending ? 1 : 0);
}

}  // namespace

namespace {

// A link's notices as {"code", "args", "message"} objects (engine/contract/message_json.h).
engine::contract::Json NoticesJson(const std::vector<engine::Message>& notices) {
  engine::contract::Json out = engine::contract::Json::array();
  for (const engine::Message& notice : notices) out.push_back(engine::contract::MessageJson(notice));
  return out;
}

std::string PageStateJsonUnguarded() {
  const ui::AppState& s = g_platform->state;
  engine::contract::Json j = {{"scenario", engine::contract::ScenarioToJson(s.inputs.scenario)},
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
                     {"link_notice", NoticesJson(s.link_notice)},
                     {"refusal", s.refusal ? ui::RefusalMessage(*s.refusal).english : ""},
                     {"frames", g_platform->frame},
                     {"planning", s.plan_search.has_value()},
                     {"document", ui::ScenarioDocument(s)},
                     {"anchors", s.anchors}};
  if (s.last_good) j["result"] = engine::contract::EstimateToJson(*s.last_good);
  if (const auto base = ui::ComputedScenario(s); !s.plan_search && s.plan.ok() && base.ok()) {
    j["plan"] = engine::contract::PlanToJson(s.plan.value(), s.goal, *s.catalog, base.value());
  }
  if (!s.result.ok()) j["error"] = engine::contract::ErrorToJson(s.result.error())["error"];
  // A link's text can carry invalid UTF-8 (%FF): replaced, not thrown on (type_error 316).
  return j.dump(-1, ' ', false, engine::contract::Json::error_handler_t::replace);
}

}  // namespace

// TrainSizer.current(): never throws into JavaScript.
std::string web::PageStateJson() {
  if (g_platform == nullptr) return "{}";
  try {
    MaybeFault("current");
    return PageStateJsonUnguarded();
  } catch (const std::exception& e) {
    return engine::contract::ErrorToJson(engine::MakeInputError("page", "input.internal_error",
                                                       {engine::TextArg("detail", Shorten(e.what()))}))
        .dump();
  } catch (...) {
    return engine::contract::ErrorToJson(engine::MakeInputError("page", "input.internal_error.unknown")).dump();
  }
}

namespace {

// TrainSizer.applyLink(fragment): the link read as opening it does (the page recomputes at
// its next frame). A link that throws is refused like one arriving through the address
// bar: the last good inputs stay and the notice says why.
std::string ApplyLinkJson(const std::string& fragment) {
  if (g_platform == nullptr) {
    return engine::contract::ErrorToJson(engine::MakeInputError("link", "input.page.not_started")).dump();
  }
  Platform& p = *g_platform;
  std::string failure;
  try {
    SetCause(p, ui::RefusedWork::kLink, Shorten(fragment));
    p.changed = true;
    p.safe_mode = false;
    p.state.refusal.reset();
    MaybeFault("link");
    ui::ApplyLink(p.state, fragment);
    return engine::contract::Json{{"ok", true}, {"link_notice", NoticesJson(p.state.link_notice)}}.dump(
        -1, ' ', false, engine::contract::Json::error_handler_t::replace);
  } catch (const std::bad_alloc&) {
    failure = "out of memory (std::bad_alloc)";
  } catch (const std::exception& e) {
    failure = e.what();
  } catch (...) {
    failure = "unknown exception";
  }
  Recover(p, failure.c_str());
  // The refusal as the link's error: {"field": "link", "code": "input.refused", ...}.
  const engine::InputError error =
      p.state.refusal
          ? engine::MakeInputError("link", "input.refused", ui::RefusalMessage(*p.state.refusal).args)
          : engine::MakeInputError("link", "input.internal_error", {engine::TextArg("detail", Shorten(failure))});
  return engine::contract::ErrorToJson(error).dump(-1, ' ', false, engine::contract::Json::error_handler_t::replace);
}

// TrainSizer._drawnText(on): turns text capture on or off and returns the text of the last
// captured frame ("" until a frame has been drawn with capture on).
std::string DrawnText(bool on) {
  if (g_platform == nullptr) return "";
  g_platform->capture_text = on;
  return g_platform->drawn_text;
}

}  // namespace

// Module.pasteText(text) (js/paste_drop.js): a browser paste, for the text box being edited.
static void PasteText(const std::string& text) { web::QueuePaste(text); }

// Module.dropText(text, x, y) (js/paste_drop.js): a file or text dropped at x, y (framebuffer
// pixels), for the document box under it at the next frame.
static void DropText(const std::string& text, double x, double y) {
  if (g_platform != nullptr) g_platform->state.dropped = ui::DroppedText{float(x), float(y), text};
}

// Test hook: an exception that leaves the module into JavaScript, as a JS API call's would
// (js/post.js must turn it into an error object and keep the stack usable).
static std::string TestThrow(const std::string& what) { throw std::runtime_error("test exception: " + what); }

EMSCRIPTEN_BINDINGS(trainsizer_page) {
  emscripten::function("applyLinkJson", &ApplyLinkJson);
  emscripten::function("testThrowJson", &TestThrow);
  emscripten::function("drawnText", &DrawnText);
  emscripten::function("pasteText", &PasteText);
  emscripten::function("dropText", &DropText);
}

int main() {
  const auto& catalog = web::PageSession().catalog_or_error();
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
  web::InstallInputQueue(platform.window);  // keys and clicks shorter than a frame are not lost
  glfwSetScrollCallback(platform.window, ScrollInSteps);
  ImGui_ImplOpenGL3_Init("#version 300 es");
  platform.state = ui::MakeInitialState(web::PageSession());
  // From here on nothing may stop the page from starting: a link that throws leaves the
  // first screen and a notice (Recover), not "Uncaught WebAssembly.Exception".
  try {
  // Follow the browser's colour preference at start; the header button toggles it.
  platform.state.dark = EM_ASM_INT(return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 1 : 0;) != 0;
  // Language: ?lang= or the link's lang=, else the browser's.
  const std::string query_lang = HostString("queryLang");
  ui::SetLanguage(ui::LanguageFromCode(query_lang.empty() ? HostString("browserLang") : query_lang));
  platform.state.lang_chosen = !query_lang.empty();
  ui::FollowLanguageMarket(platform.state);  // a link's own goal replaces it below
  // A team in China can neither rent the first screen's H100 there nor buy it: the 中文
  // first screen shows the A800, which Chinese clouds rent (a link's GPU replaces it).
  if (ui::Language() == ui::Lang::kZh) platform.state.inputs.scenario.gpu_id = "a800-sxm-80gb";
  platform.state.embed = HostFlag("isEmbed");
  platform.state.host = BrowserActions(HostFlag("isOffline"), platform.state.embed);
    const std::string hash = HostString("hash");
    SetCause(platform, ui::RefusedWork::kLink, Shorten(hash));
    MaybeFault("link");
    ui::ApplyLink(platform.state, hash);
  } catch (const std::bad_alloc&) {
    Recover(platform, "out of memory (std::bad_alloc)");
  } catch (const std::exception& e) {
    Recover(platform, e.what());
  } catch (...) {
    Recover(platform, "unknown exception");
  }
  emscripten_set_main_loop(Frame, 0, false);
  return 0;
}

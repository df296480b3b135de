// The page's one session (catalog + overlay): the JS API (wasm/js_api.cpp) owns it and the
// page's AppState computes with it, so TrainSizer.setCatalogOverlay and the overlay editor
// act on the same catalog.
#pragma once

#include "engine/service/api.h"

namespace web {

engine::service::Session& PageSession();

}  // namespace web

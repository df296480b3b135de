// Runs after the module is defined: once the runtime is up, window.TrainSizer gets its
// API. Every call goes through the same C++ entry point as the CLI, so identical input
// gives identical JSON; bad input returns {error: {field, message}} instead of throwing.
// Nothing throws into the caller either: an exception escaping the C++ side (or a reply
// that does not parse) comes back as {error: {field: 'internal', message}}, with the
// WebAssembly stack put back where the call found it, and the page keeps drawing.
(function () {
  function asText(input) { return typeof input === 'string' ? input : JSON.stringify(input); }

  function internalError(e) {
    var what = e && e.message ? e.message : String(e);
    if (typeof WebAssembly !== 'undefined' && WebAssembly.Exception && e instanceof WebAssembly.Exception) {
      what = 'a C++ exception escaped';
    }
    return { error: { field: 'internal', message: 'internal error: ' + what } };
  }

  // Runs `body`; on any exception restores the WebAssembly stack pointer (an exception
  // that leaves the module skips the epilogues that would) and returns an error object.
  function guarded(name, body) {
    return function () {
      var sp = typeof stackSave === 'function' ? stackSave() : null;
      try {
        return body.apply(this, arguments);
      } catch (e) {
        if (sp !== null) { try { stackRestore(sp); } catch (ignored) { /* nothing more to do */ } }
        var answer = internalError(e);
        console.warn('TrainSizer.' + name + ': ' + answer.error.message);
        return answer;
      }
    };
  }

  // Wraps a C++ JSON-text function: accepts an object or JSON text, returns an object.
  function jsonCall(native) {
    return function (input) {
      var text;
      try { text = asText(input); } catch (e) {
        return { error: { field: 'scenario', message: 'cannot be turned into JSON: ' + e.message } };
      }
      if (typeof text !== 'string') return { error: { field: 'scenario', message: 'is missing' } };
      return JSON.parse(native(text));
    };
  }

  var previous = Module.onRuntimeInitialized;
  Module.onRuntimeInitialized = function () {
    if (previous) previous();
    var api = window.TrainSizer;
    api.version = guarded('version', function () { return JSON.parse(Module.versionJson()).version; });
    api.info = guarded('info', function () { return JSON.parse(Module.versionJson()); });
    api.estimate = guarded('estimate', jsonCall(Module.estimateJson));
    api.estimateJson = guarded('estimateJson', function (text) { return Module.estimateJson(String(text)); });
    // Searches GPUs, counts and layouts within deadline_days / budget / objective /
    // purchase (fields of the same scenario object); returns picks, pareto, rejected.
    api.plan = guarded('plan', jsonCall(Module.planJson));
    api.planJson = guarded('planJson', function (text) { return Module.planJson(String(text)); });
    api.catalog = guarded('catalog', function () { return JSON.parse(Module.catalogJson()); });
    // Ready-to-run launch configs: {deepspeed, torchrun, llamafactory, megatron} texts,
    // notes [{tool, note}] for settings a tool cannot express, and plan (batch numbers).
    api.launchConfigs = guarded('launchConfigs', jsonCall(Module.launchConfigsJson));
    // Reads a team's own training configs into a scenario, as `trainsizer import` does:
    // `input` is one config's text (several joined by lines of ---), or an array of texts
    // or {name, text}; options.from names the tool (default 'auto'), options.base the
    // scenario the import lands on (default: the page's current one). Returns {scenario,
    // files, used, ignored, assumed}, or {error: {field, message}} with the file, line and
    // column. Nothing changes on the page: apply the scenario with estimate() or a link.
    api.importConfig = guarded('importConfig', function (input, options) {
      var request = {};
      if (typeof input === 'string') {
        request.text = input;
      } else if (Array.isArray(input)) {
        request.files = input.map(function (f, i) {
          return typeof f === 'string' ? { name: 'file ' + (i + 1), text: f } : f;
        });
      } else {
        return { error: { field: 'import', message: 'must be the config text or an array of files' } };
      }
      options = options || {};
      if (options.from) request.from = String(options.from);
      request.base = options.base || JSON.parse(Module.pageStateJson()).scenario || {};
      return JSON.parse(Module.importConfigsJson(JSON.stringify(request)));
    });
    // what: 'estimate' | 'plan'; format: 'json' | 'csv' | 'markdown' | 'table'. Returns the
    // text, or {error: {field, message}} on bad input.
    api.exportText = guarded('exportText', function (scenario, what, format) {
      var text;
      try { text = asText(scenario); } catch (e) {
        return { error: { field: 'scenario', message: 'cannot be turned into JSON: ' + e.message } };
      }
      if (typeof text !== 'string') return { error: { field: 'scenario', message: 'is missing' } };
      var out = Module.exportText(text, String(what), String(format));
      return out.lastIndexOf('{"error":', 0) === 0 ? JSON.parse(out) : out;
    });
    // What the page shows now: its scenario, the last valid result, any input error.
    api.current = guarded('current', function () { return JSON.parse(Module.pageStateJson()); });
    // Reads a link fragment ('#v=1&...' or without '#') into the page, as opening the link
    // does: {ok: true, link_notice: [...]} (the page recomputes at its next frame), or
    // {error: {field, message}} when it was refused (the page keeps its last good inputs).
    api.applyLink = guarded('applyLink', function (fragment) {
      return JSON.parse(Module.applyLinkJson(fragment == null ? '' : String(fragment)));
    });
    // For tests only: with on = true, each frame records its text with every section open;
    // returns the text of the last such frame (wait a frame after turning it on).
    api._drawnText = guarded('_drawnText', function (on) { return Module.drawnText(on !== false); });
    // For tests only: a C++ exception thrown out of the module into this call.
    api._testThrow = guarded('_testThrow', function (what) { return Module.testThrowJson(String(what)); });
    // Merge your own catalog JSON (negotiated prices, private clouds, a new GPU); pass ''
    // or null to remove it. Returns {ok, ...counts} or {error: {field, message}}.
    api.setCatalogOverlay = guarded('setCatalogOverlay', function (overlay) {
      // The page sees the swap at its next frame (wasm/main.cpp), even when an overlay
      // replaces another at the same address.
      Module.tsCatalogGeneration = (Module.tsCatalogGeneration | 0) + 1;
      return jsonCall(Module.setCatalogOverlayJson)(overlay == null ? '' : overlay);
    });
  };
})();

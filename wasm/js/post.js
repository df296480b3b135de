// Runs after the module is defined: once the runtime is up, window.TrainSizer gets its
// API. Every call goes through the same C++ entry point as the CLI, so identical input
// gives identical JSON; bad input returns {error: {field, message}} instead of throwing.
(function () {
  function asText(input) { return typeof input === 'string' ? input : JSON.stringify(input); }

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
    api.version = function () { return JSON.parse(Module.versionJson()).version; };
    api.info = function () { return JSON.parse(Module.versionJson()); };
    api.estimate = jsonCall(Module.estimateJson);
    api.estimateJson = function (text) { return Module.estimateJson(String(text)); };
    // Searches GPUs, counts and layouts within deadline_days / budget / objective /
    // purchase (fields of the same scenario object); returns picks, pareto, rejected.
    api.plan = jsonCall(Module.planJson);
    api.planJson = function (text) { return Module.planJson(String(text)); };
    api.catalog = function () { return JSON.parse(Module.catalogJson()); };
    // Ready-to-run launch configs: {deepspeed, torchrun, llamafactory, megatron} texts,
    // notes [{tool, note}] for settings a tool cannot express, and plan (batch numbers).
    api.launchConfigs = jsonCall(Module.launchConfigsJson);
    // what: 'estimate' | 'plan'; format: 'json' | 'csv' | 'markdown' | 'table'. Returns the
    // text, or {error: {field, message}} on bad input.
    api.exportText = function (scenario, what, format) {
      var text;
      try { text = asText(scenario); } catch (e) {
        return { error: { field: 'scenario', message: 'cannot be turned into JSON: ' + e.message } };
      }
      if (typeof text !== 'string') return { error: { field: 'scenario', message: 'is missing' } };
      var out = Module.exportText(text, String(what), String(format));
      return out.lastIndexOf('{"error":', 0) === 0 ? JSON.parse(out) : out;
    };
    // What the page shows now: its scenario, the last valid result, any input error.
    api.current = function () { return JSON.parse(Module.pageStateJson()); };
    // Merge your own catalog JSON (negotiated prices, private clouds, a new GPU); pass ''
    // or null to remove it. Returns {ok, ...counts} or {error: {field, message}}.
    api.setCatalogOverlay = function (overlay) {
      return jsonCall(Module.setCatalogOverlayJson)(overlay == null ? '' : overlay);
    };
  };
})();

// Runs before the WebAssembly runtime starts: points the module at the page's canvas,
// checks for WebGL2, reports progress and fatal errors in the page's status box, and
// creates window.TrainSizer with its `ready` promise (js/post.js fills in the API).
(function () {
  var statusBox = document.getElementById('status');
  function showStatus(text, isError) {
    if (!statusBox) return;
    statusBox.textContent = text;
    statusBox.className = isError ? 'error' : '';
    statusBox.hidden = !text;
  }
  var resolveReady, rejectReady;
  window.TrainSizer = {
    ready: new Promise(function (resolve, reject) { resolveReady = resolve; rejectReady = reject; }),
    isReady: false,
  };
  Module.canvas = document.getElementById('canvas');
  // Emscripten 3.1.6's GLFW passes the wheel event's raw deltaX/deltaY to the scroll
  // callback: in pixels (or lines, or pages) and positive downwards, where GLFW promises
  // steps, positive upwards. main.cpp divides by this before ImGui sees it. Registered
  // first, this capture listener runs before GLFW's on the same canvas.
  Module.wheelDeltaPerStep = 100;
  Module.canvas.addEventListener('wheel', function (event) {
    // A notch is 100 px in Chromium and Safari, 3 lines in Firefox, one page rarely.
    Module.wheelDeltaPerStep = event.deltaMode === 1 ? 3 : event.deltaMode === 2 ? 1 / 8 : 100;
  }, true);
  Module.onFatal = function (message) {
    showStatus(message, true);
    rejectReady(new Error(message));
  };
  var probe = document.createElement('canvas');
  if (!probe.getContext('webgl2')) {
    Module.onFatal('TrainSizer needs WebGL2, which this browser has turned off or does not support. ' +
                   'Try a current Chrome, Edge, Firefox or Safari, or enable hardware acceleration.');
  }
  Module.setStatus = function (text) { if (text) showStatus('Loading TrainSizer… ' + text, false); };
  Module.onAbort = function (what) { Module.onFatal('TrainSizer stopped: ' + what); };
  Module.onFirstFrames = function () {
    showStatus('', false);
    window.TrainSizer.firstFrameMs = performance.now();  // since navigation (scripts/budgets.sh)
    window.TrainSizer.isReady = true;
    resolveReady(true);
  };
  window.addEventListener('error', function (event) {
    if (!window.TrainSizer.isReady) Module.onFatal('TrainSizer failed to start: ' + event.message);
  });
})();

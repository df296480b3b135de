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

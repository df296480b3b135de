// The browser's paste and drop, handed to the page. ImGui draws its text boxes into the
// canvas, so a paste (Ctrl+V, Shift+Insert, the browser's menu) or a dropped file has no
// HTML text field to land in: the paste's text goes to the text box being edited
// (wasm/input_queue.cpp, in order with the keys around it), a drop's text replaces the
// document box under it (wasm/ui/widgets.cpp: DocumentBox). Emscripten's GLFW does not
// cancel Ctrl+V or Shift+Insert (only Backspace and Tab), so the browser still fires 'paste'.
(function () {
  // A dropped file larger than this is not a config or an overlay: refused rather than typed
  // into a text box for seconds.
  var MOST_DROPPED_BYTES = 4 * 1024 * 1024;

  // Windows and old Mac line ends would reach the text box as stray characters.
  function plainText(text) { return String(text).replace(/\r\n?/g, '\n'); }

  // Where the event happened in the canvas's backing-store pixels (CSS pixels ×
  // devicePixelRatio), as Emscripten's GLFW reports the mouse and ImGui draws.
  function canvasPoint(event) {
    var canvas = Module.canvas;
    var rect = canvas.getBoundingClientRect();
    return [(event.clientX - rect.left) * canvas.width / Math.max(rect.width, 1),
            (event.clientY - rect.top) * canvas.height / Math.max(rect.height, 1)];
  }

  // The text of a drop: its first file's, else the dragged text; null for anything else.
  function droppedText(data) {
    var file = data.files && data.files[0];
    if (file) {
      if (file.size > MOST_DROPPED_BYTES) return Promise.reject(new Error(file.name + ' is larger than 4 MB'));
      return file.text();
    }
    var text = data.getData('text/plain');
    return Promise.resolve(text ? text : null);
  }

  // Pastes aimed at the page itself: the canvas, or nothing focused (elements of our own
  // over the canvas, such as the printable proposal, keep the browser's behaviour).
  document.addEventListener('paste', function (event) {
    var target = event.target;
    if (target !== Module.canvas && target !== document.body && target !== document.documentElement) return;
    if (!event.clipboardData || typeof Module.pasteText !== 'function') return;
    event.preventDefault();
    var text = event.clipboardData.getData('text/plain');
    if (text) Module.pasteText(plainText(text));
  });

  Module.canvas.addEventListener('dragover', function (event) {
    event.preventDefault();  // lets the canvas take the drop
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
  });
  Module.canvas.addEventListener('drop', function (event) {
    event.preventDefault();  // the browser would open the file in place of the page
    if (!event.dataTransfer || typeof Module.dropText !== 'function') return;
    var point = canvasPoint(event);
    droppedText(event.dataTransfer).then(function (text) {
      if (text !== null) Module.dropText(plainText(text), point[0], point[1]);
    }, function (error) {
      console.warn('TrainSizer: the dropped file was not read: ' + (error && error.message ? error.message : error));
    });
  });
})();

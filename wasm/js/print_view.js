// The printable proposal: the engine writes it as Markdown (engine/exports/proposal.cpp),
// and this draws it as an HTML page over the canvas, with Print (the browser's Print /
// Save as PDF) and Close. Only the Markdown the proposal uses is read: # and ## headings,
// paragraphs, **bold**, "- " lists and pipe tables (with \| inside cells and ---: for a
// right-aligned column). Built with DOM calls, never innerHTML: the text is the user's
// model names and the catalog's, and the page runs under a strict Content-Security-Policy.
(function () {
  var STYLE = [
    '#ts-print { position: fixed; inset: 0; z-index: 10; overflow: auto; background: #fff; color: #1c2230;',
    '  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif; }',
    '#ts-print .ts-paper { max-width: 60em; margin: 0 auto; padding: 1.2em 1.6em 3em; }',
    '#ts-print .ts-bar { position: sticky; top: 0; display: flex; gap: .6em; justify-content: flex-end;',
    '  padding: .6em 1.6em; background: #eef1f5; border-bottom: 1px solid #d5dae1; }',
    '#ts-print button { font: inherit; padding: .35em 1em; border-radius: 6px; border: 1px solid #9aa6b5;',
    '  background: #fff; cursor: pointer; }',
    '#ts-print button.ts-primary { background: #2d6cdf; border-color: #2d6cdf; color: #fff; }',
    '#ts-print h1 { font-size: 1.45em; margin: .4em 0 .5em; }',
    '#ts-print h2 { font-size: 1.2em; margin: 1.6em 0 .5em; border-bottom: 1px solid #d5dae1; }',
    '#ts-print table { border-collapse: collapse; width: 100%; margin: .4em 0 1em; font-size: .92em; }',
    '#ts-print th, #ts-print td { border: 1px solid #d5dae1; padding: .3em .5em; vertical-align: top; text-align: left; }',
    '#ts-print th { background: #f3f5f8; }',
    '#ts-print td.ts-right { text-align: right; white-space: nowrap; }',
    '#ts-print ul { margin: .3em 0 1em; padding-left: 1.4em; }',
    '@media (max-width: 600px) { #ts-print .ts-paper { padding: .8em .7em 2em; } #ts-print { font-size: 13px; } }',
    '@media print {',
    '  html, body { height: auto !important; overflow: visible !important; background: #fff !important; }',
    '  body > *:not(#ts-print) { display: none !important; }',
    '  #ts-print { position: static; overflow: visible; }',
    '  #ts-print .ts-bar { display: none; }',
    '  #ts-print .ts-paper { max-width: none; padding: 0; }',
    '  #ts-print h2 { break-after: avoid; }',
    '  #ts-print tr { break-inside: avoid; }',
    '}',
  ].join('\n');

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // Plain text and **bold** runs.
  function appendInline(parent, text) {
    text.split('**').forEach(function (part, i) {
      if (!part) return;
      parent.appendChild(i % 2 === 1 ? element('strong', '', part) : document.createTextNode(part));
    });
  }

  // "| a | b \| c \\ |" -> ["a", "b | c \"]: report.h Cell escapes pipes and backslashes.
  function cells(line) {
    var body = line.trim().replace(/^\|/, '').replace(/\|$/, '');
    var out = [];
    var current = '';
    for (var i = 0; i < body.length; ++i) {
      if (body[i] === '\\' && (body[i + 1] === '|' || body[i + 1] === '\\')) {
        current += body[i + 1];
        ++i;
      } else if (body[i] === '|') {
        out.push(current.trim());
        current = '';
      } else {
        current += body[i];
      }
    }
    out.push(current.trim());
    return out;
  }

  function isSeparator(line) { return /^\|[\s:|-]+\|$/.test(line.trim()) && line.indexOf('-') >= 0; }

  // The table starting at lines[start]; returns the index after it.
  function appendTable(parent, lines, start) {
    var table = element('table');
    var header = cells(lines[start]);
    var i = start + 1;
    var right = [];
    if (i < lines.length && isSeparator(lines[i])) {
      right = cells(lines[i]).map(function (c) { return /-:$/.test(c); });
      ++i;
    }
    var head = element('tr');
    var blankHeader = header.every(function (c) { return c === ''; });
    header.forEach(function (c) { appendInline(head.appendChild(element('th')), c); });
    if (!blankHeader) table.appendChild(element('thead')).appendChild(head);
    var body = table.appendChild(element('tbody'));
    for (; i < lines.length && lines[i].trim().charAt(0) === '|'; ++i) {
      var row = body.appendChild(element('tr'));
      cells(lines[i]).forEach(function (c, column) {
        var cell = row.appendChild(element(blankHeader && column === 0 ? 'th' : 'td', right[column] ? 'ts-right' : ''));
        appendInline(cell, c);
      });
    }
    parent.appendChild(table);
    return i;
  }

  function render(parent, markdown) {
    var lines = markdown.split('\n');
    var i = 0;
    while (i < lines.length) {
      var line = lines[i];
      if (line.indexOf('# ') === 0) {
        appendInline(parent.appendChild(element('h1')), line.slice(2));
        ++i;
      } else if (line.indexOf('## ') === 0) {
        appendInline(parent.appendChild(element('h2')), line.slice(3));
        ++i;
      } else if (line.trim().charAt(0) === '|') {
        i = appendTable(parent, lines, i);
      } else if (line.indexOf('- ') === 0) {
        var list = parent.appendChild(element('ul'));
        for (; i < lines.length && lines[i].indexOf('- ') === 0; ++i) appendInline(list.appendChild(element('li')), lines[i].slice(2));
      } else if (line.trim()) {
        appendInline(parent.appendChild(element('p')), line);
        ++i;
      } else {
        ++i;
      }
    }
  }

  function close() {
    var view = document.getElementById('ts-print');
    if (view) view.parentNode.removeChild(view);
    var canvas = document.getElementById('canvas');
    if (canvas) canvas.focus();
  }

  Module.tsHost.showPrintable = function (markdown, lang, printLabel, closeLabel) {
    close();
    if (!document.getElementById('ts-print-style')) {
      var style = element('style', '', STYLE);
      style.id = 'ts-print-style';
      document.head.appendChild(style);
    }
    var view = element('div');
    view.id = 'ts-print';
    view.setAttribute('lang', lang === 'zh' ? 'zh-CN' : 'en');
    view.setAttribute('role', 'dialog');
    var bar = view.appendChild(element('div', 'ts-bar'));
    var printButton = bar.appendChild(element('button', 'ts-primary', printLabel));
    printButton.addEventListener('click', function () { window.print(); });
    bar.appendChild(element('button', '', closeLabel)).addEventListener('click', close);
    render(view.appendChild(element('div', 'ts-paper')), markdown);
    // Escape closes. (Emscripten's GLFW listens on the window in the capture phase, so the
    // calculator still sees keys typed here: there is no text field in this view.)
    view.addEventListener('keydown', function (event) {
      if (event.key === 'Escape') close();
    });
    document.body.appendChild(view);
    printButton.focus();
  };
})();

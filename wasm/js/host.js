// What the page asks of the browser besides drawing: the address bar (the inputs live in
// its #fragment), the clipboard, downloads, and opening the full tool from an embed.
// wasm/main.cpp calls these through EM_ASM; nothing here uses eval, so the page runs under
// the Content-Security-Policy of web/index.html.
(function () {
  var hashChanged = false;
  // The user edited the address bar or followed another link to this page.
  window.addEventListener('hashchange', function () { hashChanged = true; });

  function copyWithTextarea(text) {
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    try { document.execCommand('copy'); } catch (e) { /* nothing more to try */ }
    document.body.removeChild(area);
  }

  function saveBlob(fileName, blob) {
    var url = URL.createObjectURL(blob);
    var link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.appendChild(link);
    link.click();
    document.body.removeChild(link);
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  }

  // This page's address without ?embed=1: the full tool, with the same #inputs.
  function fullToolUrl() {
    var url = new URL(location.href);
    url.searchParams.delete('embed');
    return url.toString();
  }

  var params = new URLSearchParams(location.search);
  Module.tsHost = {
    isOffline: document.documentElement.getAttribute('data-offline') === '1',
    isEmbed: params.get('embed') === '1',
    queryLang: params.get('lang') || '',
    browserLang: (navigator.language || 'en').toLowerCase(),
    hash: function () { return location.hash; },
    takeHashChanged: function () { var changed = hashChanged; hashChanged = false; return changed; },
    // Written back as the user edits: no reload, no new history entry per keystroke.
    replaceHash: function (fragment) {
      var target = '#' + fragment;
      if (location.hash === target) return;
      try {
        history.replaceState(history.state, '', target);
      } catch (e) {
        location.replace(target);  // some file:// contexts refuse replaceState
      }
    },
    // The link to share: an embed's reader gets the full tool with the same inputs.
    pageUrl: function () { return fullToolUrl(); },
    copyText: function (text) {
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).catch(function () { copyWithTextarea(text); });
      } else {
        copyWithTextarea(text);
      }
    },
    download: function (fileName, mime, text) { saveBlob(fileName, new Blob([text], { type: mime })); },
    downloadOffline: function () {
      var link = document.createElement('a');
      link.href = 'trainsizer.html';
      link.download = 'trainsizer.html';
      document.body.appendChild(link);
      link.click();
      document.body.removeChild(link);
    },
    openFullTool: function () { window.open(fullToolUrl(), '_blank', 'noopener'); },
  };
})();

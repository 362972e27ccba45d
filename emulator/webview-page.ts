/**
 * The web view page the SDK opens: `/webview?ott=<token>#code_verifier=<verifier>`. It exchanges the token and
 * verifier (`POST /v1/webview/sessions`), then shows the campaign and its creators and lets the user boost one.
 * Self-contained: inline style and script, no external requests.
 *
 * Its Close button asks the game to close it: it posts `{ type: 'game-campaign:close' }` to the frame's parent
 * (iframe overlay) or its opener, posts `close` to React Native's host (`window.ReactNativeWebView`, which
 * react-native-webview injects when the host listens: the React Native adapter's `WEBVIEW_CLOSE_MESSAGE`), then calls
 * `window.close()` (a window the game opened); a top-level page with none of these that is still open (Cocos native's
 * `WebView`) then goes to `gamecampaign://close`, the Cocos adapter's `WEBVIEW_CLOSE_SCHEME`, which the native view
 * hands to the SDK instead of loading (cocos-engine native/cocos/platform/android/java/src/com/cocos/lib/CocosWebView.java
 * `shouldOverrideUrlLoading`, native/cocos/ui/webview/WebViewImpl-ios.mm `decidePolicyForNavigationAction`).
 * assumed: a system browser the game handed the page to (`sys.openURL`, `Linking.openURL`, Unity's
 * `Application.OpenURL`) meets that address too, and says it cannot open it (its Close did nothing there before).
 * assumed: the spec shows
 * no page-to-game protocol; the message carries no data, so it is posted to any origin (`'*'`), and the SDK's
 * browser web view accepts it only from the page it opened, on that page's origin.
 */

/** The HTML of `GET /webview`. */
export const WEBVIEW_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Game Campaign</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; padding: 16px; background: #10131a; color: #e8ecf3; }
  h1 { font-size: 1.3rem; margin: 0 0 4px; }
  .muted { color: #98a2b3; font-size: .9rem; }
  .error { background: #4a1d1d; padding: 12px; border-radius: 8px; }
  .notice { background: #1d3a4a; padding: 8px 12px; border-radius: 8px; margin: 12px 0; }
  ul { list-style: none; padding: 0; }
  li { display: flex; align-items: center; justify-content: space-between; padding: 10px 12px; margin: 6px 0; background: #1b2130; border-radius: 8px; }
  li.current { outline: 2px solid #5b8def; }
  button { background: #5b8def; color: #fff; border: 0; border-radius: 6px; padding: 6px 12px; cursor: pointer; }
  button[disabled] { background: #3a4256; cursor: default; }
  #close { float: right; background: #3a4256; }
</style>
</head>
<body>
<button id="close" type="button" aria-label="Close">Close</button>
<main id="app"><p class="muted">Loading…</p></main>
<script>
(function () {
  var app = document.getElementById('app');
  var query = new URLSearchParams(location.search);
  var fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  var ott = query.get('ott');
  var codeVerifier = fragment.get('code_verifier');
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  var sessionId = null;
  document.getElementById('close').addEventListener('click', function () {
    var target = window.parent !== window ? window.parent : window.opener;
    if (target) target.postMessage({ type: 'game-campaign:close' }, '*');
    if (window.ReactNativeWebView) window.ReactNativeWebView.postMessage('close');
    window.close();
    // Nobody to tell and no window to close (closed is true at once when it closes): Cocos native's WebView, whose
    // navigations to its interface scheme go to the SDK (CocosWebView.java shouldOverrideUrlLoading).
    if (!target && !window.ReactNativeWebView && !window.closed) location.href = 'gamecampaign://close';
  });

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    (children || []).forEach(function (child) { node.append(child); });
    return node;
  }
  function text(localized) {
    if (!localized) return '';
    var language = (navigator.language || 'en').slice(0, 2);
    return localized[language] || localized.en || Object.values(localized)[0] || '';
  }
  function showError(message) {
    app.replaceChildren(el('div', { class: 'error', role: 'alert' }, [message]));
  }
  function call(method, path, body) {
    return fetch(path, {
      method: method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    }).then(function (response) {
      return response.json().then(function (json) {
        if (!response.ok) throw new Error(json.message || ('HTTP ' + response.status));
        return json.data;
      });
    });
  }
  function render(view, notice) {
    var campaign = view.campaign;
    var boostKey = view.boost ? view.boost.creatorKey : null;
    var children = [];
    if (!campaign) { showError('No campaign is running.'); return; }
    children.push(el('h1', {}, [text(campaign.campaignName)]));
    children.push(el('p', { class: 'muted' }, [campaign.startDate.slice(0, 10) + ' – ' + campaign.endDate.slice(0, 10) + ' · ' + campaign.status]));
    if (view.session.showCampaignDetail) {
      var detail = el('p', { hidden: '' }, [text(campaign.description)]);
      var toggle = el('button', { type: 'button' }, ['Campaign details']);
      toggle.addEventListener('click', function () { detail.hidden = !detail.hidden; });
      children.push(toggle, detail);
    }
    if (notice) children.push(el('div', { class: 'notice', role: 'status' }, [notice]));
    var list = el('ul', {}, view.creators.map(function (creator) {
      var current = creator.creatorKey === boostKey;
      var button = el('button', current ? { type: 'button', disabled: '' } : { type: 'button' }, [current ? 'Boosted' : 'Boost']);
      button.addEventListener('click', function () { boost(creator.creatorKey); });
      return el('li', current ? { class: 'current' } : {}, [
        el('span', {}, [creator.creatorName + ' ', el('span', { class: 'muted' }, [creator.creatorKey + ' · ' + creator.genre])]),
        button,
      ]);
    }));
    children.push(list);
    app.replaceChildren.apply(app, children);
  }
  function load(notice) {
    return call('GET', '/v1/webview/sessions/' + encodeURIComponent(sessionId)).then(function (view) { render(view, notice); });
  }
  function boost(creatorKey) {
    call('PUT', '/v1/webview/sessions/' + encodeURIComponent(sessionId) + '/boost', { creatorKey: creatorKey })
      .then(function (record) { return load('You now boost ' + record.creatorName + '.'); })
      .catch(function (error) { return load(error.message); })
      .catch(function (error) { showError(error.message); });
  }

  if (!ott || !codeVerifier) { showError('This page needs a one-time token (?ott=) and a code verifier (#code_verifier=).'); return; }
  call('POST', '/v1/webview/sessions', { ott: ott, codeVerifier: codeVerifier })
    .then(function (session) { sessionId = session.sessionId; return load(); })
    .catch(function (error) { showError(error.message); });
})();
</script>
</body>
</html>
`;

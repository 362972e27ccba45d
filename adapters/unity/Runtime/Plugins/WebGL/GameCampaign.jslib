/*
 * Game Campaign SDK: the WebGL side of the C# bridge. ES5 only (Unity's rule for .jslib): the SDK itself is
 * `window.GameCampaign`, set by GameCampaign.jspre next to this file (the IIFE and its siblings, which Unity
 * prepends to the build's JavaScript), or by a WebGL template that loads game-campaign.iife.js itself.
 *
 * C# calls GameCampaign_Call(requestId, method, argsJson); every answer goes back through the one callback
 * registered with GameCampaign_Register as a JSON envelope: {"id":1,"ok":true,"value":...} or
 * {"id":1,"ok":false,"error":{"name","code","message","status","details","daysRemaining","retryAfterMs"}},
 * and events as {"event":"flushed","data":...} ({"event":"picker:change","picker":1,"data":state}).
 * Each string handed to C# is allocated with _malloc and freed as soon as the callback returns (C# has
 * copied it by then).
 */
var GameCampaignLibrary = {
  $GameCampaignBridge: {
    callback: 0,
    gc: null,
    /* The last Dispose's promise: a second Dispose resolves with it. */
    windDown: null,
    headers: {},
    pickers: {},
    nextPicker: 1,
    /* The WebView.Open called last (a token object; restored when it fails): only its page's closing is C#'s Closed. */
    webview: null,

    send: function (message) {
      if (!GameCampaignBridge.callback) return;
      var json = JSON.stringify(message);
      var size = lengthBytesUTF8(json) + 1;
      var buffer = _malloc(size);
      stringToUTF8(json, buffer, size);
      try {
        // Expanded by Unity's Emscripten: getWasmTableEntry (3.1+: 2022.3, Unity 6), wasmTable.get (2.0: 2021.3)
        // or a dynCall_vi wrapper (DYNCALLS builds); never the deprecated dynCall() itself.
        {{{ makeDynCall('vi', 'GameCampaignBridge.callback') }}}(buffer);
      } finally {
        _free(buffer);
      }
    },

    emit: function (name, data, extra) {
      var message = { event: name, data: data };
      if (extra) for (var key in extra) message[key] = extra[key];
      GameCampaignBridge.send(message);
    },

    /* An error as plain JSON: the SDK's typed errors keep their class name, code, status and extra fields. */
    errorInfo: function (error) {
      var e = error || {};
      var info = { name: String(e.name || 'Error'), code: String(e.code || 'JS_ERROR'), message: String(e.message || e) };
      if (typeof e.status === 'number') info.status = e.status;
      if (e.details) info.details = e.details;
      if (typeof e.daysRemaining === 'number') info.daysRemaining = e.daysRemaining;
      if (typeof e.retryAfterMs === 'number') info.retryAfterMs = e.retryAfterMs;
      return info;
    },

    fail: function (code, message) {
      var error = new Error(message);
      error.name = 'GameCampaignBridgeError';
      error.code = code;
      return error;
    },

    sdk: function () {
      var sdk = typeof window !== 'undefined' ? window.GameCampaign : undefined;
      if (!sdk || typeof sdk.createGameCampaign !== 'function') {
        throw GameCampaignBridge.fail('NOT_LOADED', 'window.GameCampaign is missing: GameCampaign.jspre of the package was not part of this build (or load game-campaign.iife.js in the WebGL template before the game)');
      }
      return sdk;
    },

    facade: function () {
      if (!GameCampaignBridge.gc) throw GameCampaignBridge.fail('NOT_INITIALIZED', 'call GameCampaign.Init first');
      return GameCampaignBridge.gc;
    },

    picker: function (handle) {
      var picker = GameCampaignBridge.pickers[handle];
      if (!picker) throw GameCampaignBridge.fail('NOT_FOUND', 'no open picker ' + handle);
      return picker;
    },

    /* The picker's state as JSON: its error (an Error object) as an error record. */
    pickerState: function (state) {
      var copy = {};
      for (var key in state) copy[key] = state[key];
      if (state && state.error) copy.error = GameCampaignBridge.errorInfo(state.error);
      return copy;
    },

    init: function (args) {
      var sdk = GameCampaignBridge.sdk();
      if (GameCampaignBridge.gc) GameCampaignBridge.gc.dispose();
      GameCampaignBridge.gc = null;
      // The facade disposed its pickers with itself; their handles go too, as at dispose (C# forgets them at Init).
      GameCampaignBridge.pickers = {};
      GameCampaignBridge.headers = (args.relay && args.relay.headers) || {};
      var options = {};
      for (var key in args) options[key] = args[key];
      // The game's headers are read per request, so C# can replace them (a refreshed token) later.
      options.relay = { url: args.relay && args.relay.url, headers: function () { return GameCampaignBridge.headers; } };
      var gc = sdk.createGameCampaign(options);
      var names = ['session:start', 'session:end', 'flushed', 'dropped', 'error'];
      for (var i = 0; i < names.length; i++) GameCampaignBridge.forward(gc, names[i]);
      GameCampaignBridge.gc = gc;
      return null;
    },

    forward: function (gc, name) {
      gc.tracker.on(name, function (event) {
        if (name !== 'error') return GameCampaignBridge.emit(name, event);
        var info = GameCampaignBridge.errorInfo(event.error);
        var data = { kind: event.kind, message: info.message };
        if (info.code !== 'JS_ERROR') data.code = info.code;
        if (typeof event.status === 'number') data.status = event.status;
        else if (typeof info.status === 'number') data.status = info.status;
        GameCampaignBridge.emit('error', data);
      });
    },

    /* C# chooses the handle (args.picker) and registers it before it sends this, so no change event is missed. */
    openPicker: function (gc, args) {
      var handle = typeof args.picker === 'number' ? args.picker : GameCampaignBridge.nextPicker++;
      if (GameCampaignBridge.pickers[handle]) throw GameCampaignBridge.fail('BAD_REQUEST', 'picker ' + handle + ' is already open');
      var picker = gc.picker({ campaignId: args.campaignId, debounceMs: args.debounceMs, limit: args.limit, isTest: args.isTest });
      GameCampaignBridge.pickers[handle] = picker;
      picker.on('change', function (state) {
        GameCampaignBridge.emit('picker:change', GameCampaignBridge.pickerState(state || picker.state), { picker: handle });
      });
      return { picker: handle, state: GameCampaignBridge.pickerState(picker.state) };
    },

    /*
     * C#'s Closed is "the web view opened last has closed": the page a later Open replaced (closed by it, or never
     * shown) closes without it, while the later one shows. An Open that fails leaves the one before it the last (and
     * tells C# now if that one closed meanwhile).
     */
    openWebView: function (gc, args) {
      var before = GameCampaignBridge.webview;
      var turn = GameCampaignBridge.webview = { missed: false };
      return gc.webview.open(args).then(function (handle) {
        if (handle && handle.closed) {
          handle.closed.then(function () {
            if (GameCampaignBridge.webview === turn) GameCampaignBridge.emit('webview:closed', null);
            else turn.missed = true;
          });
        }
        return null;
      }, function (error) {
        if (GameCampaignBridge.webview === turn) {
          GameCampaignBridge.webview = before;
          if (before && before.missed) GameCampaignBridge.emit('webview:closed', null);
        }
        throw error;
      });
    },

    /* One C# call: its JavaScript, by name. Returns a value or a promise of one. */
    invoke: function (method, args) {
      if (method === 'init') return GameCampaignBridge.init(args);
      // A second Dispose (OnDestroy, then OnApplicationQuit) resolves with the first one's wind-down: disposing is
      // idempotent, never NOT_INITIALIZED. Before any Init there is nothing to wind down.
      if (method === 'dispose' && !GameCampaignBridge.gc) return GameCampaignBridge.windDown || null;
      var gc = GameCampaignBridge.facade();
      switch (method) {
        case 'relay.headers': GameCampaignBridge.headers = args.headers || {}; return null;
        case 'campaigns.get': return gc.campaigns.get(args.campaignId);
        case 'campaigns.listCreators': return gc.campaigns.listCreators(args.campaignId);
        case 'creators.get': return gc.creators.get(args.creatorKey);
        case 'creators.search': return gc.creators.search({ query: args.query, limit: args.limit, isTest: args.isTest });
        case 'tracker.start': return gc.tracker.start({ campaignId: args.campaignId, creatorKey: args.creatorKey, metadata: args.metadata });
        case 'tracker.stop': return gc.tracker.stop().then(function () { return null; });
        case 'tracker.flush': return gc.tracker.flush().then(function () { return null; });
        case 'tracker.optOut': return gc.tracker.setOptOut(args.optOut === true).then(function () { return null; });
        case 'tracker.deleteStoredData': return gc.tracker.deleteStoredData().then(function () { return null; });
        case 'boost.change': return gc.boost.change(args);
        case 'boost.current': return gc.boost.current();
        case 'webview.open': return GameCampaignBridge.openWebView(gc, args);
        case 'webview.close':
          // The launcher's close: the page shown, or the one still on its way (then it never shows).
          gc.webview.close();
          return null;
        case 'picker.open': return GameCampaignBridge.openPicker(gc, args);
        case 'picker.search': GameCampaignBridge.picker(args.picker).search(args.query); return null;
        case 'picker.select': GameCampaignBridge.picker(args.picker).select(args.creatorKey); return null;
        case 'picker.confirm': return GameCampaignBridge.picker(args.picker).confirm({ callbackId: args.callbackId });
        case 'picker.dispose':
          GameCampaignBridge.picker(args.picker).dispose();
          delete GameCampaignBridge.pickers[args.picker];
          return null;
        case 'dispose':
          GameCampaignBridge.gc = null;
          GameCampaignBridge.pickers = {};
          GameCampaignBridge.windDown = Promise.resolve(gc.dispose()).then(function () { return null; });
          return GameCampaignBridge.windDown;
      }
      throw GameCampaignBridge.fail('UNKNOWN_METHOD', 'the bridge has no method ' + method);
    }
  },

  GameCampaign_Register: function (callback) {
    GameCampaignBridge.callback = callback;
  },

  GameCampaign_Call: function (requestId, methodPtr, argsPtr) {
    var answer = function (ok, payload) {
      var message = { id: requestId, ok: ok };
      if (ok) message.value = payload === undefined ? null : payload;
      else message.error = GameCampaignBridge.errorInfo(payload);
      GameCampaignBridge.send(message);
    };
    var result;
    try {
      var args = argsPtr ? JSON.parse(UTF8ToString(argsPtr)) : {};
      result = GameCampaignBridge.invoke(UTF8ToString(methodPtr), args || {});
    } catch (error) {
      result = Promise.reject(error);
    }
    // Always answered from a later task, failures included: no C# runs inside this call.
    Promise.resolve(result).then(
      function (value) { answer(true, value); },
      function (error) { answer(false, error); }
    );
  }
};

autoAddDeps(GameCampaignLibrary, '$GameCampaignBridge');
mergeInto(LibraryManager.library, GameCampaignLibrary);

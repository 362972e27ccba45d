/**
 * Errors an adapter raises about its runtime (not about a request): the facility the game needs is missing.
 * Each has a stable `code`, and `name` set so `error.name === 'WebViewUnavailableError'` works across realms.
 */

/** The platform cannot show a web view (e.g. a WeChat mini-game, where `sys.openURL` does nothing). */
export class WebViewUnavailableError extends Error {
  override readonly name = 'WebViewUnavailableError';
  readonly code = 'WEBVIEW_UNAVAILABLE';
}

/** No secure random source: the runtime has no `crypto.getRandomValues` and none was given. */
export class CryptoUnavailableError extends Error {
  override readonly name = 'CryptoUnavailableError';
  readonly code = 'CRYPTO_UNAVAILABLE';
}

/**
 * The host's storage does not keep what is written (Cocos swapped in its warn-only stubs, or the engine had
 * not started): the adapter holds data in memory for this run only.
 */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';
  readonly code = 'STORAGE_UNAVAILABLE';
}

/**
 * The host refused to send the request: a WeChat mini-game reaches only HTTPS hosts on its request domain list,
 * and `wx.request` fails every other URL with "url not in domain list". Nothing is wrong with the network, so
 * retrying cannot help until the developer adds the host to the list.
 */
export class RequestBlockedError extends Error {
  override readonly name = 'RequestBlockedError';
  readonly code = 'REQUEST_BLOCKED';
}

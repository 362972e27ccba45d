/**
 * The core builds every API URL with `new URLSearchParams()`; WeChat mini-games (and Cocos native's bare V8 /
 * JavaScriptCore) have no `URLSearchParams`. Like the AbortController stand-in, the Cocos adapter installs this
 * small one when, and only when, the runtime lacks it: at `createCocosPlatform`, never at import.
 * assumed: the core needs `set`, `append`, `get` and `toString` only (query strings it writes, never parses).
 */

/** `application/x-www-form-urlencoded` encoding of one name or value, as `URLSearchParams#toString` does it. */
const formEncode = (text: string) => encodeURIComponent(text).replace(/%20/g, '+').replace(/[!'()~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

/**
 * A minimal `URLSearchParams`: built empty or from a record, with `append/set/get/toString` (what the core
 * calls). The pairs live in a closure per instance (no private field: its name would stay in minified code).
 */
export function createUrlSearchParamsClass(): typeof URLSearchParams {
  return function UrlSearchParamsStandIn(this: Pick<URLSearchParams, 'append' | 'set' | 'get' | 'toString'>, init?: Record<string, string>) {
    let pairs: string[][] = [];
    this.append = (name, value) => void pairs.push([String(name), String(value)]);
    this.set = (name, value) => {
      pairs = pairs.filter((pair) => pair[0] !== name);
      this.append(name, value);
    };
    this.get = (name) => pairs.find((pair) => pair[0] === name)?.[1] ?? null;
    this.toString = () => pairs.map((pair) => pair.map(formEncode).join('=')).join('&');
    for (const name in init) this.append(name, init[name]!);
  } as unknown as typeof URLSearchParams;
}

/** Installs {@link createUrlSearchParamsClass} on `globalThis` when there is no `URLSearchParams`; true when it did. */
export function ensureUrlSearchParams(): boolean {
  const g = globalThis as { URLSearchParams?: typeof URLSearchParams };
  if (typeof g.URLSearchParams === 'function') return false;
  g.URLSearchParams = createUrlSearchParamsClass();
  return true;
}

// @vitest-environment happy-dom
// The page lifecycle and network status from DOM events: the background at each event of a hidden page (any may be its
// last), foreground only when visible again, never `unload`, listeners detached when nobody listens.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBrowserLifecycle } from '../../../adapters/browser/lifecycle.js';
import { createBrowserNetwork } from '../../../adapters/browser/network.js';

let visibility: DocumentVisibilityState = 'visible';
const setVisibility = (state: DocumentVisibilityState) => {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
};
vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
afterEach(() => {
  visibility = 'visible';
});

function listen() {
  const log: string[] = [];
  const lifecycle = createBrowserLifecycle(window, document);
  const offBackground = lifecycle.onBackground(() => log.push('background'));
  const offForeground = lifecycle.onForeground(() => log.push('foreground'));
  return { log, stop: () => (offBackground(), offForeground()) };
}

describe('createBrowserLifecycle', () => {
  it('tells a hidden page at each event that announces it (visibilitychange, freeze, pagehide): any may be its last, and its exit sends what an earlier one could not', () => {
    const { log, stop } = listen();
    setVisibility('hidden');
    expect(log).toEqual(['background']);
    document.dispatchEvent(new Event('freeze'));
    window.dispatchEvent(new Event('pagehide'));
    expect(log).toEqual(['background', 'background', 'background']);
    setVisibility('visible');
    expect(log).toEqual(['background', 'background', 'background', 'foreground']);
    stop();
  });

  it('treats pagehide and freeze as the background even while visibilityState still says visible', () => {
    const { log, stop } = listen();
    window.dispatchEvent(new Event('pagehide'));
    expect(log).toEqual(['background']);
    window.dispatchEvent(new Event('pageshow')); // back from the back/forward cache
    expect(log).toEqual(['background', 'foreground']);
    document.dispatchEvent(new Event('freeze'));
    document.dispatchEvent(new Event('resume'));
    expect(log).toEqual(['background', 'foreground', 'background', 'foreground']);
    stop();
  });

  it('tells nothing for the events of a page that stays visible (pageshow, resume, visibilitychange)', () => {
    const { log, stop } = listen();
    window.dispatchEvent(new Event('pageshow'));
    document.dispatchEvent(new Event('resume'));
    setVisibility('visible');
    expect(log).toEqual([]);
    stop();
  });

  it('says whether the page is hidden now (a page loaded in a background tab announces nothing until shown)', () => {
    const lifecycle = createBrowserLifecycle(window, document);
    expect(lifecycle.isInBackground?.()).toBe(false);
    visibility = 'hidden';
    expect(lifecycle.isInBackground?.()).toBe(true);
  });

  it('does not come to the foreground on resume while the page is still hidden', () => {
    const { log, stop } = listen();
    setVisibility('hidden');
    document.dispatchEvent(new Event('freeze'));
    document.dispatchEvent(new Event('resume'));
    expect(log).toEqual(['background', 'background', 'background']);
    stop();
  });

  it('never listens to unload or beforeunload, and detaches its DOM listeners with the last unsubscribe', () => {
    const added: string[] = [];
    const removed: string[] = [];
    const target = (name: string) => ({
      addEventListener: (type: string) => void added.push(`${name}:${type}`),
      removeEventListener: (type: string) => void removed.push(`${name}:${type}`),
    });
    const lifecycle = createBrowserLifecycle(target('window'), { ...target('document'), visibilityState: 'visible' });
    const off = [lifecycle.onBackground(() => undefined), lifecycle.onForeground(() => undefined), lifecycle.onBackground(() => undefined)];
    expect(added.sort()).toEqual(['document:freeze', 'document:resume', 'document:visibilitychange', 'window:pagehide', 'window:pageshow']);
    off[0]!();
    off[1]!();
    expect(removed).toEqual([]);
    off[2]!();
    expect(removed.sort()).toEqual(added);
    expect(added.some((type) => /unload/.test(type))).toBe(false);
  });

  it('an unsubscribed listener hears nothing more', () => {
    const { log, stop } = listen();
    stop();
    setVisibility('hidden');
    expect(log).toEqual([]);
  });
});

describe('createBrowserNetwork', () => {
  it('reads navigator.onLine and hears online/offline until unsubscribed', () => {
    let onLine = true;
    const network = createBrowserNetwork(window, { get onLine() { return onLine; } });
    const heard: boolean[] = [];
    const off = network.onChange((online) => heard.push(online));
    expect(network.isOnline()).toBe(true);
    onLine = false;
    window.dispatchEvent(new Event('offline'));
    expect(network.isOnline()).toBe(false);
    onLine = true;
    window.dispatchEvent(new Event('online'));
    off();
    window.dispatchEvent(new Event('offline'));
    expect(heard).toEqual([false, true]);
  });
});

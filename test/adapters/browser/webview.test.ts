// @vitest-environment happy-dom
// The web view: an iframe overlay (sandboxed, closed by its button, by close() or by the page's close message
// from its own origin only) or a new window (watched until it closes; a blocked popup is a clear error).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBrowserWebView, WEBVIEW_CLOSE_MESSAGE, WEBVIEW_SANDBOX } from '../../../adapters/browser/webview.js';
import * as options from '../../../adapters/browser/webview-options.js';
import { WEBVIEW_PAGE } from '../../../emulator/webview-page.js';

const URL_ = 'https://campaign.example/webview?ott=abc#code_verifier=xyz';
afterEach(() => {
  document.body.replaceChildren();
  vi.useRealTimers();
});

/** Opens the overlay; the frame gets a stand-in window (happy-dom does not load frames). */
async function openOverlay() {
  const handle = await createBrowserWebView(window)(URL_, { title: 'Spring event' });
  const frame = document.querySelector('iframe')!;
  const frameWindow = {} as Window;
  Object.defineProperty(frame, 'contentWindow', { value: frameWindow });
  let closed = false;
  void handle.closed.then(() => (closed = true));
  const isClosed = async () => (await Promise.resolve(), await Promise.resolve(), closed);
  const post = (data: unknown, origin: string, source: unknown = frameWindow) => window.dispatchEvent(new MessageEvent('message', { data, origin, source: source as Window }));
  return { handle, frame, isClosed, post };
}

it('uses the public constants of webview-options (repeated there so the entry chunk does not load a chunk for them)', () => {
  expect([WEBVIEW_CLOSE_MESSAGE, WEBVIEW_SANDBOX]).toEqual([options.WEBVIEW_CLOSE_MESSAGE, options.WEBVIEW_SANDBOX]);
});

describe('iframe overlay (default)', () => {
  it('shows the page in a sandboxed frame over the game, with only scripts and its own origin allowed', async () => {
    const { frame } = await openOverlay();
    expect(frame.getAttribute('src')).toBe(URL_);
    expect(frame.title).toBe('Spring event');
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin');
    expect(WEBVIEW_SANDBOX.split(' ')).not.toContain('allow-top-navigation');
    expect(frame.getAttribute('allow')).toBeNull();
    expect(frame.parentElement!.parentElement).toBe(document.body);
  });

  it('closes on the page close message from its own origin and frame, and ignores any other message', async () => {
    const { isClosed, post } = await openOverlay();
    post({ type: WEBVIEW_CLOSE_MESSAGE }, 'https://evil.example');
    post({ type: WEBVIEW_CLOSE_MESSAGE }, 'https://campaign.example', window); // right origin, another window
    post({ type: 'something-else' }, 'https://campaign.example');
    post('game-campaign:close', 'https://campaign.example');
    expect(await isClosed()).toBe(false);
    expect(document.querySelector('iframe')).not.toBeNull();
    post({ type: WEBVIEW_CLOSE_MESSAGE }, 'https://campaign.example');
    expect(await isClosed()).toBe(true);
    expect(document.querySelector('iframe')).toBeNull();
  });

  it('closes with its close button and with close(), once', async () => {
    const first = await openOverlay();
    document.querySelector<HTMLButtonElement>('button[aria-label=Close]')!.click();
    expect(await first.isClosed()).toBe(true);
    const second = await openOverlay();
    second.handle.close();
    second.handle.close();
    expect(await second.isClosed()).toBe(true);
    expect(document.body.children).toHaveLength(0);
  });

  it('is a modal dialog where the browser has showModal, and a fixed box that still opens and closes where it has none (Safari before 15.4)', async () => {
    const first = await openOverlay();
    expect(document.querySelector('dialog')!.open).toBe(true);
    first.handle.close();
    const showModal = HTMLDialogElement.prototype.showModal;
    // @ts-expect-error: the older browser's dialog element has no showModal
    delete HTMLDialogElement.prototype.showModal;
    try {
      const second = await openOverlay();
      const overlay = document.querySelector<HTMLElement>('[role=dialog]')!;
      expect(overlay.style.position).toBe('fixed');
      expect(overlay.style.zIndex).toBe('2147483647');
      document.querySelector<HTMLButtonElement>('button[aria-label=Close]')!.click();
      expect(await second.isClosed()).toBe(true);
      expect(document.body.children).toHaveLength(0);
    } finally {
      HTMLDialogElement.prototype.showModal = showModal;
    }
  });

  it('is what the emulator page asks for: it posts this close message', () => {
    expect(WEBVIEW_PAGE).toContain(`postMessage({ type: '${WEBVIEW_CLOSE_MESSAGE}' }, '*')`);
  });
});

describe('new window', () => {
  it('opens the page without giving it the game as opener, and settles closed when the window closes', async () => {
    vi.useFakeTimers();
    const popup = { opener: window as unknown, closed: false, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    const handle = await createBrowserWebView(window, { mode: 'window' })(URL_);
    // At its address: a blank window navigated after would stay blank where open() gives no handle (test/browser/portal/sandboxed-frame.test.ts).
    expect(open).toHaveBeenCalledWith(URL_, '_blank', expect.stringContaining('popup'));
    expect(popup.opener).toBeNull();
    let closed = false;
    void handle.closed.then(() => (closed = true));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(closed).toBe(false);
    popup.closed = true; // the player closed it (or the page called window.close())
    await vi.advanceTimersByTimeAsync(300);
    expect(closed).toBe(true);
    expect(popup.close).not.toHaveBeenCalled();
  });

  it('shows no page whose address is not http(s), in a window or the overlay, and names it without its token', async () => {
    // Before, a relay answering `javascript:...` had it run in the game's origin (the overlay's frame and the
    // window's about:blank are the game's), and a relative address opened the game's own origin in the frame.
    const open = vi.spyOn(window, 'open').mockClear();
    for (const page of ['javascript:parent.document.title="x"//?ott=abc#code_verifier=xyz', 'data:text/html,x?ott=abc#code_verifier=xyz', '/webview?ott=abc#code_verifier=xyz']) {
      for (const mode of ['window', 'iframe'] as const) {
        const error = await createBrowserWebView(window, { mode })(page).catch((caught: unknown) => caught);
        expect(error, `${mode} ${page}`).toBeInstanceOf(TypeError);
        expect((error as Error).message).toBe(`The web view address is not http(s): ${page.split('?')[0]} (the relay's webviewUrl)`);
      }
    }
    expect(open).not.toHaveBeenCalled();
    expect(document.querySelector('dialog, iframe')).toBeNull();
  });

  it('close() closes the window; a blocked popup rejects with a clear error', async () => {
    const popup = { opener: null, closed: false, close: vi.fn(() => (popup.closed = true)) };
    vi.spyOn(window, 'open').mockReturnValueOnce(popup as unknown as Window).mockReturnValueOnce(null);
    const openWebView = createBrowserWebView(window, { mode: 'window' });
    const handle = await openWebView(URL_);
    handle.close();
    await handle.closed;
    expect(popup.close).toHaveBeenCalledTimes(1);
    await expect(openWebView(URL_)).rejects.toThrow(/blocked the web view window or gave no handle to it: open it from a click; a sandboxed iframe needs allow-popups.*Cross-Origin-Opener-Policy: same-origin/);
  });
});

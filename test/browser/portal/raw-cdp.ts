/**
 * A portal tab driven over the DevTools protocol directly, with nothing of Playwright attached. Playwright turns
 * on focus emulation for every page it attaches to (`Emulation.setFocusEmulationEnabled`), which keeps the page
 * visible and makes `Page.setWebLifecycleState` a no-op: a page it drives can be neither hidden nor frozen. A page
 * attached only here can: `frozen` hides it (`visibilitychange`), fires `freeze` and stops its task queues, as a
 * mobile browser does to a hidden tab it may discard. https://chromedevtools.github.io/devtools-protocol/tot/Page/#method-setWebLifecycleState
 */
import WebSocket from 'ws';
import type { GameMessage } from './portal-pages.js';

/**
 * A tab of the browser. Opening another tab hides this one (`visibilitychange` to `hidden`, no freeze), as a player
 * switching tabs does; `activate` shows it again.
 */
export interface RawTab {
  /** Brings the tab to the front (`Target.activateTarget`): the tab in front before is hidden. */
  activate(): Promise<void>;
  /** Closes the tab as its close button does (`Target.closeTarget`), resolving once it is gone. */
  close(): Promise<void>;
}

/** One portal tab: its page's session and the game frame's (a cross-site frame is a target of its own). */
export interface RawPortalTab extends RawTab {
  /** Evaluates `expression` in the portal page, or in the game's frame, and returns its value (awaited). */
  evaluate<T>(where: 'page' | 'game', expression: string): Promise<T>;
  /** Sends a command to the page's target, or to the game frame's. */
  send<T = unknown>(where: 'page' | 'game', method: string, params?: object): Promise<T>;
  /** What the game told its portal page (see portal-pages.ts). */
  log(): Promise<GameMessage[]>;
  /**
   * Kills the game frame's renderer (`Page.crash`) and resolves once it is gone. Waited for: a frame of the same site
   * opened meanwhile could be placed in that (frozen) renderer and never run.
   */
  crashGame(): Promise<void>;
}

/** A DevTools connection to a browser: tabs opened on it, and `close()`. */
export interface RawBrowser {
  /**
   * Opens `url` in a new tab and waits until `game` in it says `ready`; with `background`, the tab opens behind the
   * one in front and loads hidden, as a link opened with a middle click does (`Target.createTarget`'s `background`).
   */
  openPortal(url: string, game: string, options?: { background?: boolean }): Promise<RawPortalTab>;
  /** Opens `url` in a new tab, in front: the tab in front before is hidden. */
  openTab(url: string): Promise<RawTab>;
  close(): void;
}

type Message = { id?: number; method?: string; params?: Record<string, any>; sessionId?: string; result?: any; error?: unknown };

/** Connects to the browser at `endpoint` (`ws://...`, as Chromium prints it). */
export async function connectRaw(endpoint: string): Promise<RawBrowser> {
  const socket = new WebSocket(endpoint);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let lastId = 0;
  const answers = new Map<number, (message: Message) => void>();
  const events = new Set<(message: Message) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as Message;
    if (message.id !== undefined) answers.get(message.id)?.(message);
    else for (const listener of events) listener(message);
  });
  const send = <T>(method: string, params: object = {}, sessionId?: string) =>
    new Promise<T>((resolve, reject) => {
      const id = ++lastId;
      answers.set(id, (message) => {
        answers.delete(id);
        if (message.error) reject(new Error(`${method}: ${JSON.stringify(message.error)}`));
        else resolve(message.result as T);
      });
      socket.send(JSON.stringify({ id, method, params, sessionId }));
    });
  const evaluateIn = async <T>(sessionId: string, expression: string) => {
    const { result, exceptionDetails } = await send<{ result: { value: T }; exceptionDetails?: unknown }>('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId);
    if (exceptionDetails) throw new Error(`${expression}: ${JSON.stringify(exceptionDetails)}`);
    return result.value;
  };

  /** The tab `targetId`, to bring to the front or close. */
  const tabOf = (targetId: string): RawTab => ({
    activate: async () => void (await send('Target.activateTarget', { targetId })),
    async close() {
      const closed = new Promise<void>((resolve) => {
        const listener = (message: Message) => {
          if (message.method !== 'Target.targetDestroyed' || message.params!['targetId'] !== targetId) return;
          events.delete(listener);
          resolve();
        };
        events.add(listener);
      });
      await send('Target.setDiscoverTargets', { discover: true }); // for targetDestroyed
      await send('Target.closeTarget', { targetId });
      await closed;
    },
  });

  return {
    async openTab(url) {
      const { targetId } = await send<{ targetId: string }>('Target.createTarget', { url });
      return tabOf(targetId);
    },
    async openPortal(url, game, options = {}) {
      const { targetId } = await send<{ targetId: string }>('Target.createTarget', { url: 'about:blank', background: options.background === true });
      const { sessionId: page } = await send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
      let frame: string | undefined;
      const attached = (message: Message) => {
        if (message.method === 'Target.attachedToTarget' && message.sessionId === page && message.params!['targetInfo'].type === 'iframe') frame = message.params!['sessionId'];
      };
      events.add(attached);
      // The cross-site game frame gets a target of its own; attached without pausing it.
      await send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, page);
      await send('Page.navigate', { url }, page);
      const isReady = `(window.fromGame || []).some((m) => m.game === ${JSON.stringify(game)} && m.type === 'ready')`;
      for (let tries = 0; !(frame && (await evaluateIn<boolean>(page, isReady))); tries++) {
        if (tries > 300) throw new Error(`${game} did not get ready in ${url}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      events.delete(attached);
      const sessionOf = (where: 'page' | 'game') => (where === 'page' ? page : frame!);
      return {
        ...tabOf(targetId),
        evaluate: (where, expression) => evaluateIn(sessionOf(where), expression),
        send: (where, method, params) => send(method, params, sessionOf(where)),
        log: () => evaluateIn<GameMessage[]>(page, 'window.fromGame'),
        async crashGame() {
          const game = frame!;
          const gone = new Promise<void>((resolve) => {
            const listener = (message: Message) => {
              const crashed = message.method === 'Inspector.targetCrashed' && message.sessionId === game;
              if (crashed || (message.method === 'Target.detachedFromTarget' && message.params!['sessionId'] === game)) {
                events.delete(listener);
                resolve();
              }
            };
            events.add(listener);
          });
          await send('Inspector.enable', {}, game);
          void send('Page.crash', {}, game).catch(() => undefined); // the renderer dies before it answers
          await gone;
        },
      };
    },
    close: () => socket.close(),
  };
}

/** What `game` told the portal page of `tab`, of `type`: each message's detail. */
export async function told(tab: RawPortalTab, game: string, type: GameMessage['type']): Promise<unknown[]> {
  return (await tab.log()).filter((message) => message.game === game && message.type === type).map((message) => message.detail);
}

/**
 * The Cocos sample component (samples/cocos/CampaignComponent.ts) as it is, run against `npm start`'s game server
 * and emulator: `cc` is the Cocos fake (test/adapters/fakes/fake-cc.ts) plus the few classes the component uses,
 * the SDK is the built `game-campaign-sdk/cocos`. It signs in, plays, stops, and the session is recorded once; the
 * editor's browser preview (another origin) passes the server's CORS; on native, its random bytes come from the
 * `SecureRandomBridge` the guide has the project add.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COCOS_PREVIEW_ORIGINS, type GameServer } from '../../../samples/game-server/server.js';
import { npmStartServers } from '../../helpers/npm-start.js';
import { createFakeCc, type FakeCc } from '../fakes/fake-cc.js';
import { createFakeWx } from '../fakes/fake-wx.js';

/** What the `cc` module is for the component under test: the fake engine objects and a bridge that answers. */
const engine = vi.hoisted(() => ({ cc: undefined as unknown as FakeCc, os: 'Web', bridge: [] as unknown[][] }));

vi.mock('cc', () => {
  /** A scene node's event target: `on(type, callback, target)` calls the callback with `this` the target. */
  class Node {
    private readonly handlers: Array<[string, () => void, unknown]> = [];
    constructor(readonly name = '') {}
    on(type: string, callback: () => void, target?: unknown) {
      this.handlers.push([type, callback, target]);
    }
    off(type: string, callback: () => void) {
      const at = this.handlers.findIndex(([t, c]) => t === type && c === callback);
      if (at >= 0) this.handlers.splice(at, 1);
    }
    emit(type: string) {
      for (const [t, callback, target] of [...this.handlers]) if (t === type) callback.call(target);
    }
    get listeners() {
      return this.handlers.length;
    }
  }
  class Component {
    node = new Node();
  }
  class Button extends Component {
    static EventType = { CLICK: 'click' };
  }
  class Label extends Component {
    string = '';
  }
  // `@ccclass('Name')` and `@property(Type)` are factories; a bare `@property` is the decorator itself: none changes anything.
  const noop = (): undefined => undefined;
  const factory = (...args: unknown[]): any => (typeof args[0] === 'string' || typeof args[0] === 'function' ? noop : undefined);
  const OS = { ANDROID: 'Android', IOS: 'iOS', WINDOWS: 'Windows' };
  return {
    _decorator: { ccclass: factory, property: factory },
    Node,
    Component,
    Button,
    Label,
    WebView: class extends Component {},
    Widget: class extends Component {},
    director: { getScene: () => null },
    get sys() {
      return Object.assign(engine.cc.sys, { os: engine.os, OS });
    },
    get game() {
      return engine.cc.game;
    },
    get Game() {
      return engine.cc.Game;
    },
    native: {
      reflection: {
        callStaticMethod: (...args: unknown[]) => {
          engine.bridge.push(args);
          const n = Number(args[0] === 'SecureRandomBridge' ? args[2] : args[3]);
          return randomBytes(n).toString('hex');
        },
      },
    },
  };
});

/** What the test touches of the sample component (typed here: `cc`'s types are only in tsconfig.cocos.json). */
interface Sample {
  playButton: unknown;
  stopButton: unknown;
  statusLabel: unknown;
  relayUrl: string;
  loginUrl: string;
  userId: string;
  start(): void;
  onDestroy(): void;
}
type Clickable = { node: { emit(type: string): void; listeners: number } };
// Paths in variables: the root tsconfig checks this file without `cc`'s types (tsconfig.cocos.json checks the sample).
const ccModule = 'cc';
const samplePath = '../../../samples/cocos/CampaignComponent.js';
const { Button, Label } = (await import(/* @vite-ignore */ ccModule)) as { Button: (new () => unknown) & { EventType: { CLICK: string } }; Label: new () => unknown };
/** The sample module, evaluated anew (it reads the global `wx` once, as it loads). */
const loadSample = async () => ((await import(/* @vite-ignore */ samplePath)) as { CampaignComponent: new () => Sample }).CampaignComponent;
let CampaignComponent = await loadSample();

/** The component as the editor makes it: its buttons and label dragged onto it, its relay and login `npm start`'s. */
function placeComponent(game: GameServer, userId: string): { component: Sample; click(button: 'play' | 'stop'): void; label: { string: string } } {
  const component = new CampaignComponent();
  component.playButton = new Button();
  component.stopButton = new Button();
  component.statusLabel = new Label();
  component.relayUrl = `${game.url}/campaign`;
  component.loginUrl = `${game.url}/login`;
  component.userId = userId;
  return {
    component,
    click: (button) => (component[`${button}Button`] as Clickable).node.emit(Button.EventType.CLICK),
    label: component.statusLabel as { string: string },
  };
}

describe('the Cocos sample against `npm start`', () => {
  const servers = npmStartServers();
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    engine.bridge.length = 0;
  });

  const recordedFor = (userId: string) => servers.emulator.state().sessions.filter((s: { userId: string }) => s.userId === userId);

  it.each([
    ['web', 'Web'],
    ['native', 'Android'],
    ['native', 'iOS'],
  ] as const)('a %s build (%s) signs in, plays 2 s between Play and Stop, and the session is recorded once', async (runtime, os) => {
    engine.cc = createFakeCc(runtime);
    engine.cc.start();
    engine.os = os;
    const userId = `cocos-${runtime}-${os}`.toLowerCase();
    const { component, click, label } = placeComponent(servers.game, userId);
    const errors: string[] = [];
    // Only the clocks the tracker reads are moved by hand; the servers keep their real timers.
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    component.start();
    (component as unknown as { gc: { tracker: { on(type: 'error', listener: (event: { kind: string }) => void): void } } }).gc.tracker.on('error', ({ kind }) => errors.push(kind));
    click('play');
    expect(label.string).toBe('Playing…');
    vi.advanceTimersByTime(2_000);
    click('stop');
    await expect.poll(() => recordedFor(userId)).toHaveLength(1);
    expect(recordedFor(userId)[0]).toMatchObject({ userId, durationSeconds: 2 });
    await expect.poll(() => label.string).toBe('Sent 1 session(s)');
    // No 401 on the way (a signed-in player), and on native no `crypto` error (the bridge's bytes).
    expect(errors).toEqual([]);
    if (runtime === 'native') {
      expect(engine.bridge.length).toBeGreaterThan(0);
      expect(engine.bridge[0]).toEqual(os === 'Android' ? ['com/cocos/game/SecureRandomBridge', 'hex', '(I)Ljava/lang/String;', expect.any(Number)] : ['SecureRandomBridge', 'hex:', expect.any(String)]);
    } else expect(engine.bridge).toEqual([]);
    component.onDestroy();
    expect((component.playButton as unknown as Clickable).node.listeners).toBe(0);
    expect(engine.cc.listenerCount()).toBe(0);
  });

  it('a WeChat mini-game build (the global wx, no fetch, no WebCrypto) signs in through the SDK\'s wx.request fetch and the session is recorded once', async () => {
    // Every wx.request goes to `npm start`'s server (the developer tool with "do not verify domains").
    const fake = createFakeWx(new Map(), (request) => fetch(request));
    vi.stubGlobal('wx', fake.wx);
    vi.stubGlobal('XMLHttpRequest', fake.XMLHttpRequest);
    vi.stubGlobal('crypto', undefined);
    vi.resetModules();
    CampaignComponent = await loadSample();
    engine.cc = createFakeCc('wechat');
    engine.os = 'Android';
    const { component, click, label } = placeComponent(servers.game, 'cocos-wechat');
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    try {
      component.start();
      click('play');
      vi.advanceTimersByTime(2_000);
      click('stop');
      await expect.poll(() => recordedFor('cocos-wechat')).toHaveLength(1);
      await expect.poll(() => label.string).toBe('Sent 1 session(s)');
      expect(fake.requests.map((request) => new URL(request.url).pathname)).toEqual(['/login', '/campaign/playtime/sessions']);
      expect(engine.bridge).toEqual([]); // not native: WeChat's crypto manager
      component.onDestroy();
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
      CampaignComponent = await loadSample();
    }
  });

  it('a game server restarted under a running game (its tokens forgotten): the sample signs in again and delivers', async () => {
    engine.cc = createFakeCc('web');
    engine.cc.start();
    engine.os = 'Web';
    const { component, click } = placeComponent(servers.game, 'cocos-relogin');
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    component.start();
    const { gc } = component as unknown as { gc: { tracker: { flush(): Promise<unknown> } } };
    (component as unknown as { token: Promise<string> }).token = Promise.resolve('a-token-the-server-no-longer-knows');
    click('play');
    vi.advanceTimersByTime(2_000);
    click('stop');
    await gc.tracker.flush().catch(() => undefined); // answered 401: the token is dropped
    expect(recordedFor('cocos-relogin')).toHaveLength(0);
    await gc.tracker.flush();
    await expect.poll(() => recordedFor('cocos-relogin')).toHaveLength(1);
    expect(warned).toHaveBeenCalledWith('campaign', 'auth', expect.objectContaining({ status: 401 }));
    component.onDestroy();
  });

  it('the editor\'s browser preview (http://localhost:7456) may call the login and the relay across origins; another origin may not', async () => {
    const preview = ['http://localhost:7456', 'http://127.0.0.1:7456'];
    expect(COCOS_PREVIEW_ORIGINS).toEqual(preview);
    const preflight = (path: string, origin: string, headers: string) =>
      fetch(`${servers.game.url}${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers } });
    for (const origin of preview) {
      const login = await preflight('/login', origin, 'content-type');
      expect(login.headers.get('access-control-allow-origin')).toBe(origin);
      expect(login.headers.get('access-control-allow-headers')).toContain('content-type');
      const relay = await preflight('/campaign/playtime/sessions', origin, 'authorization,content-type');
      expect(relay.status).toBe(204);
      expect(relay.headers.get('access-control-allow-origin')).toBe(origin);
    }
    const signedIn = await fetch(`${servers.game.url}/login`, { method: 'POST', headers: { origin: 'http://localhost:7456', 'content-type': 'application/json' }, body: '{"userId":"cocos-preview"}' });
    expect(signedIn.headers.get('access-control-allow-origin')).toBe('http://localhost:7456');

    const stranger = 'https://evil.example';
    expect((await preflight('/login', stranger, 'content-type')).headers.get('access-control-allow-origin')).toBeNull();
    const refused = await preflight('/campaign/playtime/sessions', stranger, 'authorization,content-type');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });
});

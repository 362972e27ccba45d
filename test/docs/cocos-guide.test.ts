/**
 * docs/guides/cocos.md, "The few lines a game needs", run as a studio copies it into a web build's component, against
 * the emulator through a real relay: `cc` is the Cocos fake (test/adapters/fakes/fake-cc.ts) plus the scene classes
 * the block uses (`Node`, `Widget`, `WebView`, `director`), `game-campaign-sdk/cocos` the built entry (dist/, Node's
 * package self-reference). Only what points it at this machine is changed, each edit failing when the guide no
 * longer holds it. The packed-package test compiles the block against Cocos Creator's types; this runs it: the
 * session is recorded, and the `webView` factory's component gets the page's address and its node is destroyed on close.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { toNodeHandler } from '../../adapters/node/index.js';
import { createRelay } from '../../core/relay/index.js';
import { CampaignServer } from '../../core/server/index.js';
import { DEMO_ACTIVE_CAMPAIGN_ID } from '../../emulator/fixtures.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
// @ts-expect-error: a plain ES module script without types
import { tsBlocks } from '../../scripts/doc-snippets.mjs';
import { createFakeCc, type FakeCc } from '../adapters/fakes/fake-cc.js';
import { serveGame } from '../helpers/game-server.js';

const ROOT = join(import.meta.dirname, '../..');
const TOKEN = 'your-login-token';

/** The engine the block's `cc` imports are: the fake engine objects, and a scene that keeps what is added to it. */
const engine = vi.hoisted(() => ({ cc: undefined as unknown, scene: [] as unknown[] }));

vi.mock('cc', () => {
  /** A scene node: components added to it, its events, and `destroy()` emitting `node-destroyed` as the engine's does. */
  class Node {
    readonly components: unknown[] = [];
    readonly handlers: Array<[string, (...args: unknown[]) => void]> = [];
    destroyed = false;
    constructor(readonly name = '') {}
    addComponent<T>(Type: new () => T): T {
      const component = new Type();
      (component as { node: Node }).node = this;
      this.components.push(component);
      return component;
    }
    on(type: string, callback: (...args: unknown[]) => void) {
      this.handlers.push([type, callback]);
    }
    destroy() {
      this.destroyed = true;
      for (const [type, callback] of this.handlers) if (type === 'node-destroyed') callback();
      return true;
    }
  }
  class Widget {}
  class WebView {
    url = '';
  }
  const cc = () => engine.cc as FakeCc;
  return {
    Node,
    Widget,
    WebView,
    director: { getScene: () => ({ addChild: (node: unknown) => engine.scene.push(node) }) },
    get sys() {
      return cc().sys;
    },
    get game() {
      return cc().game;
    },
    get Game() {
      return cc().Game;
    },
  };
});

type SceneNode = { name: string; components: Array<{ url?: string }>; destroyed: boolean };
type Gc = {
  tracker: { stop(): Promise<void>; flush(): Promise<void> };
  webview: { open(options: { campaignId: string }): Promise<{ close(): void; closed: Promise<void> }> };
  dispose(): Promise<void>;
};

describe('docs/guides/cocos.md, the few lines a game needs, in a web build', () => {
  let emulator: RunningEmulator;
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist/cocos.js'))) throw new Error('dist/ is missing: run `npm run build`');
    emulator = await startEmulator({ port: 0 });
    const relay = createRelay({
      server: new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: emulator.url } }),
      authenticate: (request) => (request.headers.get('authorization') === `Bearer ${TOKEN}` ? { userId: 'cocos-player' } : null),
    });
    ({ server, origin } = await serveGame({}, toNodeHandler(relay)));
  });
  afterAll(async () => {
    server?.close();
    await emulator?.close();
  });

  it('records the session the block starts, and opens the campaign page in the WebView its factory adds to the scene', async () => {
    const fake = createFakeCc('web');
    fake.start(); // the engine has started: the guide creates the SDK in a component's start()
    engine.cc = fake;
    const blocks = tsBlocks(readFileSync(join(ROOT, 'docs/guides/cocos.md'), 'utf8')) as Array<{ code: string }>;
    let code = blocks.find((block) => block.code.includes("from 'game-campaign-sdk/cocos'") && block.code.includes('webView: (url)'))!.code;
    const edit = (from: string, to: string) => {
      expect(code, `the example still holds ${from}`).toContain(from);
      code = code.replace(from, to);
    };
    edit('declare const userId: string;', "const userId = 'cocos-player';");
    edit('declare function sessionToken(): Promise<string>;', `const sessionToken = async () => ${JSON.stringify(TOKEN)};`);
    edit("clientKey: 'ck_key:secret',", `clientKey: ${JSON.stringify(emulator.clientKey)},`);
    edit("url: 'https://game.example/campaign'", `url: ${JSON.stringify(`${origin}/campaign`)}`);
    edit("gc.tracker.start({ campaignId: 'spring-event' });", `gc.tracker.start({ campaignId: ${JSON.stringify(DEMO_ACTIVE_CAMPAIGN_ID)} });`);
    code = `${code}\nexport { gc };\n`;
    mkdirSync(join(ROOT, 'build/doc-examples'), { recursive: true });
    const file = join(ROOT, 'build/doc-examples/cocos.mts');
    writeFileSync(file, code);
    const warned = vi.spyOn(console, 'warn');
    const { gc } = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { gc: Gc };
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_200)); // the player plays (under a second is too short)
      await gc.tracker.stop(); // "on level end"
      await gc.tracker.flush();
      await expect.poll(() => emulator.state().sessions.filter((session) => session.userId === 'cocos-player')).toEqual([
        expect.objectContaining({ campaignId: DEMO_ACTIVE_CAMPAIGN_ID, durationSeconds: expect.any(Number) }),
      ]);

      const view = await gc.webview.open({ campaignId: DEMO_ACTIVE_CAMPAIGN_ID });
      const [node] = engine.scene as SceneNode[];
      expect(node!.name).toBe('campaign-web-view');
      expect(node!.components.map((component) => component.constructor.name)).toEqual(['Widget', 'WebView']);
      // "the adapter sets .url and destroys the node on close"
      expect(node!.components[1]!.url).toMatch(new RegExp(`^${emulator.url}/webview\\?ott=[^#]+#code_verifier=[\\w-]{43}$`));
      view.close();
      await view.closed;
      expect(node!.destroyed).toBe(true);
      expect(warned).not.toHaveBeenCalled(); // the block's error listener heard nothing
    } finally {
      warned.mockRestore();
      await gc.dispose();
    }
  });
});

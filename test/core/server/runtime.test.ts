/** CampaignServer refuses to start in a game client, where its Server key would ship to players. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CampaignServer } from '../../../core/server/campaign-server.js';
import { detectClientRuntime } from '../../../core/server/runtime.js';
import { createFakeFetch, reply } from '../../helpers/fake-fetch.js';
import { paymentDetail } from '../schema/samples.js';

const SERVER_KEY = 'sk_test_1:s3cr3t';

afterEach(() => {
  vi.unstubAllGlobals();
});

const RUNTIMES: Array<[string, 'browser' | 'cocos' | 'react-native', () => void]> = [
  [
    'a browser (window and document)',
    'browser',
    () => {
      vi.stubGlobal('window', {});
      vi.stubGlobal('document', {});
    },
  ],
  ['a browser web worker (importScripts, no window)', 'browser', () => vi.stubGlobal('importScripts', () => undefined)],
  ['Cocos (globalThis.cc)', 'cocos', () => vi.stubGlobal('cc', { sys: {} })],
  ['React Native (navigator.product)', 'react-native', () => vi.stubGlobal('navigator', { product: 'ReactNative' })],
];

describe('CampaignServer in a game-client runtime', () => {
  it('starts on a server runtime', () => {
    expect(detectClientRuntime()).toBeUndefined();
    expect(() => new CampaignServer({ serverKey: SERVER_KEY })).not.toThrow();
  });

  // From JavaScript, with no options at all: the key's own message rather than "Cannot read properties of undefined".
  it('without options says what the key must be', () => {
    const construct = CampaignServer as unknown as new () => CampaignServer;
    expect(() => new construct()).toThrow(new TypeError('Server key missing: must have the form <key_id>:<secret>'));
  });

  it.each(RUNTIMES)('throws in %s', (_, runtime, install) => {
    install();
    expect(detectClientRuntime()).toBe(runtime);
    expect(() => new CampaignServer({ serverKey: SERVER_KEY })).toThrow(
      new TypeError(
        `CampaignServer holds a Server key and must not run in a game client (${runtime} detected). ` +
          'Call the Server API from your game server, and let clients reach it through createRelay().',
      ),
    );
  });

  it.each(RUNTIMES)('works in %s with dangerouslyAllowBrowser: true', async (_, __, install) => {
    install();
    const fake = createFakeFetch(reply.ok(paymentDetail));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, dangerouslyAllowBrowser: true });
    await expect(server.payments.get('tx-1')).resolves.toEqual(paymentDetail);
  });

  it.each([
    ['window without document (Deno 1.x)', () => vi.stubGlobal('window', {})],
    ['a navigator of another product', () => vi.stubGlobal('navigator', { product: 'Gecko', userAgent: 'Node.js/22' })],
    ['cc that is not an object', () => vi.stubGlobal('cc', 'carbon copy')],
    // workerd defines importScripts before 2024-03-04 (`no_importscripts_def`) and navigator from 2022-03-21 only.
    [
      'a Cloudflare Worker dated before 2024-03-04 (importScripts, WebSocketPair, navigator)',
      () => {
        vi.stubGlobal('importScripts', () => undefined);
        vi.stubGlobal('WebSocketPair', class {});
        vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
      },
    ],
    [
      'a Cloudflare Worker dated before 2022-03-21 (importScripts, WebSocketPair, no navigator)',
      () => {
        vi.stubGlobal('importScripts', () => undefined);
        vi.stubGlobal('WebSocketPair', class {});
        vi.stubGlobal('navigator', undefined);
      },
    ],
  ])('does not mistake %s for a game client', (_, install) => {
    install();
    expect(detectClientRuntime()).toBeUndefined();
    expect(() => new CampaignServer({ serverKey: SERVER_KEY })).not.toThrow();
  });

  it('restores the globals after each test', () => {
    expect('window' in globalThis).toBe(false);
    expect('cc' in globalThis).toBe(false);
    expect((globalThis as { navigator?: { product?: string } }).navigator?.product).not.toBe('ReactNative');
  });
});

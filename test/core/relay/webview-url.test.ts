/**
 * The relay's `webviewUrl` as `createRelay` checks it: the game opens `{url}?ott=<token>#code_verifier=<verifier>`,
 * so over `http:` on a public host anyone on the player's network (a café's Wi-Fi) reads the one-time token in the
 * request line and rewrites the page to read the verifier from the fragment: the player's web view session is theirs.
 * `http:` is kept for the hosts a developer tests on, which no public network carries.
 */
import { describe, expect, it } from 'vitest';
import { createRelay, RELAY_ROUTES } from '../../../core/relay/index.js';
import { CampaignServer } from '../../../core/server/index.js';
import { createEmulator } from '../../../emulator/index.js';
import { authenticateByHeader, read, relayOverFakeService, relayRequest } from './fake-service.js';

const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** The url a relay created over `baseUrl` (the emulator in-process) hands a player with its token. */
async function answeredUrl(options: { baseUrl: string; webviewUrl?: string }): Promise<unknown> {
  const emulator = createEmulator();
  const server = new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: options.baseUrl }, fetch: emulator.fetch });
  const relay = createRelay({ server, authenticate: authenticateByHeader, ...(options.webviewUrl ? { webviewUrl: options.webviewUrl } : {}) });
  const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.webviewToken, { codeChallenge: CHALLENGE }, 'alice')));
  expect(answer.status).toBe(200);
  return answer.body.data.url;
}

describe('createRelay refuses a webviewUrl that would give the player web view session away', () => {
  it.each([
    'http://play.example.com/webview',
    'http://play.example.com:8080/webview?from=game',
    'HTTP://CAMPAIGN.EXAMPLE/webview',
    'http://203.0.113.7/webview',
    'http://8.8.8.8/webview',
    'http://[2001:db8::1]/webview',
    'http://localhost.example.com/webview',
    'http://127.0.0.1.nip.io/webview',
    'http://10.0.0.1.example.com/webview',
    'http://example.local.evil.com/webview',
    'http://172.32.0.1/webview',
    'http://172.15.255.255/webview',
    'http://192.169.0.1/webview',
    'http://169.255.0.1/webview',
    'http://11.0.0.1/webview',
    'http://100.64.0.1/webview',
    'http://0.0.0.0/webview',
    'http://[fec0::1]/webview',
    'http://[::ffff:127.0.0.1]/webview',
  ])('http: on a host a public network carries: %s', (webviewUrl) => {
    expect(() => relayOverFakeService({ webviewUrl })).toThrow(TypeError);
    expect(() => relayOverFakeService({ webviewUrl })).toThrow(/^webviewUrl http:\/\/\S+ is http: on a host that is not local: .*use https:/i);
  });

  it('names the page, up to its query, and what to do in the error', () => {
    expect(() => relayOverFakeService({ webviewUrl: 'http://play.example.com/webview?campaign=1' })).toThrow(
      new TypeError(
        'webviewUrl http://play.example.com/webview is http: on a host that is not local: anyone on a player\'s network reads the ' +
          'one-time token it is opened with and can take over their web view session; use https: (http: only on localhost, ' +
          '*.localhost, 127.0.0.0/8, [::1], 10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7, fe80::/10, a name without a ' +
          'dot, or *.local, *.test, *.internal, *.home.arpa)',
      ),
    );
  });

  it('says when the refused address is the default, server.baseUrl + /webview', () => {
    const server = new CampaignServer({ serverKey: 'key_1:secret', environment: { baseUrl: 'http://staging.example.com' }, fetch: () => Promise.reject(new Error('unused')) });
    expect(() => createRelay({ server, authenticate: authenticateByHeader })).toThrow(
      /^webviewUrl http:\/\/staging\.example\.com\/webview \(the default: server\.baseUrl \+ \/webview, give `webviewUrl`\) is http: on a host that is not local/,
    );
  });

  it.each([
    ['https://cdnuser:s3cret@play.example.com/webview', 'https://…@play.example.com'],
    ['https://cdnuser@play.example.com/webview', 'https://…@play.example.com'],
    ['http://cdnuser:s3cret@localhost:8080/webview', 'http://…@localhost:8080'],
  ])('credentials in the address, handed to every player: %s', (webviewUrl, shown) => {
    let error: unknown;
    try {
      relayOverFakeService({ webviewUrl });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(TypeError);
    const message = (error as Error).message;
    expect(message).toBe(`webviewUrl ${shown} holds credentials (user:password@), which every player would be handed: leave them out`);
    expect(message).not.toContain('s3cret');
    expect(message).not.toContain('cdnuser');
  });

  it.each(['https://play.example.com/webview#section', 'https://play.example.com/webview#', 'http://localhost:8080/webview?a=1#x'])(
    'a fragment, which the SDK replaces with its own (#code_verifier=...): %s',
    (webviewUrl) => {
      expect(() => relayOverFakeService({ webviewUrl })).toThrow(
        new TypeError(`webviewUrl ${webviewUrl.split('?')[0]!.split('#')[0]} has a fragment (#...): the SDK adds its own (#code_verifier=...), leave it out`),
      );
    },
  );

  it.each(['https://exa mple.com/webview', 'http://[::1/webview', 'https://play.example.com:99999/webview'])(
    'an address the URL parser refuses, which every client would fail to open: %s',
    (webviewUrl) => {
      expect(() => relayOverFakeService({ webviewUrl })).toThrow(/^webviewUrl must be an absolute http\(s\) URL, got /);
    },
  );
});

describe('createRelay keeps every address a developer tests on, and https anywhere', () => {
  it.each([
    'https://play.example.com/webview',
    'https://203.0.113.7/webview?campaign=1',
    'http://localhost/webview',
    'http://localhost:8787/webview',
    'HTTP://LOCALHOST:8080/webview',
    'http://localhost./webview',
    'http://game.localhost:3000/webview',
    'http://127.0.0.1:8787/webview',
    'http://127.1.2.3/webview',
    'http://127.1/webview',
    'http://[::1]:8787/webview',
    'http://10.0.2.2:8787/webview',
    'http://10.255.255.255/webview',
    'http://172.16.0.1/webview',
    'http://172.31.255.255/webview',
    'http://192.168.1.20:8787/webview',
    'http://169.254.10.1/webview',
    'http://[fd12:3456::1]/webview',
    'http://[fc00::1]/webview',
    'http://[fe80::1]/webview',
    'http://[febf::1]/webview',
    'http://emulator/webview',
    'http://devbox:8787/webview',
    'http://my-laptop.local:8787/webview',
    'http://emulator.test/webview',
    'http://game-server.internal/webview',
    'http://router.home.arpa/webview',
  ])('%s', async (webviewUrl) => {
    const { relay } = relayOverFakeService({ webviewUrl });
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.webviewToken, { codeChallenge: CHALLENGE }, 'alice')));
    expect(answer.body.data.url).toBe(webviewUrl);
  });

  it.each(['http://127.0.0.1:8787', 'http://localhost:8787', 'http://emulator', 'http://emulator.local', 'http://emulator.test'])(
    "the default over the emulator's address %s",
    async (baseUrl) => {
      expect(await answeredUrl({ baseUrl })).toBe(`${baseUrl}/webview`);
    },
  );

  it('the default over the service (https)', async () => {
    expect(await answeredUrl({ baseUrl: 'https://sandbox-api.game-campaign.com' })).toBe('https://sandbox-api.game-campaign.com/webview');
  });
});

// @vitest-environment happy-dom
// Each adapter's createGameCampaign called from plain JavaScript with no options object, the first line a developer new
// to the SDK may try: it threw "Cannot destructure property 'browser' of 'options' as it is undefined" (browser),
// "... property 'cc' ..." (Cocos) or "Cannot read properties of undefined (reading 'tracker')" (React Native), naming
// nothing to pass. It now fails as `{}` does, with the message that names what is missing.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createGameCampaign as browserGame } from '../../adapters/browser/index.js';
import { createGameCampaign as cocosGame } from '../../adapters/cocos/index.js';
import { createGameCampaign as reactNativeGame } from '../../adapters/react-native/index.js';
import { CampaignClient } from '../../core/client/campaign-client.js';

const entries = { browser: browserGame, cocos: cocosGame, 'react-native': reactNativeGame } as Record<string, (...args: unknown[]) => unknown>;

describe('createGameCampaign with no options object', () => {
  it.each(Object.keys(entries))('%s: throws what {} throws, naming what to pass', (name) => {
    const create = entries[name]!;
    let expected: unknown;
    try {
      create({});
    } catch (error) {
      expected = error;
    }
    expect(expected).toBeInstanceOf(TypeError);
    expect(String(expected)).not.toMatch(/undefined|destructure/);
    for (const args of [[], [undefined]]) expect(() => create(...args), `${name}(${args.length ? 'undefined' : ''})`).toThrow(expected as Error);
  });
});

// `new CampaignClient()` (every entry exports it, the `<script>` global too) read `options.clientKey` of undefined:
// "Cannot read properties of undefined (reading 'clientKey')". It now says the Client key is missing, as `{}` does.
describe('new CampaignClient with no options object', () => {
  it('throws what {} throws, naming the Client key', () => {
    const make = (...args: unknown[]) => new (CampaignClient as unknown as new (...args: unknown[]) => unknown)(...args);
    const expected = new TypeError('Client key missing: must have the form <key_id>:<secret>');
    expect(() => make({})).toThrow(expected);
    for (const args of [[], [undefined]]) expect(() => make(...args), `new CampaignClient(${args.length ? 'undefined' : ''})`).toThrow(expected);
  });
});

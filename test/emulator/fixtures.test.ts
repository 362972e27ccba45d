// The demo fixtures: one project, an active and a pending campaign around now, creators with valid keys, coupons
// with different limits, boosts 40 and 10 days old; and an emulator on fixtures of its own.
import { describe, expect, it } from 'vitest';
import { CampaignDetail, Creator } from '../../core/schema/campaigns.js';
import { CREATOR_KEY_PATTERN } from '../../core/schema/primitives.js';
import {
  createEmulator,
  DEMO_ACTIVE_CAMPAIGN_ID,
  DEMO_BOOSTED_CREATORS,
  DEMO_CREATOR_KEYS,
  DEMO_PENDING_CAMPAIGN_ID,
  DEMO_PROJECT_ID,
  DEMO_USERS,
  demoFixtures,
  MOCK_CREATORS,
  type Fixtures,
} from '../../emulator/index.js';
import { caller, DAY_MS, T0 } from './helpers.js';

describe('emulator fixtures', () => {
  const fixtures = demoFixtures(T0);

  it('holds project proj_demo with an ACTIVE campaign around now and a PENDING_EXPOSURE one', () => {
    expect(fixtures.projectId).toBe(DEMO_PROJECT_ID);
    const [active, pending] = fixtures.campaigns;
    expect(active).toMatchObject({ campaignId: DEMO_ACTIVE_CAMPAIGN_ID, projectId: DEMO_PROJECT_ID, status: 'ACTIVE' });
    expect(Date.parse(active!.startDate)).toBeLessThan(T0);
    expect(Date.parse(active!.endDate)).toBeGreaterThan(T0);
    expect(pending).toMatchObject({ campaignId: DEMO_PENDING_CAMPAIGN_ID, status: 'PENDING_EXPOSURE' });
    for (const campaign of fixtures.campaigns) expect(CampaignDetail.safeParse(campaign).success).toBe(true);
  });

  it('holds at least 6 ACTIVE creators with valid keys, all in the active campaign and some in the pending one', () => {
    expect(fixtures.creators.length).toBeGreaterThanOrEqual(6);
    expect(fixtures.creators.map((c) => c.creatorKey)).toEqual([...DEMO_CREATOR_KEYS]);
    for (const creator of [...fixtures.creators, ...MOCK_CREATORS]) {
      expect(Creator.parse(creator)).toEqual(creator);
      expect(creator.creatorKey).toMatch(CREATOR_KEY_PATTERN);
      expect(creator.status).toBe('ACTIVE');
    }
    expect(fixtures.campaigns[0]!.creatorKeys).toEqual([...DEMO_CREATOR_KEYS]);
    expect(fixtures.campaigns[1]!.creatorKeys.length).toBeGreaterThan(0);
    expect(fixtures.campaigns[1]!.creatorKeys.length).toBeLessThan(DEMO_CREATOR_KEYS.length);
  });

  it('holds a boost registered 40 days ago (changeable) and one 10 days ago (in cooldown)', () => {
    expect(fixtures.boosts).toEqual([
      { userId: DEMO_USERS.changeable, campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: DEMO_BOOSTED_CREATORS.changeable, sponsoredAt: new Date(T0 - 40 * DAY_MS).toISOString() },
      { userId: DEMO_USERS.inCooldown, campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: DEMO_BOOSTED_CREATORS.inCooldown, sponsoredAt: new Date(T0 - 10 * DAY_MS).toISOString() },
    ]);
  });

  it('uses the fixtures given in the options, also after a reset', async () => {
    const own: Fixtures = {
      projectId: 'proj_own',
      campaigns: [{ ...fixtures.campaigns[0]!, campaignId: 'cmp_own', projectId: 'proj_own', creatorKeys: ['ABCDE'] }],
      creators: [{ creatorId: 1, creatorName: 'Abc', genre: 'RPG', creatorKey: 'ABCDE', status: 'ACTIVE' }],
      coupons: [],
      boosts: [],
    };
    const emulator = createEmulator({ fixtures: own, clock: { now: () => T0 } });
    const call = caller(emulator);
    const answer = await call('GET', '/v1/server/campaigns');
    expect(answer.body.data.map((c: { campaignId: string }) => c.campaignId)).toEqual(['cmp_own']);
    emulator.reset();
    expect(emulator.state().fixtures).toEqual(own);
    expect((await call('GET', '/v1/client/creators/LUNA7', { key: emulator.clientKey })).status).toBe(404);
  });
  it('refuses fixtures without the shape the emulator reads, naming where, instead of a 500 or a boost without cooldown', () => {
    const refused: Array<[unknown, RegExp]> = [
      [{ ...fixtures, creators: undefined }, /^Invalid fixtures: creators is required/],
      [{ ...fixtures, boosts: [{ ...fixtures.boosts[0]!, sponsoredAt: 'yesterday' }] }, /boosts\.0\.sponsoredAt must be/],
      [{ ...fixtures, campaigns: [{ ...fixtures.campaigns[0]!, creatorKeys: 'LUNA7' }] }, /campaigns\.0\.creatorKeys must be an array/],
      [{ ...fixtures, creators: [{ ...fixtures.creators[0]!, creatorKey: 'luna7' }] }, /creators\.0\.creatorKey must be exactly 5/],
      [{ ...fixtures, coupons: [{ ...fixtures.coupons[0]!, perUserLimit: '1' }] }, /coupons\.0\.perUserLimit must be/],
      // A function where data goes: named as the others, not structuredClone's DataCloneError ("could not be cloned").
      [{ ...fixtures, projectId: () => 'proj_demo' }, /^Invalid fixtures: projectId must be a string/],
    ];
    for (const [given, message] of refused) {
      expect(() => createEmulator({ fixtures: given as Fixtures, clock: { now: () => T0 } }), message.source).toThrow(message);
    }
  });
  it('refuses what JSON data cannot hold in a field the shape does not check, naming where, not a DataCloneError or a 500', async () => {
    // The shape lets unknown fields through (a newer spec field); the emulator then structuredClones the fixtures at
    // creation and at every reset, and GET /_emulator/state writes them as JSON: a function or a symbol was a raw
    // DataCloneError ("could not be cloned"), a bigint or a cycle answered the state 500.
    const campaign = fixtures.campaigns[0]!;
    const cyclic: Record<string, unknown> = { ...campaign };
    cyclic['self'] = { back: cyclic };
    class Links {
      open = (): string => 'https://example.com';
    }
    const refused: Array<[unknown, RegExp]> = [
      [{ ...fixtures, campaigns: [{ ...campaign, onOpen: () => undefined }] }, /^Invalid fixtures: campaigns\.0\.onOpen is a function; fixtures are JSON data$/],
      [{ ...fixtures, creators: [{ ...fixtures.creators[0]!, tag: Symbol('vip') }] }, /^Invalid fixtures: creators\.0\.tag is a symbol;/],
      [{ ...fixtures, coupons: [{ ...fixtures.coupons[0]!, links: new Links() }] }, /^Invalid fixtures: coupons\.0\.links\.open is a function;/],
      [{ ...fixtures, boosts: [{ ...fixtures.boosts[0]!, weight: 10n }] }, /^Invalid fixtures: boosts\.0\.weight is a bigint;/],
      [{ ...fixtures, campaigns: [cyclic] }, /^Invalid fixtures: campaigns\.0\.self\.back refers back to campaigns\.0 \(a cycle\);/],
      // Held where no field is listed: structuredClone's own words, as a TypeError.
      [{ ...fixtures, extra: new WeakMap() }, /^Invalid fixtures: .*could not be cloned.*; fixtures are JSON data$/],
    ];
    for (const [given, message] of refused) {
      let error: unknown;
      try {
        createEmulator({ fixtures: given as Fixtures, clock: { now: () => T0 } });
      } catch (thrown) {
        error = thrown;
      }
      expect(error, message.source).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(message);
    }
    // What JSON holds, and what structuredClone and JSON both take (a Date, a class instance's own fields), stays.
    class Note {
      text = 'hi';
      shout(): string {
        return this.text.toUpperCase();
      }
    }
    const kept = { ...fixtures, campaigns: [{ ...campaign, at: new Date(T0), note: new Note(), nothing: null }, ...fixtures.campaigns.slice(1)] } as Fixtures;
    const emulator = createEmulator({ fixtures: kept, clock: { now: () => T0 } });
    expect((await caller(emulator)('GET', '/_emulator/state')).status).toBe(200);
  });
  it('resets to the fixtures as checked at creation, not a later change to the object (a function added after was a raw DataCloneError)', async () => {
    const given = structuredClone(fixtures) as Fixtures & { onOpen?: unknown };
    const emulator = createEmulator({ fixtures: given, clock: { now: () => T0 } });
    given.onOpen = () => undefined;
    given.projectId = 'changed later';
    expect(() => emulator.reset()).not.toThrow();
    expect((await caller(emulator)('POST', '/_emulator/reset')).status).toBeLessThan(300);
    const state = await caller(emulator)('GET', '/_emulator/state');
    expect(state.status).toBe(200);
    expect(JSON.stringify(state.body)).not.toContain('changed later');
  });
});

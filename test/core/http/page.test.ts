/** Paged lists: `await` gives one page with its pagination, `for await` walks every page. */
import { describe, expect, it } from 'vitest';
import { ResponseValidationError, ValidationError } from '../../../core/http/errors.js';
import { CampaignServer } from '../../../core/server/campaign-server.js';
import { createFakeFetch, reply } from '../../helpers/fake-fetch.js';
import { campaign, couponUsage } from '../schema/samples.js';

const SERVER_KEY = 'sk_test_1:s3cr3t';

function serverWith(...script: Parameters<typeof createFakeFetch>) {
  const fake = createFakeFetch(...script);
  return { fake, server: new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch }) };
}

describe('PagePromise', () => {
  it('awaited, gives page 1 with its pagination', async () => {
    const pagination = { page: 1, limit: 20, total: 45, totalPages: 3 };
    const { fake, server } = serverWith(reply.page([campaign(1), campaign(2)], pagination));
    const page = await server.campaigns.list();
    expect(page.data).toEqual([campaign(1), campaign(2)]);
    expect(page.pagination).toEqual(pagination);
    expect(page.hasNextPage()).toBe(true);
    expect(fake.calls.map((c) => [c.method, c.path, c.query])).toEqual([['GET', '/v1/server/campaigns', { page: '1' }]]);
  });

  it('`for await` walks every page, asking for each page number in turn', async () => {
    const { fake, server } = serverWith(
      reply.page([couponUsage(1), couponUsage(2)], { page: 1, limit: 2, total: 5, totalPages: 3 }),
      reply.page([couponUsage(3), couponUsage(4)], { page: 2, limit: 2, total: 5, totalPages: 3 }),
      reply.page([couponUsage(5)], { page: 3, limit: 2, total: 5, totalPages: 3 }),
    );
    const ids: number[] = [];
    for await (const usage of server.coupons.listUsage('user-1', { limit: 2 })) ids.push(usage.id);
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(fake.calls.map((c) => c.url)).toEqual([
      'https://sandbox-api.game-campaign.com/v1/server/coupons/user/user-1?page=1&limit=2',
      'https://sandbox-api.game-campaign.com/v1/server/coupons/user/user-1?page=2&limit=2',
      'https://sandbox-api.game-campaign.com/v1/server/coupons/user/user-1?page=3&limit=2',
    ]);
  });

  it('starts from the page asked for', async () => {
    const { fake, server } = serverWith(
      reply.page([campaign(3)], { page: 2, limit: 50, total: 51, totalPages: 2 }),
    );
    const names: string[] = [];
    for await (const c of server.campaigns.list({ page: 2, limit: 50 })) names.push(c.campaignId);
    expect(names).toEqual(['camp-3']);
    expect(fake.calls.map((c) => c.query)).toEqual([{ page: '2', limit: '50' }]);
  });

  it('nextPage() fetches the following page; on the last page it rejects with RangeError', async () => {
    const { fake, server } = serverWith(
      reply.page([campaign(1)], { page: 1, limit: 1, total: 2, totalPages: 2 }),
      reply.page([campaign(2)], { page: 2, limit: 1, total: 2, totalPages: 2 }),
    );
    const first = await server.campaigns.list({ limit: 1 });
    const second = await first.nextPage();
    expect(second.data).toEqual([campaign(2)]);
    expect(second.hasNextPage()).toBe(false);
    await expect(second.nextPage()).rejects.toThrow(new RangeError('No next page'));
    expect(fake.calls.map((c) => c.query['page'])).toEqual(['1', '2']);
  });

  it('stops at an empty page even when totalPages says there are more (a shrinking list)', async () => {
    const { fake, server } = serverWith(
      reply.page([campaign(1)], { page: 1, limit: 1, total: 3, totalPages: 3 }),
      reply.page([], { page: 2, limit: 1, total: 3, totalPages: 3 }),
    );
    const seen: string[] = [];
    for await (const c of server.campaigns.list({ limit: 1 })) seen.push(c.campaignId);
    expect(seen).toEqual(['camp-1']);
    expect(fake.calls).toHaveLength(2);
  });

  // On 16d1558 the walk yielded an item twice when one was added before it during the walk (a redemption while a user's
  // coupon usage is read, newest first): page 2 then begins with page 1's last item.
  it('`for await` yields each item once when the list grows at its head during the walk', async () => {
    const { server } = serverWith(
      reply.page([couponUsage(5), couponUsage(4)], { page: 1, limit: 2, total: 5, totalPages: 3 }),
      // Usage 6 was added meanwhile: everything moved one place down.
      reply.page([couponUsage(4), couponUsage(3)], { page: 2, limit: 2, total: 6, totalPages: 3 }),
      reply.page([couponUsage(2), couponUsage(1)], { page: 3, limit: 2, total: 6, totalPages: 3 }),
    );
    const ids: number[] = [];
    for await (const usage of server.coupons.listUsage('user-1', { limit: 2 })) ids.push(usage.id);
    expect(ids).toEqual([5, 4, 3, 2, 1]);
  });

  it('the same for campaigns (by campaignId), from a page awaited first; nextPage() still gives each page as answered', async () => {
    const { server } = serverWith(
      reply.page([campaign(1), campaign(2)], { page: 1, limit: 2, total: 3, totalPages: 2 }),
      reply.page([campaign(2), campaign(3)], { page: 2, limit: 2, total: 4, totalPages: 2 }),
      reply.page([campaign(2), campaign(3)], { page: 2, limit: 2, total: 4, totalPages: 2 }),
    );
    const first = await server.campaigns.list({ limit: 2 });
    const names: string[] = [];
    for await (const c of first) names.push(c.campaignId);
    expect(names).toEqual(['camp-1', 'camp-2', 'camp-3']);
    expect((await first.nextPage()).data).toEqual([campaign(2), campaign(3)]);
  });

  it('items without their identity (unchecked without validateResponses) are all yielded', async () => {
    const { server } = serverWith(
      reply.page([{ note: 'a' }, { note: 'a' }], { page: 1, limit: 2, total: 3, totalPages: 2 }),
      reply.page([{ note: 'b' }], { page: 2, limit: 2, total: 3, totalPages: 2 }),
    );
    const items: unknown[] = [];
    for await (const item of server.coupons.listUsage('user-1', { limit: 2 })) items.push(item);
    expect(items).toEqual([{ note: 'a' }, { note: 'a' }, { note: 'b' }]);
  });

  it('fails clearly when the answer names another page than the one asked for (a proxy that drops the query)', async () => {
    // Every answer says page 1 of 3. Before, the walk asked for pages 2 and 3 and yielded page 1's items again for
    // each (camp-1 three times): a list read whole was page 1 repeated, with no error.
    const { fake, server } = serverWith(...[1, 2, 3].map(() => reply.page([campaign(1)], { page: 1, limit: 1, total: 3, totalPages: 3 })));
    const seen: string[] = [];
    const error = await (async () => {
      for await (const c of server.campaigns.list({ limit: 1 })) seen.push(c.campaignId);
    })().then(() => undefined, (e: unknown) => e);
    expect(seen).toEqual(['camp-1']);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE', message: expect.stringMatching(/^Page 2 was asked for and the answer is page 1: .*drops the query string/) });
    expect(fake.calls.map((c) => c.query['page'])).toEqual(['1', '2']);
    // Awaited at another page than 1, too.
    const { server: other } = serverWith(reply.page([campaign(1)], { page: 1, limit: 1, total: 3, totalPages: 3 }));
    await expect(other.campaigns.list({ page: 3, limit: 1 })).rejects.toThrow(/^Page 3 was asked for and the answer is page 1/);
  });

  it('fails clearly when an answer without its page number repeats the page before it', async () => {
    const pagination = { limit: 1, total: 3, totalPages: 3 } as unknown as { page: number; limit: number; total: number; totalPages: number };
    const { fake, server } = serverWith(...[1, 2].map(() => reply.page([couponUsage(1)], pagination)));
    const seen: number[] = [];
    await expect(async () => {
      for await (const usage of server.coupons.listUsage('user-1', { limit: 1 })) seen.push(usage.id);
    }).rejects.toThrow(/^Page 2 was asked for and the answer is the page before it again/);
    expect(seen).toEqual([1]);
    expect(fake.calls).toHaveLength(2);
    // Different items without a page number walk on as before.
    const { server: plain } = serverWith(...[1, 2].map((n) => reply.page([couponUsage(n)], { ...pagination, totalPages: 2 })));
    const ids: number[] = [];
    for await (const usage of plain.coupons.listUsage('user-1', { limit: 1 })) ids.push(usage.id);
    expect(ids).toEqual([1, 2]);
  });

  it('sends one request however often the first page is awaited', async () => {
    const { fake, server } = serverWith(reply.page([campaign(1)], { page: 1, limit: 20, total: 1, totalPages: 1 }));
    const pages = server.campaigns.list();
    const [a, b] = await Promise.all([pages, pages]);
    expect(a).toBe(b);
    expect(fake.calls).toHaveLength(1);
  });

  it('sends nothing until awaited or iterated', async () => {
    const { fake, server } = serverWith(reply.page([campaign(1)], { page: 1, limit: 20, total: 1, totalPages: 1 }));
    const pages = server.campaigns.list();
    await Promise.resolve();
    expect(fake.calls).toHaveLength(0);
    await pages;
    expect(fake.calls).toHaveLength(1);
  });

  it('a bad page query rejects with ValidationError on await, and nothing is sent', async () => {
    const { fake, server } = serverWith();
    const pages = server.coupons.listUsage('user-1', { page: 0, limit: 101 });
    const error = await pages.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({
      details: [
        { path: 'page', message: 'must be a whole number of at least 1' },
        { path: 'limit', message: 'must be an integer from 1 to 100' },
      ],
    });
    await expect(async () => {
      for await (const _ of server.coupons.listUsage('', {})) void _;
    }).rejects.toMatchObject({ details: [{ path: 'userId', message: 'must not be empty' }] });
    expect(fake.calls).toHaveLength(0);
  });

  it('a failure on a later page rejects the walk after the earlier items', async () => {
    const { server } = serverWith(
      reply.page([campaign(1)], { page: 1, limit: 1, total: 2, totalPages: 2 }),
      reply.error(404, 'NOT_FOUND', 'gone'),
    );
    const seen: string[] = [];
    await expect(async () => {
      for await (const c of server.campaigns.list({ limit: 1 })) seen.push(c.campaignId);
    }).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(seen).toEqual(['camp-1']);
  });

  // On 349fc30 (validateResponses off, the default) these were TypeErrors from the walk: "Cannot read properties of
  // undefined (reading 'totalPages')" and "current.data is not iterable".
  it.each([
    ['no pagination', { data: [campaign(1)] }],
    ['pagination without totalPages', { data: [campaign(1)], pagination: { page: 1 } }],
    // The transport's own check (a list's data is a list, core/http/transport.ts), before the page's.
    ['data that is not a list', { data: { items: [campaign(1)] }, pagination: { page: 1, limit: 20, total: 1, totalPages: 1 } }, 'The 200 response has no Campaign data'],
  ])('a page answer with %s is a ResponseValidationError, on await and in the walk', async (_, body, message = 'The response is not a page of a list: its data must be a list and its pagination hold totalPages') => {
    const { server } = serverWith(reply.json(200, body), reply.json(200, body));
    const awaited = await server.campaigns.list().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(awaited).toBeInstanceOf(ResponseValidationError);
    expect(awaited).toMatchObject({ code: 'INVALID_RESPONSE', message });
    await expect(async () => {
      for await (const _c of server.campaigns.list()) void _c;
    }).rejects.toBeInstanceOf(ResponseValidationError);
  });
});

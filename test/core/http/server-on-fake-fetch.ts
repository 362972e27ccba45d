/**
 * Shared set-up of the transport tests on a fake clock: a `CampaignServer` on a scripted fake fetch with a log of
 * its logger entries, and a way to look at a call still in flight while the fake clock stands still.
 */
import type { LogEntry } from '../../../core/http/transport.js';
import { CampaignServer, type CampaignServerOptions } from '../../../core/server/campaign-server.js';
import { createFakeFetch, reply, type FakeFetch, type Reply } from '../../helpers/fake-fetch.js';

export const SERVER_KEY = 'sk_test_1:s3cr3t';

type Outcome<T> = { state: 'pending' } | { state: 'resolved'; value: T } | { state: 'rejected'; error: unknown };

/** A call in flight whose outcome the test can inspect while the fake clock stands still. */
export function track<T>(promise: PromiseLike<T>): { outcome: () => Outcome<T> } {
  let outcome: Outcome<T> = { state: 'pending' };
  promise.then(
    (value) => (outcome = { state: 'resolved', value }),
    (error: unknown) => (outcome = { state: 'rejected', error }),
  );
  return { outcome: () => outcome };
}

/** A `CampaignServer` answering from `script`, every logger entry kept in `log`. */
export function setup(script: Reply[], options: Partial<CampaignServerOptions> = {}): { fake: FakeFetch; server: CampaignServer; log: LogEntry[] } {
  const fake = createFakeFetch(...script);
  const log: LogEntry[] = [];
  const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, logger: (entry) => log.push(entry), ...options });
  return { fake, server, log };
}

/** A 503 with the spec's error body. */
export const unavailable = () => reply.error(503, 'INTERNAL_ERROR', 'Service unavailable');

// The app's error fallback: an HTTPException (thrown by hono or a dependency, never by our routes) answers the spec's
// error body with the spec's code for its status; anything else is a logged 500 INTERNAL_ERROR.
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { describe, expect, it, vi } from 'vitest';
import type { AppEnv } from '../../emulator/app-env.js';
import { answerError } from '../../emulator/respond.js';

/** A one-route app that throws `error`, answered by the emulator's onError. */
async function answerFor(error: Error): Promise<{ status: number; body: unknown }> {
  const app = new Hono<AppEnv>()
    .get('/boom', () => {
      throw error;
    })
    .onError(answerError);
  const response = await app.fetch(new Request('http://emulator.local/boom'));
  return { status: response.status, body: await response.json() };
}

describe('emulator error fallback', () => {
  it.each([
    [401, 'Unauthorized', 'UNAUTHORIZED'],
    [403, 'Forbidden', 'FORBIDDEN'],
    [404, 'Not Found', 'NOT_FOUND'],
    [409, 'Conflict', 'CONFLICT'],
    [413, 'Payload Too Large', 'BAD_REQUEST'],
    [415, 'Unsupported Media Type', 'BAD_REQUEST'],
    [429, 'Too Many Requests', 'RATE_LIMITED'],
    [400, 'Bad Request', 'BAD_REQUEST'],
    [503, 'Service Unavailable', 'INTERNAL_ERROR'],
  ] as const)('answers an HTTPException %i with error %s and code %s', async (status, error, code) => {
    const answer = await answerFor(new HTTPException(status as ContentfulStatusCode, { message: 'thrown' }));
    expect(answer).toEqual({ status, body: { status, error, message: 'thrown', code } });
  });

  it('names the failure when the HTTPException carries no message', async () => {
    expect(await answerFor(new HTTPException(403))).toEqual({ status: 403, body: { status: 403, error: 'Forbidden', message: 'Request failed', code: 'FORBIDDEN' } });
  });

  it('answers any other error with a logged 500 INTERNAL_ERROR that does not leak the error', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const answer = await answerFor(new Error('secret detail'));
      expect(answer).toEqual({ status: 500, body: { status: 500, error: 'Internal Server Error', message: 'Internal error in the emulator', code: 'INTERNAL_ERROR' } });
      expect(log).toHaveBeenCalledOnce();
    } finally {
      log.mockRestore();
    }
  });
});

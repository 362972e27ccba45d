// Fault injection on /v1 requests, in-process: errorRate (500 before processing), dropRate (TypeError 'fetch failed',
// half before and half after processing), latencyMs, the injectable random, and the caller's abort signal.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { caller, emulatorAtT0, sessionBody } from './helpers.js';

/** A random that returns the given values in turn. */
function sequence(...values: number[]): () => number {
  let index = 0;
  return () => values[index++ % values.length]!;
}

describe('emulator faults', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers 500 INTERNAL_ERROR for the errorRate share of /v1 requests, before processing', async () => {
    const emulator = emulatorAtT0({ faults: { errorRate: 0.5 }, random: sequence(0.49, 0.5) });
    const call = caller(emulator);
    const failed = await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('s1') });
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ status: 500, error: 'Internal Server Error', message: 'Injected fault: internal error', code: 'INTERNAL_ERROR' });
    expect(emulator.state().sessions).toEqual([]);
    expect((await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('s1') })).status).toBe(201);
    expect(emulator.state().sessions).toHaveLength(1);
  });

  it('drops the connection before processing for draws below dropRate/2 and after processing up to dropRate', async () => {
    const emulator = emulatorAtT0({ faults: { dropRate: 0.5 }, random: sequence(0.1, 0.4, 0.6) });
    const call = caller(emulator);
    await expect(call('POST', '/v1/server/playtime/sessions', { body: sessionBody('before') })).rejects.toThrow(new TypeError('fetch failed'));
    expect(emulator.state().sessions).toEqual([]);
    await expect(call('POST', '/v1/server/playtime/sessions', { body: sessionBody('after') })).rejects.toThrow(new TypeError('fetch failed'));
    expect(emulator.state().sessions.map((s) => s.sessionId)).toEqual(['after']);
    const retried = await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('after') });
    expect(retried.status).toBe(201);
    expect(retried.body.data.recorded).toBe(false);
  });

  it('delays every /v1 answer by latencyMs', async () => {
    vi.useFakeTimers();
    const emulator = emulatorAtT0({ faults: { latencyMs: 500, rateLimitPerSecond: 0 } });
    let answered = false;
    const pending = caller(emulator)('GET', '/v1/server/campaigns').then((answer) => {
      answered = true;
      return answer;
    });
    await vi.advanceTimersByTimeAsync(499);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(200);
  });

  it('rejects with the caller abort reason when the caller gives up first (the request still completes)', async () => {
    vi.useFakeTimers();
    const emulator = emulatorAtT0({ faults: { latencyMs: 10_000 } });
    const controller = new AbortController();
    const request = new Request('http://emulator.local/v1/server/playtime/sessions', {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.serverKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(sessionBody('slow')),
      signal: controller.signal,
    });
    const pending = emulator.fetch(request);
    await vi.advanceTimersByTimeAsync(100);
    controller.abort(new Error('client time-out'));
    await expect(pending).rejects.toThrow('client time-out');
    expect(emulator.state().sessions.map((s) => s.sessionId)).toEqual(['slow']);
    await vi.advanceTimersByTimeAsync(10_000);
  });

  it('answers a request waiting out latencyMs at once when the emulator closes, and leaves no timer behind', async () => {
    // A pending wait kept a test's Node process alive after close() for up to latencyMs.
    vi.useFakeTimers();
    const emulator = emulatorAtT0({ faults: { latencyMs: 600_000, rateLimitPerSecond: 0 } }); // no limiter's own key timer
    let answered = false;
    const pending = caller(emulator)('GET', '/v1/server/campaigns').then((answer) => ((answered = true), answer));
    await vi.advanceTimersByTimeAsync(100);
    expect(answered).toBe(false);
    await emulator.close();
    await vi.advanceTimersByTimeAsync(0);
    expect(answered).toBe(true);
    expect((await pending).status).toBe(200);
    expect(vi.getTimerCount()).toBe(0);
    // After close nothing waits.
    expect((await caller(emulator)('GET', '/v1/server/campaigns')).status).toBe(200);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves the control endpoints and the web view page alone', async () => {
    const emulator = emulatorAtT0({ faults: { errorRate: 1, dropRate: 1 } });
    expect((await emulator.fetch(new Request('http://emulator.local/_emulator/state'))).status).toBe(200);
    expect((await emulator.fetch(new Request('http://emulator.local/webview'))).status).toBe(200);
  });

  it('changes faults with setFaults and rejects out-of-range values', async () => {
    const emulator = emulatorAtT0();
    const call = caller(emulator);
    emulator.setFaults({ errorRate: 1 });
    expect((await call('GET', '/v1/server/campaigns')).status).toBe(500);
    expect(emulator.state().faults).toEqual({ errorRate: 1, latencyMs: 0, dropRate: 0, rateLimitPerSecond: 50 });
    emulator.setFaults({ errorRate: 0 });
    expect((await call('GET', '/v1/server/campaigns')).status).toBe(200);
    expect(() => emulator.setFaults({ dropRate: 2 })).toThrow(new TypeError('Invalid faults: dropRate must be at most 1'));
    expect(() => emulatorAtT0({ faults: { latencyMs: -1 } })).toThrow(TypeError);
  });
});

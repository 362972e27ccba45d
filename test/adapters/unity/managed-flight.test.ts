/**
 * The player's own calls while the managed tracker's flush has a request in flight (csharp/ManagedFlightProbe.cs on
 * mono, JIT and full AOT): erasure waits for the flush sending and holds off the next one until it is done, as
 * core/tracker/tracker.ts deleteStoredData holds the flush lock; the off switch lets the request in flight be answered
 * and sends nothing more. No session is both recorded by the service and reported dropped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { aotProgram, runMono } from '../../contract/cs-runner/mono.js';
import { deviceProbeOnce } from './device-probe.js';

const work = mkdtempSync(join(tmpdir(), 'unity-managed-flight-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const probe = deviceProbeOnce(join(work, 'flight.exe'), 'ManagedFlightProbe');

function played(exe: string, mode: 'jit' | 'full-aot'): void {
  const { status, stdout, stderr } = runMono(exe, [join(work, `device-${mode}`)], mode);
  expect(status, stderr).toBe(0);
  const report = JSON.parse(stdout) as Record<string, unknown>;
  // Erased, then a flush asked for in the same frame: the erasure comes first and nothing is sent (before: the flush's
  // request left while the erasure ran, the relay recorded the session, and it was reported erased and flushed both).
  expect(report).toMatchObject({ eraseFlushHeld: 0, eraseFlushEvents: ['dropped erased'], eraseFlushTasks: 'RanToCompletion RanToCompletion' });
  expect(report).toMatchObject({ eraseFlushReceived: [], eraseFlushLeft: 0 });
  // A flush asked for as the erasure lists the queue, storage failing (the flush then reads no stored choice first): it
  // waits for the erasure; the queued session and the running one are erased, nothing is sent (before: every time sent,
  // erased and flushed).
  expect(report).toMatchObject({ listingFlushHeld: 0, listingFlushEvents: ['dropped erased', 'dropped erased'], listingFlushTasks: 'RanToCompletion RanToCompletion' });
  expect(report).toMatchObject({ listingFlushReceived: [], listingFlushLeft: 0 });
  // The flush's request in flight: the erasure waits for its answer (flushed, not also erased) and erases the session played meanwhile.
  expect(report).toMatchObject({ flushEraseHeld: 1, flushEraseWaits: 'WaitingForActivation', flushEraseEvents: ['dropped erased', 'flushed SUCCESS'] });
  expect(report).toMatchObject({ flushEraseTasks: 'RanToCompletion RanToCompletion', flushEraseReceived: ['flush-erase 3'], flushEraseLeft: 0 });
  // Switched off while the request is in flight: its answer still counts (flushed), the running session is dropped, nothing more is sent.
  expect(report).toMatchObject({ optOutFlushHeld: 1, optOutFlushEvents: ['dropped opted-out', 'flushed SUCCESS'], optOutFlushTasks: 'RanToCompletion RanToCompletion' });
  expect(report).toMatchObject({ optOutFlushReceived: ['optout-flush 3'], optOutFlushLeft: 0 });
}

it('erasure and the off switch while a flush is in flight', () => played(probe(), 'jit'), 120_000);

// iOS and IL2CPP players run no JIT: the same fully ahead of time.
it('mono full AOT: the same', () => played(aotProgram(probe(), join(work, 'aot')), 'full-aot'), 600_000);

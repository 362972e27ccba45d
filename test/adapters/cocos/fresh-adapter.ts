/** Steps the Cocos stories share: the adapter loaded as a fresh JavaScript context loads it, and microtasks run alone. */
import { vi } from 'vitest';

/** The adapter as a fresh JavaScript context loads it, its lazily imported WeChat code already loaded (fake timers do not wait for an import). */
export async function freshAdapter() {
  vi.resetModules();
  const cocos = await import('../../../adapters/cocos/index.js');
  await import('../../../adapters/cocos/wechat.js');
  await import('../../../adapters/cocos/xhr-request.js');
  return cocos;
}

/** Only the microtasks queued so far, and those they queue: no timer runs, no host callback comes. */
export async function microtasksOnly() {
  for (let i = 0; i < 100; i++) await Promise.resolve();
}

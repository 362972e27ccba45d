// The guide's DOM creator picker (docs/examples/picker-dom.ts) in Chromium, played with the keyboard only: a player
// who cannot use a pointer searches, picks a creator and boosts, and focus stays where they are as the list redraws
// on every change. The example is bundled as written; `gc.picker` is a stand-in that records what the player did.
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';

const ROOT = join(import.meta.dirname, '../..');

/** A picker with three creators whose actions change its state as the real one would, and record the calls. */
const STAND_IN = `
const creators = ['LUNA7', 'PIXEL', 'NOVA1'].map((creatorKey) => ({ creatorId: 1, creatorName: creatorKey.toLowerCase(), genre: 'rpg', creatorKey, status: 'ACTIVE' }));
window.calls = [];
window.gc = { picker: () => {
  const listeners = [];
  let state = { creators, loading: false, query: '', results: undefined, searching: false, boost: undefined, selected: undefined, canConfirm: false, cooldownDays: undefined, confirming: false, error: undefined, campaign: undefined };
  const set = (patch) => { state = { ...state, ...patch }; state.canConfirm = state.selected !== undefined && !state.confirming; listeners.forEach((listener) => listener(state)); };
  return {
    get state() { return state; },
    on: (type, listener) => (listeners.push(listener), () => {}),
    search: (query) => { calls.push('search ' + query); set({ query, results: creators.filter((creator) => creator.creatorKey.toLowerCase().includes(query.toLowerCase())) }); },
    select: (key) => { calls.push('select ' + key); set({ selected: key }); },
    confirm: async () => { calls.push('confirm'); set({ confirming: true }); set({ confirming: false, boost: { creatorKey: state.selected } }); },
    reload: async () => {},
    dispose: () => {},
  };
} };`;

describe.runIf(chromiumAvailable())('the DOM creator picker of the guide, keyboard only (Chromium)', () => {
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let example: string;

  beforeAll(async () => {
    const bundled = await build({ entryPoints: [join(ROOT, 'docs/examples/picker-dom.ts')], bundle: true, write: false, format: 'iife', globalName: 'PickerDom', target: 'es2020' });
    example = bundled.outputFiles[0]!.text;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function mounted(): Promise<Page> {
    const page = await browser.context.newPage();
    await page.setContent('<!doctype html><title>game</title><canvas tabindex="0"></canvas><div id="boost-screen"></div>');
    await page.addScriptTag({ content: STAND_IN });
    await page.addScriptTag({ content: example });
    await page.evaluate(() => {
      const global = globalThis as unknown as { PickerDom: typeof import('../../docs/examples/picker-dom.js'); gc: Parameters<typeof import('../../docs/examples/picker-dom.js').mountCreatorPicker>[0] };
      global.PickerDom.mountCreatorPicker(global.gc, document.getElementById('boost-screen')!, 'cmp_1');
    });
    return page;
  }

  /** The focused element: its tag and its name as a screen reader reads it (text, or aria-label). */
  const focused = (page: Page) => page.evaluate(() => ({ tag: document.activeElement?.tagName, name: document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent }));

  it('searches, picks a creator with Enter and boosts with Enter, focus kept on what the player pressed', async () => {
    const page = await mounted();
    await page.keyboard.press('Tab'); // the canvas
    await page.keyboard.press('Tab'); // the search box
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('INPUT');
    await page.keyboard.type('n');
    await page.keyboard.press('Tab'); // the first creator shown for 'n': luna7, then nova1
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => (window as unknown as { calls: string[] }).calls)).toEqual(['search n', 'select NOVA1']);
    // The list redrew after the selection: focus is still on the creator the player picked, announced as pressed.
    const afterSelect = await focused(page);
    expect(afterSelect.tag).toBe('BUTTON');
    expect(afterSelect.name).toContain('NOVA1');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-pressed'))).toBe('true');
    await page.keyboard.press('Tab'); // past the list to Boost
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Boost');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => (window as unknown as { calls: string[] }).calls)).toEqual(['search n', 'select NOVA1', 'confirm']);
    await page.close();
  });

  it('names the search box and announces the status (a live region)', async () => {
    const page = await mounted();
    const snapshot = await page.locator('#boost-screen').ariaSnapshot();
    expect(snapshot).toMatch(/textbox "Search creators/);
    expect(await page.locator('#boost-screen [role=status]').count()).toBe(1);
    await page.close();
  });
});

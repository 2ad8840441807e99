// Preferences survive a reload (a new Prefs over the same storage), and a storage holding
// anything else never breaks the page.

import { describe, expect, it } from 'vitest';
import { parsePrefs, Prefs, type PrefsStorage } from './prefs.svelte';

function memory(text: string | null = null): PrefsStorage & { text: string | null } {
  const store = {
    text,
    read: () => store.text,
    write: (t: string) => {
      store.text = t;
    },
  };
  return store;
}

describe('prefs', () => {
  it('keeps the mode, Predict first and folded panels across a reload', () => {
    const storage = memory();
    const before = new Prefs(storage);
    expect(before.mode).toBeUndefined();
    before.setMode('neural');
    before.setPredictFirst(true);
    before.setFolded('output', true);
    before.setFolded('model', false);
    before.setHeapView(true);
    const after = new Prefs(storage);
    expect(after.mode).toBe('neural');
    expect(after.predictFirst).toBe(true);
    expect(after.folded('output')).toBe(true);
    expect(after.folded('model')).toBe(false);
    expect(after.folded('watch')).toBeUndefined();
    expect(after.heapView).toBe(true);
  });

  it('keeps the theme and the text size across a reload', () => {
    const storage = memory();
    const before = new Prefs(storage);
    expect(before.theme).toBeUndefined();
    expect(before.fontSize).toBeUndefined();
    before.setTheme('contrast');
    before.setFontSize(20);
    const after = new Prefs(storage);
    expect(after.theme).toBe('contrast');
    expect(after.fontSize).toBe(20);
  });

  it('drops what is not a preference', () => {
    expect(parsePrefs('not json')).toEqual({});
    expect(parsePrefs('[1]')).toEqual({});
    expect(parsePrefs('{"mode":"fast","predictFirst":"yes","heapView":1,"folded":{"a":true,"b":1}}')).toEqual({ folded: { a: true } });
    // a theme that is not one of the four, a size not offered
    expect(parsePrefs('{"theme":"neon","fontSize":13}')).toEqual({});
    expect(parsePrefs('{"theme":"dark","fontSize":"16"}')).toEqual({ theme: 'dark' });
  });

  it('works without storage', () => {
    const prefs = new Prefs(null);
    prefs.setMode('real');
    expect(prefs.mode).toBe('real');
  });
});

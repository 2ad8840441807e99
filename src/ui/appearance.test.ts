// The theme follows the system unless the user picks one, Monaco's theme follows ours, the text
// size steps through the sizes offered and stays at the ends, and a reload keeps both.

import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FONT_SIZE,
  FONT_SIZES,
  MONACO_THEMES,
  fontSizeOf,
  panelScale,
  resolveTheme,
  stepFontSize,
  themeChoiceOf,
  type SystemLook,
  type Theme,
} from './appearance';
import { Appearance, type AppearanceEnvironment } from './appearance.svelte';
import { Prefs, type PrefsStorage } from './prefs.svelte';

const LIGHT: SystemLook = { dark: false, moreContrast: false };
const DARK: SystemLook = { dark: true, moreContrast: false };

describe('the theme', () => {
  it('follows the system for "system": more contrast first, then dark, else light', () => {
    expect(resolveTheme('system', LIGHT)).toBe('light');
    expect(resolveTheme('system', DARK)).toBe('dark');
    expect(resolveTheme('system', { dark: false, moreContrast: true })).toBe('contrast');
    expect(resolveTheme('system', { dark: true, moreContrast: true })).toBe('contrast');
  });

  it('is the one picked otherwise, whatever the system says', () => {
    for (const system of [LIGHT, DARK, { dark: true, moreContrast: true }]) {
      expect(resolveTheme('light', system)).toBe('light');
      expect(resolveTheme('dark', system)).toBe('dark');
      expect(resolveTheme('contrast', system)).toBe('contrast');
    }
  });

  it("gives Monaco its built-in themes", () => {
    expect(MONACO_THEMES).toEqual({ light: 'vs', dark: 'vs-dark', contrast: 'hc-black' });
  });

  it('reads back only the four choices', () => {
    expect(themeChoiceOf('dark')).toBe('dark');
    expect(themeChoiceOf('system')).toBe('system');
    expect(themeChoiceOf('hc-black')).toBeUndefined();
    expect(themeChoiceOf(undefined)).toBeUndefined();
  });
});

describe('the text size', () => {
  it('steps through the sizes offered and stays at the ends', () => {
    expect(stepFontSize(DEFAULT_FONT_SIZE, 1)).toBe(16);
    expect(stepFontSize(DEFAULT_FONT_SIZE, -1)).toBe(12);
    expect(stepFontSize(FONT_SIZES[0]!, -1)).toBe(FONT_SIZES[0]);
    expect(stepFontSize(FONT_SIZES.at(-1)!, 1)).toBe(FONT_SIZES.at(-1));
  });

  it('steps from the nearest size offered when it is between two', () => {
    expect(stepFontSize(15, 1)).toBe(16);
    expect(stepFontSize(15, -1)).toBe(14);
    expect(stepFontSize(8, 1)).toBe(12);
    expect(stepFontSize(8, -1)).toBe(12);
    expect(stepFontSize(40, -1)).toBe(28);
    expect(stepFontSize(40, 1)).toBe(28);
  });

  it('reads back only the sizes offered', () => {
    expect(fontSizeOf(18)).toBe(18);
    expect(fontSizeOf(17)).toBeUndefined();
    expect(fontSizeOf('18')).toBeUndefined();
  });

  it('scales the panels with the editor', () => {
    expect(panelScale(DEFAULT_FONT_SIZE)).toBe(1);
    expect(panelScale(28)).toBe(2);
    expect(panelScale(20)).toBeCloseTo(1.429, 3);
  });
});

function memory(): PrefsStorage {
  let text: string | null = null;
  return { read: () => text, write: (t) => (text = t) };
}

/** A page whose system look can change, recording what was applied. */
function page(system: SystemLook): AppearanceEnvironment & { applied: Theme[]; set(look: SystemLook): void } {
  let now = system;
  let listener: (() => void) | null = null;
  const env = {
    applied: [] as Theme[],
    system: () => now,
    watchSystem: (changed: () => void) => {
      listener = changed;
    },
    apply: (theme: Theme) => {
      env.applied.push(theme);
    },
    set(look: SystemLook) {
      now = look;
      listener?.();
    },
  };
  return env;
}

describe('the appearance store', () => {
  it('shows the system theme at first and follows it while the choice is "system"', () => {
    const env = page(LIGHT);
    const look = new Appearance(new Prefs(memory()), env);
    expect(look.choice).toBe('system');
    expect(look.theme).toBe('light');
    expect(look.monacoTheme).toBe('vs');
    env.set(DARK);
    expect(look.theme).toBe('dark');
    expect(look.monacoTheme).toBe('vs-dark');
    expect(env.applied).toEqual(['light', 'dark']);
  });

  it('keeps a picked theme and the text size across a reload, whatever the system says', () => {
    const storage = memory();
    const env = page(DARK);
    const look = new Appearance(new Prefs(storage), env);
    look.setTheme('contrast');
    look.stepFontSize(1);
    look.stepFontSize(1);
    expect(look.fontSize).toBe(18);
    expect(look.panelScale).toBeCloseTo(18 / 14, 3);
    env.set(LIGHT);
    expect(look.theme).toBe('contrast');
    const reloaded = new Appearance(new Prefs(storage), page(LIGHT));
    expect(reloaded.choice).toBe('contrast');
    expect(reloaded.theme).toBe('contrast');
    expect(reloaded.monacoTheme).toBe('hc-black');
    expect(reloaded.fontSize).toBe(18);
    reloaded.setTheme('system');
    expect(reloaded.theme).toBe('light');
  });

  it('says when the text cannot grow or shrink any more', () => {
    const look = new Appearance(null);
    expect(look.canShrink && look.canGrow).toBe(true);
    for (let i = 0; i < FONT_SIZES.length; i++) look.stepFontSize(-1);
    expect(look.fontSize).toBe(FONT_SIZES[0]);
    expect(look.canShrink).toBe(false);
    for (let i = 0; i < FONT_SIZES.length; i++) look.stepFontSize(1);
    expect(look.canGrow).toBe(false);
  });

  it('without prefs (an embed) follows the system and remembers nothing', () => {
    const look = new Appearance(null, page(DARK));
    expect(look.theme).toBe('dark');
    look.stepFontSize(1);
    expect(new Appearance(null).fontSize).toBe(DEFAULT_FONT_SIZE);
  });
});

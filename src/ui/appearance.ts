// How the page looks, as a projector in a classroom needs it: a theme (light, dark, high contrast)
// that follows the system's `prefers-color-scheme` and `prefers-contrast: more` unless the user
// picks one, and the size of the text in the editor and the panels. Pure: the store
// (appearance.svelte.ts) keeps the choice, browser.ts reads the system's wishes and applies it.

/** What the user picked: the system's theme, or one of the three. */
export type ThemeChoice = 'system' | 'light' | 'dark' | 'contrast';
/** The theme the page shows (`data-theme` on the root element; theme.css has its colours). */
export type Theme = 'light' | 'dark' | 'contrast';

/** The choices in the order the switch lists them, with their names. */
export const THEME_CHOICES: readonly { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'System theme' },
  { value: 'light', label: 'Light theme' },
  { value: 'dark', label: 'Dark theme' },
  { value: 'contrast', label: 'High contrast' },
];

export function themeChoiceOf(value: unknown): ThemeChoice | undefined {
  return THEME_CHOICES.some((c) => c.value === value) ? (value as ThemeChoice) : undefined;
}

/** What the system asks for (the media queries `prefers-color-scheme: dark` and `prefers-contrast: more`). */
export interface SystemLook {
  dark: boolean;
  moreContrast: boolean;
}

/** The theme shown for a choice: the system's wish for `system` (more contrast before dark). */
export function resolveTheme(choice: ThemeChoice, system: SystemLook): Theme {
  if (choice !== 'system') return choice;
  if (system.moreContrast) return 'contrast';
  return system.dark ? 'dark' : 'light';
}

/** Monaco's built-in theme for each of ours. */
export const MONACO_THEMES: Readonly<Record<Theme, 'vs' | 'vs-dark' | 'hc-black'>> = { light: 'vs', dark: 'vs-dark', contrast: 'hc-black' };

/** The editor's font sizes in pixels, smallest first; the panels' text scales with it. */
export const FONT_SIZES: readonly number[] = [12, 14, 16, 18, 20, 24, 28];
export const DEFAULT_FONT_SIZE = 14;

/** A stored size, if it is one of the sizes offered. */
export function fontSizeOf(value: unknown): number | undefined {
  return typeof value === 'number' && FONT_SIZES.includes(value) ? value : undefined;
}

/** The next size up (`+1`) or down (`-1`), staying at the ends; a size not offered steps from the
 * nearest one that is. */
export function stepFontSize(size: number, direction: 1 | -1): number {
  const at = FONT_SIZES.indexOf(size);
  if (at >= 0) return FONT_SIZES[Math.min(FONT_SIZES.length - 1, Math.max(0, at + direction))]!;
  const larger = FONT_SIZES.findIndex((s) => s > size);
  if (direction > 0) return larger >= 0 ? FONT_SIZES[larger]! : FONT_SIZES[FONT_SIZES.length - 1]!;
  return larger > 0 ? FONT_SIZES[larger - 1]! : larger === 0 ? FONT_SIZES[0]! : FONT_SIZES[FONT_SIZES.length - 1]!;
}

/** How much the panels' text is scaled for an editor font size (1 at the default). */
export function panelScale(size: number): number {
  return Math.round((size / DEFAULT_FONT_SIZE) * 1000) / 1000;
}

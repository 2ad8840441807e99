// The page's look as a store: the theme picked (or the system's) and the text size, kept across a
// reload in the prefs (an embed neither reads nor writes them), shown on the page through its
// environment (browser.ts: the root element's `data-theme`, the system's media queries).

import {
  DEFAULT_FONT_SIZE,
  FONT_SIZES,
  MONACO_THEMES,
  panelScale,
  resolveTheme,
  stepFontSize,
  type SystemLook,
  type Theme,
  type ThemeChoice,
} from './appearance';
import type { Prefs } from './prefs.svelte';

/** Where the store meets the page. */
export interface AppearanceEnvironment {
  /** What the system asks for now. */
  system(): SystemLook;
  /** Calls `changed` when the system's wishes change (a laptop switching to dark at dusk). */
  watchSystem(changed: () => void): void;
  /** Shows the theme on the page. */
  apply(theme: Theme): void;
}

export class Appearance {
  /** What the user picked. */
  choice = $state<ThemeChoice>('system');
  /** The editor's font size in pixels. */
  fontSize = $state(DEFAULT_FONT_SIZE);
  private system = $state<SystemLook>({ dark: false, moreContrast: false });

  /** The theme shown. */
  readonly theme = $derived<Theme>(resolveTheme(this.choice, this.system));
  /** Monaco's theme for it. */
  readonly monacoTheme = $derived(MONACO_THEMES[this.theme]);
  /** How much the panels' text is scaled (1 at the default size). */
  readonly panelScale = $derived(panelScale(this.fontSize));
  readonly canGrow = $derived(this.fontSize < FONT_SIZES[FONT_SIZES.length - 1]!);
  readonly canShrink = $derived(this.fontSize > FONT_SIZES[0]!);

  constructor(
    private readonly prefs: Prefs | null,
    private readonly env: AppearanceEnvironment | null = null,
  ) {
    this.choice = prefs?.theme ?? 'system';
    this.fontSize = prefs?.fontSize ?? DEFAULT_FONT_SIZE;
    if (env) {
      this.system = env.system();
      env.watchSystem(() => {
        this.system = env.system();
        this.show();
      });
      this.show();
    }
  }

  setTheme(choice: ThemeChoice): void {
    this.choice = choice;
    this.prefs?.setTheme(choice);
    this.show();
  }

  /** One size up (`+1`) or down (`-1`). */
  stepFontSize(direction: 1 | -1): void {
    this.fontSize = stepFontSize(this.fontSize, direction);
    this.prefs?.setFontSize(this.fontSize);
  }

  private show(): void {
    this.env?.apply(this.theme);
  }
}

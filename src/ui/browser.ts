// The browser as the stores see it: the only place that hands them `location`, `history`,
// `window` and `navigator`. main.ts builds the stores with these; tests give their own.

import type { LinkEnvironment } from './linkSync.svelte';
import { embedRunsAtOnce, isEmbed } from './embed';
import type { NeuralEnvironment } from './neuralEnvironment';
import type { PrefsStorage } from './prefs.svelte';
import type { AppearanceEnvironment } from './appearance.svelte';

/** The tab's own last link (sessionStorage lives as long as the tab, reloads included). */
const OWN_HASH = 'ndb-own-hash';
/** Set while a program runs (runMark.ts): a reload that finds it set runs nothing by itself. */
const RUNNING = 'ndb-run-in-progress';

/** Whether the page is inside another page's frame (a course page's embed). */
function framed(): boolean {
  try {
    return window.top !== window;
  } catch {
    return true;
  }
}

export function browserLink(): LinkEnvironment {
  return {
    hash: () => location.hash,
    replaceHash: (hash) => history.replaceState(history.state, '', hash),
    onHashChange: (listener) => window.addEventListener('hashchange', listener),
    href: () => location.href,
    copy: (text) => navigator.clipboard.writeText(text),
    embedded: embedRunsAtOnce(location.search, framed()),
    runFlag: {
      get: () => {
        try {
          return sessionStorage.getItem(RUNNING) !== null;
        } catch {
          return false; // storage blocked: nothing is kept across a reload
        }
      },
      set: (running) => {
        try {
          if (running) sessionStorage.setItem(RUNNING, '1');
          else sessionStorage.removeItem(RUNNING);
        } catch {
          // storage blocked: nothing is kept across a reload
        }
      },
    },
    ownHash: {
      get: () => {
        try {
          return sessionStorage.getItem(OWN_HASH);
        } catch {
          return null; // storage blocked: every link asks
        }
      },
      set: (hash) => {
        try {
          sessionStorage.setItem(OWN_HASH, hash);
        } catch {
          // storage blocked or full: a reload then asks, as for anyone's link
        }
      },
    },
  };
}

export function browserNeural(): NeuralEnvironment {
  const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
  return {
    query: location.search,
    baseUrl: new URL(import.meta.env.BASE_URL, location.href).href,
    requestAdapter: async () => (gpu ? gpu.requestAdapter() : null),
    hasWebGpu: gpu !== undefined,
  };
}

/** The page is an embed in a course page (`?embed`): a compact layout that runs its link at once. */
export function browserEmbedded(): boolean {
  return isEmbed(location.search);
}

/** Preferences that survive a reload (localStorage of the app's origin). */
export function browserPrefs(): PrefsStorage {
  const KEY = 'ndb-prefs';
  return {
    read: () => {
      try {
        return localStorage.getItem(KEY);
      } catch {
        return null; // storage blocked: the defaults
      }
    },
    write: (text) => {
      try {
        localStorage.setItem(KEY, text);
      } catch {
        // storage blocked or full: forgotten on reload
      }
    },
  };
}

/** The system's wishes (`prefers-color-scheme: dark`, `prefers-contrast: more`) and the root
 * element that shows the theme (`data-theme`, read by theme.css; index.html sets it before the
 * app loads, from the same prefs, so that a dark page never flashes white). */
export function browserAppearance(): AppearanceEnvironment {
  const dark = window.matchMedia('(prefers-color-scheme: dark)');
  const contrast = window.matchMedia('(prefers-contrast: more)');
  return {
    system: () => ({ dark: dark.matches, moreContrast: contrast.matches }),
    watchSystem: (changed) => {
      dark.addEventListener('change', changed);
      contrast.addEventListener('change', changed);
    },
    apply: (theme) => {
      document.documentElement.dataset.theme = theme;
    },
  };
}

// The browser as the stores see it: the only place that hands them `location`, `history`,
// `window` and `navigator`. main.ts builds the stores with these; tests give their own.

import type { LinkEnvironment } from './linkSync.svelte';
import { isEmbed } from './embed';
import type { NeuralEnvironment } from './neuralEnvironment';
import type { PrefsStorage } from './prefs.svelte';

/** The tab's own last link (sessionStorage lives as long as the tab, reloads included). */
const OWN_HASH = 'ndb-own-hash';

export function browserLink(): LinkEnvironment {
  return {
    hash: () => location.hash,
    replaceHash: (hash) => history.replaceState(history.state, '', hash),
    onHashChange: (listener) => window.addEventListener('hashchange', listener),
    href: () => location.href,
    copy: (text) => navigator.clipboard.writeText(text),
    embedded: isEmbed(location.search),
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

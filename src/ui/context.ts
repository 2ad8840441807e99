// The page's stores, handed from main.ts to every component by Svelte context (not module
// singletons), so that a test can mount the app or a panel with stores of its own.

import { getContext, setContext } from 'svelte';
import type { Appearance } from './appearance.svelte';
import type { Neural } from './neural.svelte';
import type { Prefs } from './prefs.svelte';
import type { Pwa } from './pwa.svelte';
import type { PageSession } from './pageSession.svelte';

export interface Stores {
  session: PageSession;
  neural: Neural;
  pwa: Pwa;
  /** What a reload keeps: mode, Predict first, folded panels. */
  prefs: Prefs;
  /** The theme and the text size (kept in the prefs). */
  appearance: Appearance;
  /** The page is embedded in a course page (`?embed`). */
  embedded: boolean;
}

const KEY: unique symbol = Symbol('ndb.stores');

/** The context to mount the app with: `mount(App, { target, context: storesContext(stores) })`. */
export function storesContext(stores: Stores): Map<symbol, Stores> {
  return new Map([[KEY, stores]]);
}

export function setStores(stores: Stores): Stores {
  return setContext(KEY, stores);
}

export function getStores(): Stores {
  const stores = getContext<Stores | undefined>(KEY);
  if (!stores) throw new Error('no stores in context: mount the app with storesContext(…)');
  return stores;
}

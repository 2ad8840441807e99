import { engineStarting } from './ui/prestart';
import { mount } from 'svelte';
import App from './ui/App.svelte';
import './ui/theme.css';
import { Appearance } from './ui/appearance.svelte';
import { browserAppearance, browserEmbedded, browserLink, browserNeural, browserPrefs } from './ui/browser';
import { storesContext } from './ui/context';
import { EXAMPLES } from './ui/examples';
import { Neural } from './ui/neural.svelte';
import { Prefs } from './ui/prefs.svelte';
import { Pwa } from './ui/pwa.svelte';
import { PageSession } from './ui/pageSession.svelte';

// The browser's install offer (`beforeinstallprompt`) comes once, early: it is listened for before
// anything is waited for (e2e/subpath.test.mjs).
const pwa = new Pwa();
pwa.start();

// Python's worker cannot start until this thread has handled its frame's load event and the engine's
// code (the frame is in another process, but the handoff is this page's): building the page holds
// the thread for ~300 ms on 2 cores, so on a warm start the worker started ~200 ms late, and the
// page itself was built no sooner: with the handoff first, 16 warm reloads gave Python ready at a
// median 1,341 ms (1,458 before) and the editor at 1,124 ms (1,158). The skeleton in index.html
// shows meanwhile. Only where the service worker serves the files from its cache (a later visit):
// on a first visit they come from the network, and the page would wait for them (`bench:web`'s cold
// editor came 0.3–0.5 s later with the wait); a handoff slower than half a second is not waited for.
if (navigator.serviceWorker?.controller) await Promise.race([engineStarting, new Promise((resolve) => setTimeout(resolve, 500))]);

const target = document.getElementById('app');
if (!target) throw new Error('#app is missing from index.html');

// Everything slow starts here, at once and before the page is drawn: the editor's code (Monaco),
// Python (Pyodide, in the worker ./ui/prestart started) and the model (in its worker). None waits
// for another; the real engine never waits for the model.
void import('./ui/monaco');
const session = new PageSession({ examples: EXAMPLES, link: browserLink() });
const embedded = browserEmbedded();
// An embed is its author's example: the app's own preferences are not read there, nor written.
const prefs = new Prefs(embedded ? null : browserPrefs());
const neural = new Neural(browserNeural(), prefs);
// The theme follows the system (or the user's pick); an embed follows the system only.
const appearance = new Appearance(embedded ? null : prefs, browserAppearance());
session.debug.onEvent = (ev) => neural.onDebugger(ev);
void session.start();
// On few cores the model is built once Python's start is light (measured: a cold Python start
// shared with the model's took 1.5–2.5 s longer on 2 cores); its files still download at once.
const fewCores = (navigator.hardwareConcurrency ?? 2) <= 4;
void neural.start(() => session.debug.session, fewCores ? session.debug.connection.heavyStartDone() : undefined);
const stores = { session, neural, pwa, prefs, appearance, embedded };
// index.html shows a static skeleton of the page until the app is mounted in its place.
target.textContent = '';
export default mount(App, { target, context: storesContext(stores) });

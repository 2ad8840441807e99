import { mount } from 'svelte';
import App from './ui/App.svelte';
import { browserLink, browserNeural } from './ui/browser';
import { storesContext } from './ui/context';
import { EXAMPLES } from './ui/examples';
import { Neural } from './ui/neural.svelte';
import { Pwa } from './ui/pwa.svelte';
import { Session } from './ui/session.svelte';

const target = document.getElementById('app');
if (!target) throw new Error('#app is missing from index.html');

const pwa = new Pwa();
pwa.start();
const stores = { session: new Session({ examples: EXAMPLES, link: browserLink() }), neural: new Neural(browserNeural()), pwa };
// index.html shows a static skeleton of the page until the app is mounted in its place.
target.textContent = '';
export default mount(App, { target, context: storesContext(stores) });

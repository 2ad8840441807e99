import { mount } from 'svelte';
import App from './ui/App.svelte';
import { pwa } from './ui/pwa.svelte';

const target = document.getElementById('app');
if (!target) throw new Error('#app is missing from index.html');

pwa.start();
// index.html shows a static skeleton of the page until the app is mounted in its place.
target.textContent = '';
export default mount(App, { target });

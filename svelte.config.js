// Svelte 5 understands TypeScript in <script lang="ts"> natively (type annotations only).
/** @type {import('@sveltejs/vite-plugin-svelte').SvelteConfig} */
export default {
  compilerOptions: {
    runes: true,
  },
};

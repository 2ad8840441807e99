// npm run build:cli (and `prepare`, at npm install): builds the CLI's bundle now (bin/cliBundle.mjs),
// so that the first `ndb` of a fresh machine does not build it. Every start checks it anyway.
import { buildBundle, freshBundle } from '../bin/cliBundle.mjs';

const t = performance.now();
if (freshBundle() && !process.argv.includes('--force')) {
  console.log('ndb: the CLI bundle is up to date');
} else {
  const built = await buildBundle();
  if (built === null) console.log('ndb: another process is building the CLI bundle now');
  else console.log(`ndb: built the CLI bundle in ${((performance.now() - t) / 1000).toFixed(1)} s (node_modules/.cache/ndb-cli)`);
}

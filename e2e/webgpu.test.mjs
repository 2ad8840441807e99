// WebGPU correctness through SwiftShader (headless Debian Chromium with --enable-unsafe-webgpu,
// docs/architecture.md#toolchain-facts): one prediction with the WebGPU backend (q4) must equal
// the one WASM makes from the same q4 weights (MatMulNBits on the CPU), so only the backend
// differs. SwiftShader
// is a CPU emulation, far slower than WASM (here ~1.6 s per decoded token for the dev model): this
// test keeps to a single step of at most 8 tokens (?max-new-tokens=8), compared with WASM.
// A second test destroys the worker's GPU device mid-session, as a driver reset would.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { LOAD_TIMEOUT, openApp, press, watchErrors } from './helpers.mjs';
import { useApp } from './setup.mjs';

const PREDICT_TIMEOUT = 120_000;
let server;
let browser;

async function firstPrediction(page) {
  await page.locator('main[data-model="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
  await press(page, 'Step into');
  const panel = page.getByRole('region', { name: 'Prediction', exact: true });
  await panel.locator('pre[data-raw]').waitFor({ state: 'attached', timeout: PREDICT_TIMEOUT });
  return (await panel.locator('pre[data-raw]').textContent()) ?? '';
}

function modelFacts(page) {
  return page
    .getByRole('region', { name: 'Model' })
    .locator('dd[data-key]')
    .evaluateAll((els) => Object.fromEntries(els.map((e) => [e.getAttribute('data-key'), e.textContent.trim()])));
}

describe('the neural engine on WebGPU (SwiftShader)', () => {
  const app = useApp({ args: ['--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-angle=swiftshader', '--use-webgpu-adapter=swiftshader'] });
  before(() => ({ server, browser } = app));

  it('predicts the first step on WebGPU exactly as WASM does with the same q4 weights', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    const hasAdapter = await page.goto(server.url).then(() => page.evaluate(async () => Boolean(navigator.gpu && (await navigator.gpu.requestAdapter()))));
    assert.ok(hasAdapter, 'no WebGPU adapter: Debian Chromium with --enable-unsafe-webgpu should offer SwiftShader');
    await openApp(page, `${server.url}?backend=webgpu&max-new-tokens=8`);
    const gpu = await firstPrediction(page);
    const facts = await modelFacts(page);
    assert.equal(facts.backend, 'your GPU (WebGPU)');
    assert.equal(facts.dtype, '4-bit integers (q4)');

    const ref = await browser.context.newPage();
    await openApp(ref, `${server.url}?backend=wasm&dtype=q4&max-new-tokens=8`);
    const cpu = await firstPrediction(ref);
    const refFacts = await modelFacts(ref);
    assert.match(refFacts.backend, /WebAssembly/);
    assert.equal(refFacts.dtype, '4-bit integers (q4)');
    assert.ok(cpu.length > 0);
    assert.equal(gpu, cpu);
    // onnxruntime's own warnings (node placement) come through console.error
    assert.deepEqual(errors.filter((e) => !/powerPreference|onnxruntime|VerifyEachNodeIsAssignedToAnEp/.test(e)), []);
  });

  it('a lost GPU device: the app says so and goes on with WASM', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await openApp(page, `${server.url}?backend=webgpu&max-new-tokens=8`);
    assert.ok((await firstPrediction(page)).length > 0);
    assert.equal((await modelFacts(page)).backend, 'your GPU (WebGPU)');

    // The device is the one onnxruntime holds in the model worker: destroy it at its next command.
    const worker = page.workers().find((w) => /model\.worker/.test(w.url()));
    assert.ok(worker, `no model worker among ${page.workers().map((w) => w.url()).join(', ')}`);
    await worker.evaluate(() => {
      const encode = GPUDevice.prototype.createCommandEncoder;
      GPUDevice.prototype.createCommandEncoder = function (...args) {
        this.destroy();
        return encode.apply(this, args);
      };
    });
    await press(page, 'Step into');
    const panel = page.getByRole('region', { name: 'Prediction', exact: true });
    await panel.getByText(/The GPU device was lost \(.+\): switched to WASM\./).waitFor({ timeout: PREDICT_TIMEOUT });
    await page.locator('main[data-model="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    assert.match((await modelFacts(page)).backend, /WebAssembly/);

    // The session goes on: the next step is predicted on the CPU (the reload cleared the last one).
    await panel.locator('pre[data-raw]').waitFor({ state: 'detached', timeout: 5_000 });
    await press(page, 'Step into');
    await panel.locator('pre[data-raw]').waitFor({ state: 'attached', timeout: PREDICT_TIMEOUT });
    assert.ok(((await panel.locator('pre[data-raw]').textContent()) ?? '').length > 0);
    assert.deepEqual(errors.filter((e) => !/powerPreference|onnxruntime|VerifyEachNodeIsAssignedToAnEp|WebGPU|GPU/.test(e)), []);
  });
});

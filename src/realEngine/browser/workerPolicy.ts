// The Content-Security-Policy of the frame that hosts the Python worker (engineFrame.ts). It is a
// meta tag in the frame's own document (an `srcdoc`), so it holds on every host, whether or not the
// server or the service worker sends headers; the worker inherits it (a worker made from a blob:
// URL takes its creator's policy), together with the frame's opaque origin.
//
// What it allows is what the engine needs and nothing else: the frame's one inline script (by a
// nonce: a hash would need crypto.subtle, which a page embedded in an insecure context lacks),
// scripts and workers from blob: URLs (Pyodide's JavaScript and the engine's own, handed in
// by the page as Blobs) and WebAssembly. No connection of any kind (fetch, XMLHttpRequest,
// WebSocket, EventSource, WebTransport, beacons), no image, font, media, frame, form target or base
// URL: the realm cannot send a request, whatever names it still holds.

/** The policy for a frame whose one inline script carries `nonce` (base64). */
export function engineFramePolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}' blob: 'wasm-unsafe-eval'`,
    'worker-src blob:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

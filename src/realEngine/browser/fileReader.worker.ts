// Reads files of the app's origin as Blobs, for the Python engine's frame (engineFrame.ts): in a
// worker of its own, so that the bodies (Pyodide's wasm and standard library, ~13 MB) drain off the
// page's main thread, which is busy building the page while Python starts. It runs the app's code
// only; a debugged program never reaches it.

/** The request: absolute URLs. The answers: each file as soon as it is read (by its index in the
 * request), or why one could not be. */
export type FileReaderRequest = string[];
export type FileReaderResponse = { index: number; blob: Blob } | { index: number; error: string };

interface ReaderScope {
  onmessage: ((ev: MessageEvent<FileReaderRequest>) => void) | null;
  postMessage(message: FileReaderResponse): void;
}

const scope = self as unknown as ReaderScope;

async function read(url: string): Promise<Blob> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${new URL(url).pathname}: HTTP ${res.status}`);
  return res.blob();
}

scope.onmessage = (ev) => {
  ev.data.forEach((url, index) => {
    read(url).then(
      (blob) => scope.postMessage({ index, blob }),
      (err: unknown) => scope.postMessage({ index, error: err instanceof Error ? err.message : String(err) }),
    );
  });
};

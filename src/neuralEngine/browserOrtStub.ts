// What transformers.js gets for `onnxruntime-web/webgpu` in the model worker's bundle: the app uses
// only its tokenizer, and runs the model with the onnxruntime-web build it imports at run time from
// /ort/ (browserModel.ts). Without this stub the worker's bundle would carry a second copy of ORT
// and its 27 MB wasm. `env` is an empty object: transformers.js only sets a log level on it.
export const env: Record<string, unknown> = {};
export const InferenceSession = undefined;
export class Tensor {}
export default { env, InferenceSession, Tensor };

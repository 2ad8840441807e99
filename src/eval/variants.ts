// `ndb eval variants`: each quantized variant against fp32 on real prompts — token-level top-1
// agreement along fp32's greedy output, whole-state agreement, and next-state exact match.

import { parseAction } from '../core/actions';
import { compareStates, reachedBy } from '../core/compare';
import { argmax } from '../neuralEngine/causalLm';
import type { ModelDtype } from '../neuralEngine/modelConfig';
import { NeuralSession } from '../neuralEngine/neuralSession';
import type { LoadedModel } from '../neuralEngine/nodeModel';
import type { PythonHost } from '../realEngine/pythonHost';
import type { EvalItem, OnProgress } from './items';
import { recordItem } from './replay';

export interface VariantReport {
  dtype: ModelDtype;
  states: number;
  top1_agreement: number;
  state_agreement: number;
  exact_match: number;
  onnx_bytes: number;
}

/** `base` is the fp32 model the `variants` are held against (one of them may be `base` itself). */
export async function evalVariants(base: LoadedModel, variants: readonly LoadedModel[], engine: PythonHost, items: readonly EvalItem[], onProgress?: OnProgress): Promise<VariantReport[]> {
  const tally = variants.map(() => ({ states: 0, tokens: 0, sameTokens: 0, sameStates: 0, exact: 0 }));
  for (const [i, item] of items.entries()) {
    const { rec, breakpoints, real } = await recordItem(engine, item);
    const start = real.position;
    const sessions = variants.map((v) => new NeuralSession(v.predictor, rec, start, breakpoints, { compose: [] }));
    const baseSession = new NeuralSession(base.predictor, rec, start, breakpoints, { compose: [] });
    // Actions only: a variant is compared on the recording as it is, never edited.
    for (const text of item.actions) {
      const action = parseAction(text);
      const reference = await baseSession.predict(action);
      const prompt = base.predictor.tokenizer.encode(baseSession.promptFor(action));
      real.apply(action);
      for (const [k, v] of variants.entries()) {
        const t = tally[k]!;
        const p = await sessions[k]!.predict(action);
        t.states++;
        if (p.text === reference.text) t.sameStates++;
        if (compareStates(real.state, p.state, reachedBy(action)).match) t.exact++;
        // teacher-forced along fp32's output: does the variant pick the same next token?
        let prefix = [...prompt];
        for (const tok of reference.ids) {
          const { logits } = await v.predictor.lm.prefill(prefix);
          t.tokens++;
          if (argmax(logits) === tok) t.sameTokens++;
          prefix = [...prefix, tok];
        }
      }
      baseSession.acceptReal(action, real.position);
      sessions.forEach((s) => s.acceptReal(action, real.position));
    }
    onProgress?.(i + 1, items.length);
  }
  return variants.map((v, k) => {
    const t = tally[k]!;
    return {
      dtype: v.dtype,
      states: t.states,
      top1_agreement: t.tokens ? t.sameTokens / t.tokens : 0,
      state_agreement: t.states ? t.sameStates / t.states : 0,
      exact_match: t.states ? t.exact / t.states : 0,
      onnx_bytes: v.onnxBytes,
    };
  });
}

// `ndb eval variants`: each quantized variant against fp32 on real prompts — token-level top-1
// agreement along fp32's greedy output, whole-state agreement, and next-state exact match.

import { readFileSync } from 'node:fs';
import { parseAction } from '../core/actions';
import { compareStates } from '../core/compare';
import { Navigator } from '../core/navigator';
import { stateAt } from '../core/state';
import { argmax } from '../neuralEngine/causalLm';
import type { ModelDtype } from '../neuralEngine/modelConfig';
import { NeuralSession } from '../neuralEngine/neuralSession';
import { loadNodeModel, type LoadedModel } from '../neuralEngine/nodeModel';
import { loadPythonHost } from '../realEngine/pythonHost';
import { Progress } from './progress';

interface Item {
  source: string;
  call: string;
  start?: number | null;
  actions: string[];
  breakpoints?: number[];
  max_events?: number;
}

export interface VariantReport {
  dtype: ModelDtype;
  states: number;
  top1_agreement: number;
  state_agreement: number;
  exact_match: number;
  onnx_bytes: number;
}

export async function evalVariants(dir: string, path: string, dtypes: ModelDtype[], limit: number): Promise<VariantReport[]> {
  const items = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim()).slice(0, limit).map((l) => JSON.parse(l) as Item);
  const engine = await loadPythonHost();
  const base = await loadNodeModel(dir, 'fp32');
  const variants: LoadedModel[] = [];
  for (const d of dtypes) variants.push(d === 'fp32' ? base : await loadNodeModel(dir, d));
  const tally = variants.map(() => ({ states: 0, tokens: 0, sameTokens: 0, sameStates: 0, exact: 0 }));
  const progress = new Progress(items.length, 'variants');
  for (const [i, item] of items.entries()) {
    const rec = await engine.forOwner(`eval item ${i}`).record(item.source, item.call, { maxEvents: item.max_events ?? 2000, timeLimit: 5 });
    const breakpoints = item.breakpoints ?? [];
    const nav = new Navigator(rec, breakpoints);
    if (item.start !== undefined && item.start !== null) nav.jump(item.start);
    const start = nav.position;
    const sessions = variants.map((v) => new NeuralSession(v.predictor, rec, start, breakpoints));
    const baseSession = new NeuralSession(base.predictor, rec, start, breakpoints);
    for (const text of item.actions) {
      const action = parseAction(text);
      const reference = await baseSession.predict(action);
      const prompt = base.predictor.tokenizer.encode(promptOf(baseSession, action));
      const refTokens = reference.ids;
      const real = stateAt(rec, nav.apply(action));
      for (const [k, v] of variants.entries()) {
        const t = tally[k]!;
        const p = await sessions[k]!.predict(action);
        t.states++;
        if (p.text === reference.text) t.sameStates++;
        if (compareStates(real, p.state).match) t.exact++;
        // teacher-forced along fp32's output: does the variant pick the same next token?
        let prefix = [...prompt];
        for (const tok of refTokens) {
          const { logits } = await v.predictor.lm.prefill(prefix);
          t.tokens++;
          if (argmax(logits) === tok) t.sameTokens++;
          prefix = [...prefix, tok];
        }
      }
      baseSession.acceptReal(action, nav.position);
      sessions.forEach((s) => s.acceptReal(action, nav.position));
    }
    progress.update(i + 1);
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

function promptOf(session: NeuralSession, action: ReturnType<typeof parseAction>): string {
  return session.promptFor(action);
}

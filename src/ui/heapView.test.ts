// What the Heap view says where the tracer stopped drawing the heap for the run's time
// (docs/trace.md, `heap_stopped`): plainly where it stopped, the names' values inline, no box and
// never the last picture drawn. Rendered on the server (svelte/server): no DOM needed.

import { render } from 'svelte/server';
import { describe, expect, it } from 'vitest';
import { objectsAt } from '../core/objects';
import type { HeapBox, Recording, TraceEvent } from '../core/trace';
import HeapView from './HeapView.svelte';

function ev(partial: Partial<TraceEvent>): TraceEvent {
  return { event: 'line', line: 1, function: '<module>', depth: 0, frame: 0, parent: -1, code: 0, locals: {}, out: 0, ...partial };
}

const list = (id: number, ...items: string[]): HeapBox => ({ id, kind: 'list', type: 'list', items: items.map((v) => ({ v })) });

function recording(events: TraceEvent[]): Recording {
  return { source: '', call: '', events, codes: [{ name: '<module>', firstline: 1, lines: [1], generator: false }], stdout: '', exit: { status: 'timeout' } } as unknown as Recording;
}

/** The view at event `i`: its caption's words and how many boxes it draws. */
function viewAt(rec: Recording, i: number): { caption: string; boxes: number } {
  const { body } = render(HeapView, { props: { heap: objectsAt(rec, rec.events[i]!).heap } });
  const caption = /<figcaption[^>]*>([\s\S]*?)<\/figcaption>/.exec(body)?.[1] ?? '';
  return { caption: caption.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim(), boxes: (body.match(/class="box /g) ?? []).length };
}

describe('the Heap view', () => {
  const rec = recording([
    ev({ locals: { xs: '[1]' }, ids: { xs: 1 }, heap: [list(1, '1')] }),
    ev({ locals: { xs: '[1, 2]' }, ids: { xs: 1 }, heap: [list(1, '1', '2')] }),
    ev({ locals: { xs: '[1, 2, 3]' }, ids: { xs: 1 }, heap_stopped: true }),
    ev({ locals: { xs: '[1, 2, 3, 4]' }, ids: { xs: 1 } }),
  ]);

  it('draws the heap up to where the tracer stopped, as before', () => {
    expect(viewAt(rec, 1)).toEqual({ caption: 'Each object once, an arrow for every name or item that refers to it.', boxes: 1 });
  });

  it('says plainly past there that the heap is not drawn, and why, with no box (never the last one drawn)', () => {
    for (const i of [2, 3]) {
      const view = viewAt(rec, i);
      expect(view.boxes).toBe(0);
      expect(view.caption).toBe("The heap is drawn up to event 2: drawing it past there would have cost the run its time limit. The names' values are written inline.");
    }
    const { body } = render(HeapView, { props: { heap: objectsAt(rec, rec.events[3]!).heap } });
    expect(body).toContain('[1, 2, 3, 4]');
  });

  it('says the heap is not drawn at all where it stopped at the first event', () => {
    const first = recording([ev({ locals: { xs: '[1]' }, ids: { xs: 1 }, heap_stopped: true })]);
    expect(viewAt(first, 0).caption).toBe("The heap is not drawn: drawing it would have cost the run its time limit. The names' values are written inline.");
  });
});

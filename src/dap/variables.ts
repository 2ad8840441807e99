// Variables as a DAP client sees them: rows of (name, repr), where a repr that has parts (a user
// object in the attribute form, a list, a dict…) gets a reference the client can expand.
// References live until the next stop, as the protocol says.

import { Handles } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { ParseResult } from '../core/format';
import { isExpandable, parseRepr, reprChildren, TRUNCATION_MARK } from '../core/objectRepr';
import type { Recording } from '../core/trace';
import type { Row } from './predicted';

export type VarNode =
  /** A real frame's locals, at the frame's latest event. */
  | { kind: 'locals'; event: number; top: boolean }
  /** `engine: both`: the model's state beside the real one. */
  | { kind: 'predicted' }
  /** `engine: neural`: the model's locals are the stop's locals. */
  | { kind: 'model' }
  | { kind: 'repr'; text: string; evaluateName?: string };

export class VariableStore {
  private handles = new Handles<VarNode>();

  /** A new stop: the old references are void. */
  reset(): void {
    this.handles.reset();
  }

  ref(node: VarNode): number {
    return this.handles.create(node);
  }

  get(ref: number): VarNode | undefined {
    return this.handles.get(ref);
  }

  /** A row as a DAP variable; `expand`: its repr may be opened into its parts. `evaluateName`:
   * the expression that gives it (a watch on a part of an object starts from it). */
  variable(row: Row, expand = true, evaluateName?: string): DebugProtocol.Variable {
    const variable: DebugProtocol.Variable = { name: row.name, value: row.value, variablesReference: 0 };
    if (evaluateName) variable.evaluateName = evaluateName;
    if (expand && isExpandable(row.value)) {
      variable.variablesReference = this.ref(evaluateName ? { kind: 'repr', text: row.value, evaluateName } : { kind: 'repr', text: row.value });
    }
    return variable;
  }

  /** The parts of an expandable repr. */
  children(node: Extract<VarNode, { kind: 'repr' }>): DebugProtocol.Variable[] {
    const kind = parseRepr(node.text).kind;
    return (reprChildren(node.text) ?? []).map((c) => this.variable(c, true, partName(node.evaluateName, kind, c.name)));
  }
}

/** A frame's locals at one of its events; the top frame also shows the value being returned or
 * the exception being raised, as Python debuggers do. */
export function localsRows(rec: Recording, event: number, top: boolean): Row[] {
  const e = rec.events[event];
  if (!e) return [];
  const rows: Row[] = [];
  if (top && e.value !== undefined) {
    if (e.event === 'exception' || e.raising) rows.push({ name: '(exception)', value: e.value });
    else if (e.event === 'return') rows.push({ name: '(return)', value: e.value });
  }
  for (const [name, value] of Object.entries(e.locals)) rows.push({ name, value });
  return rows;
}

/** The model's own stop (`engine: neural`): its locals, and its return value. */
export function modelRows(p: ParseResult): Row[] {
  if ('unparseable' in p) return [{ name: 'unreadable', value: p.unparseable }];
  if (p.event === 'exit' || p.event === 'entry') return [];
  const rows: Row[] = [];
  if (p.value !== undefined) rows.push({ name: p.event === 'exception' || p.raising ? '(exception)' : '(return)', value: p.value });
  for (const [name, value] of Object.entries(p.locals ?? {})) rows.push({ name, value });
  return rows;
}

/** How to write a part of a value as an expression, when it can be: `p.x`, `xs[0]`, `d['k']`. */
function partName(parent: string | undefined, kind: ReturnType<typeof parseRepr>['kind'], name: string): string | undefined {
  if (!parent || name === TRUNCATION_MARK || name.endsWith(TRUNCATION_MARK)) return undefined;
  const base = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(parent) || /[\])]$/.test(parent) ? parent : `(${parent})`;
  if (kind === 'object') return `${base}.${name}`;
  if (kind === 'list' || kind === 'tuple') return `${base}${name}`;
  if (kind === 'dict') return `${base}[${name}]`;
  return undefined;
}

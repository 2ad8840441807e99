// `pp EXPR`: a value's repr laid out over lines as Python's pprint lays out containers. Only the
// repr reaches the debugger (the value stays in the program's run), so the layout is read from
// the text's structure (core/objectRepr.ts); a repr it cannot read is printed as it is.

import { parseRepr, type ReprNode } from '../core/objectRepr';

const WIDTH = 80;

interface Shape {
  open: string;
  close: string;
  items: string[];
  /** The text before each item's value (`key: `, `name=`), laid out with it. */
  labels: string[];
}

function shapeOf(node: Exclude<ReprNode, { kind: 'atom' }>): Shape {
  switch (node.kind) {
    case 'list':
      return { open: '[', close: ']', items: node.items, labels: node.items.map(() => '') };
    case 'tuple':
      return { open: '(', close: node.items.length === 1 ? ',)' : ')', items: node.items, labels: node.items.map(() => '') };
    case 'set':
      return { open: '{', close: '}', items: node.items, labels: node.items.map(() => '') };
    case 'frozenset':
      return { open: 'frozenset({', close: '})', items: node.items, labels: node.items.map(() => '') };
    case 'dict':
      return { open: '{', close: '}', items: node.entries.map((e) => e.value), labels: node.entries.map((e) => `${e.key}: `) };
    case 'object':
      return { open: `${node.name}(`, close: ')', items: node.fields.map((f) => f.value), labels: node.fields.map((f) => `${f.name}=`) };
  }
}

/** `text` as it fits in `width` columns from column `indent`: one line when it fits, else one
 * item a line, each laid out the same way. */
export function prettyRepr(text: string, indent = 0, width = WIDTH): string {
  if (indent + text.length <= width) return text;
  const node = parseRepr(text);
  // a cut repr (the tracer's length cap) is left whole: its last item is not a value
  if (node.kind === 'atom' || node.truncated) return text;
  const shape = shapeOf(node);
  if (shape.items.length === 0) return text;
  const inner = indent + shape.open.length;
  const pad = ' '.repeat(inner);
  const lines = shape.items.map((item, i) => {
    const label = shape.labels[i]!;
    return label + prettyRepr(item.trim(), inner + label.length, width);
  });
  return shape.open + lines.join(`,\n${pad}`) + shape.close;
}

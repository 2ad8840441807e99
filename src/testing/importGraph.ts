// Which source files import which, and where they import each other in a circle. A circle makes
// a file's meaning depend on files that depend on it, so no part of it can be read, tested or
// moved alone; type-only imports count, since they tie the files' meanings all the same.
//
// The imports are read with a small scanner rather than regular expressions over the text: an
// import written inside a string, a template, a regular expression or a comment (tests and docs
// hold such text) is not an import, and only code can tell them apart.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';

// `template`: a template literal with ${…} in it, a value whose text is not known
type Token = { kind: 'word' | 'punct' | 'string' | 'template'; text: string };

// After these a "/" begins a regular expression; after a value it divides.
const BEFORE_EXPRESSION = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);

/** The tokens of TypeScript code that matter to imports: words, punctuation and string literals
 * (with their contents, as are templates without ${…}); comments and regular expressions are
 * skipped. */
function tokens(code: string): Token[] {
  const out: Token[] = [];
  // open template literals, innermost last: the braces opened inside the current ${…}, and the
  // text so far (a template with no ${…} is a string, e.g. import(`./x`))
  const templates: Array<{ braces: number; text: string; plain: boolean }> = [];
  let i = 0;
  const last = (): Token | undefined => out[out.length - 1];
  const regexAllowed = (): boolean => {
    const t = last();
    if (t === undefined) return true;
    if (t.kind === 'word') return BEFORE_EXPRESSION.has(t.text);
    if (t.kind !== 'punct') return false;
    return t.text !== ')' && t.text !== ']' && t.text !== '}';
  };
  // from just after a "`" or a "}" that ends a ${…}: to the end of the template or the next ${
  const templateText = (): void => {
    const template = templates[templates.length - 1]!;
    while (i < code.length) {
      const c = code[i]!;
      if (c === '\\') {
        template.text += code[i + 1] ?? '';
        i += 2;
      } else if (c === '`') {
        i++;
        templates.pop();
        out.push(template.plain ? { kind: 'string', text: template.text } : { kind: 'template', text: '' });
        return;
      } else if (c === '$' && code[i + 1] === '{') {
        i += 2;
        template.plain = false;
        return;
      } else template.text += code[i++];
    }
  };
  while (i < code.length) {
    const c = code[i]!;
    if (/\s/.test(c)) i++;
    else if (c === '/' && code[i + 1] === '/') i = code.indexOf('\n', i) < 0 ? code.length : code.indexOf('\n', i);
    else if (c === '/' && code[i + 1] === '*') i = code.indexOf('*/', i + 2) < 0 ? code.length : code.indexOf('*/', i + 2) + 2;
    else if (c === '"' || c === "'") {
      let text = '';
      i++;
      while (i < code.length && code[i] !== c && code[i] !== '\n') {
        if (code[i] === '\\') {
          text += code[i + 1] ?? '';
          i += 2;
        } else text += code[i++];
      }
      i++;
      out.push({ kind: 'string', text });
    } else if (c === '`') {
      i++;
      templates.push({ braces: 0, text: '', plain: true });
      templateText();
    } else if (c === '/' && regexAllowed()) {
      let inClass = false;
      i++;
      while (i < code.length && code[i] !== '\n' && (inClass || code[i] !== '/')) {
        if (code[i] === '\\') i++;
        else if (code[i] === '[') inClass = true;
        else if (code[i] === ']') inClass = false;
        i++;
      }
      i++;
      while (i < code.length && /[a-z]/i.test(code[i]!)) i++;
      out.push({ kind: 'string', text: '' });
    } else if (/[\p{L}\p{N}_$]/u.test(c)) {
      const m = /^[\p{L}\p{N}_$]+/u.exec(code.slice(i, i + 200))!;
      out.push({ kind: 'word', text: m[0] });
      i += m[0].length;
    } else {
      const template = templates[templates.length - 1];
      if (template && c === '{') template.braces++;
      if (template && c === '}') {
        if (template.braces === 0) {
          i++;
          templateText();
          continue;
        }
        template.braces--;
      }
      out.push({ kind: 'punct', text: c });
      i++;
    }
  }
  return out;
}

// What may stand between `import`/`export` and `from`: names, braces, commas, `*`, `type`, `as`.
function isClauseToken(t: Token): boolean {
  return t.kind === 'word' || (t.kind === 'punct' && ['{', '}', ',', '*'].includes(t.text));
}

/** The module specifiers a piece of TypeScript code imports: `import … from`, `import type …`,
 * `import '…'`, `export * from`, `export { … } from`, `export type { … } from`, and dynamic
 * `import('…')` (types' `typeof import('…')` included). */
export function importSpecifiers(code: string): string[] {
  const ts = tokens(code);
  const found: string[] = [];
  for (let k = 0; k < ts.length; k++) {
    const t = ts[k]!;
    if (t.kind !== 'word' || (t.text !== 'import' && t.text !== 'export')) continue;
    if (ts[k - 1]?.text === '.') continue; // a property named import or export
    const next = ts[k + 1];
    if (t.text === 'import' && next?.text === '(' && ts[k + 2]?.kind === 'string') {
      found.push(ts[k + 2]!.text);
      continue;
    }
    if (t.text === 'import' && next?.kind === 'string') {
      found.push(next.text);
      continue;
    }
    // `export` begins a re-export only with `*`, `{` or `type {`/`type *`
    if (t.text === 'export' && !(next?.text === '*' || next?.text === '{' || (next?.text === 'type' && ['{', '*'].includes(ts[k + 2]?.text ?? '')))) continue;
    let j = k + 1;
    while (j < ts.length && isClauseToken(ts[j]!) && !(ts[j]!.text === 'from' && ts[j + 1]?.kind === 'string')) j++;
    if (ts[j]?.text === 'from' && ts[j + 1]?.kind === 'string') found.push(ts[j + 1]!.text);
  }
  return found;
}

/** The code of a file: a .svelte file's <script> blocks, any other file whole. */
export function codeOf(path: string, text: string): string {
  if (!path.endsWith('.svelte')) return text;
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).join('\n;\n');
}

// How a specifier without the file's own name is completed, in the order bundlers try them.
const COMPLETIONS = ['', '.ts', '.svelte', '.js', '/index.ts', '/index.js'];

/** The file a relative specifier names, among `files` (absolute paths); null for a package or a
 * file that is not among them. A `.js` ending may stand for the `.ts` file (TypeScript's ESM). */
export function resolveSpecifier(from: string, specifier: string, files: ReadonlySet<string>): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier.replace(/\?.*$/, ''));
  const candidates = COMPLETIONS.map((c) => base + c);
  if (extname(base) === '.js') candidates.push(base.slice(0, -3) + '.ts');
  return candidates.find((c) => files.has(c)) ?? null;
}

/** File → the files among `files` it imports. */
export type ImportGraph = Map<string, Set<string>>;

/** The graph of the given files (absolute path → text). */
export function importGraph(files: ReadonlyMap<string, string>): ImportGraph {
  const names = new Set(files.keys());
  const graph: ImportGraph = new Map();
  for (const [path, text] of files) {
    const targets = new Set<string>();
    for (const spec of importSpecifiers(codeOf(path, text))) {
      const target = resolveSpecifier(path, spec, names);
      if (target !== null) targets.add(target);
    }
    graph.set(path, targets);
  }
  return graph;
}

/** The circles of a graph: its strongly connected components of more than one file (Tarjan's
 * algorithm, iterative so that long chains cannot overflow). A file that imports itself (a
 * recursive Svelte component) is recursion inside one file, not files tied together: no circle. */
export function circles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let counter = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; edges: Iterator<string> }> = [];
    const enter = (node: string): void => {
      index.set(node, counter);
      low.set(node, counter++);
      stack.push(node);
      onStack.add(node);
      work.push({ node, edges: (graph.get(node) ?? new Set<string>()).values() });
    };
    enter(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const step = top.edges.next();
      if (!step.done) {
        const next = step.value;
        if (!index.has(next)) enter(next);
        else if (onStack.has(next)) low.set(top.node, Math.min(low.get(top.node)!, index.get(next)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== top.node);
      if (component.length > 1) found.push(component.sort());
    }
  }
  return found;
}

/** Every .ts and .svelte file under the folders (absolute path → text); folders that do not
 * exist are skipped. */
export function readSources(folders: readonly string[]): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|svelte)$/.test(name)) files.set(path, readFileSync(path, 'utf8'));
    }
  };
  for (const folder of folders) if (existsSync(folder)) walk(resolve(folder));
  return files;
}

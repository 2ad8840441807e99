// The Monaco wiring of the Python editor (Editor.svelte keeps its props and effects): the editor
// and its decoration layers, edits reported as edits or as a whole new program, the gutter taking
// breakpoints by click, tap, right-click and long press, the hover hint, and the actions of the
// context menu and the keyboard (Run to line, F9, Ctrl+M, Edit breakpoint condition).

import type { monaco } from './monaco';
import { LongPress } from './longPress';

type Decorations = monaco.editor.IEditorDecorationsCollection;

export interface EditorHandlers {
  /** `replacedAll`: the edit replaced the whole program (select all, then paste or type). */
  onchange(value: string, replacedAll: boolean): void;
  ontogglebreakpoint(line: number): void;
  onbreakpointsmoved(lines: number[]): void;
  onruntoline(line: number): void;
  oneditcondition?(line: number): void;
  oncontentheight?(px: number): void;
  ontoggletabfocus(): void;
  /** True while the component itself writes a new value in: not the user's edit. */
  applyingValue(): boolean;
}

export interface PythonEditor {
  editor: monaco.editor.IStandaloneCodeEditor;
  breakpoints: Decorations;
  current: Decorations;
  ghost: Decorations;
  frame: Decorations;
  error: Decorations;
  dispose(): void;
}

/** How the editor looks when it is made (the component updates both later). */
export interface EditorLook {
  fontSize: number;
  theme: string;
}

export function createPythonEditor(M: typeof monaco, host: HTMLElement, value: string, look: EditorLook, on: EditorHandlers): PythonEditor {
  const ed = M.editor.create(host, {
    value,
    language: 'python',
    theme: look.theme,
    glyphMargin: true,
    lineNumbersMinChars: 3,
    minimap: { enabled: false },
    fontSize: look.fontSize,
    fontFamily: "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace",
    scrollBeyondLastLine: false,
    automaticLayout: true,
    tabSize: 4,
    insertSpaces: true,
    renderLineHighlight: 'none',
    ariaLabel: 'Python code',
  });
  const breakpoints = ed.createDecorationsCollection();
  const hover = ed.createDecorationsCollection();
  /** The whole text's range before the latest edit: an edit over all of it replaces the program. */
  let fullRange = ed.getModel()?.getFullModelRange() ?? null;

  ed.onDidChangeModelContent((e) => {
    const before = fullRange;
    fullRange = ed.getModel()?.getFullModelRange() ?? null;
    if (on.applyingValue()) return;
    const hadText = before !== null && (before.endLineNumber > 1 || before.endColumn > 1);
    const replacedAll =
      hadText &&
      e.changes.some(
        (c) =>
          c.range.startLineNumber === 1 &&
          c.range.startColumn === 1 &&
          c.range.endLineNumber === before.endLineNumber &&
          c.range.endColumn === before.endColumn,
      );
    on.onchange(ed.getValue(), replacedAll);
    // A new program has none of the old one's breakpoints (the session forgot them): their
    // decorations, squeezed onto its first line, must not come back as breakpoints.
    if (replacedAll) {
      breakpoints.clear();
      return;
    }
    // Breakpoint decorations travel with their lines as the code is edited.
    on.onbreakpointsmoved(breakpoints.getRanges().map((r) => r.startLineNumber));
  });

  // The gutter takes breakpoints: the glyph margin and the line numbers (a finger finds a line
  // number; the margin is 19 px wide).
  const gutter = (type: monaco.editor.MouseTargetType): boolean =>
    type === M.editor.MouseTargetType.GUTTER_GLYPH_MARGIN || type === M.editor.MouseTargetType.GUTTER_LINE_NUMBERS;
  const gutterLine = (x: number, y: number): number | null => {
    const t = ed.getTargetAtClientPoint(x, y);
    return t && gutter(t.type) && t.position ? t.position.lineNumber : null;
  };
  // Touch: a tap toggles, a long press asks for the condition (and toggles nothing).
  const press = new LongPress(host, gutterLine, {
    tap: (line) => on.ontogglebreakpoint(line),
    long: (line) => on.oneditcondition?.(line),
  });
  // Monaco selects a line whose number is clicked; here a click on a number is a breakpoint, so the
  // selection (and the cursor) stay as they were. Monaco has changed the selection by the time our
  // listener runs: the one before is the last change's old selection.
  let keep: monaco.Selection | null = null;
  let before: monaco.Selection | null = ed.getSelection();
  ed.onDidChangeCursorSelection((e) => {
    before = e.oldSelections?.[0] ?? before;
  });
  const restore = (): void => {
    if (keep) ed.setSelection(keep);
  };
  ed.onMouseDown((e) => {
    if (e.event.rightButton || press.touching) return;
    if (gutter(e.target.type) && e.target.position) {
      keep = before;
      on.ontogglebreakpoint(e.target.position.lineNumber);
      setTimeout(restore, 0);
    }
  });
  ed.onMouseUp(() => {
    restore();
    keep = null;
  });
  ed.onContextMenu((e) => {
    if (gutter(e.target.type) && e.target.position && on.oneditcondition) {
      e.event.preventDefault();
      if (!press.touching) on.oneditcondition(e.target.position.lineNumber);
    }
  });
  ed.onMouseMove((e) => {
    const line = gutter(e.target.type) ? e.target.position?.lineNumber : undefined;
    hover.set(line === undefined ? [] : [{ range: new M.Range(line, 1, line, 1), options: { glyphMarginClassName: 'ndb-breakpoint-hint' } }]);
  });
  ed.onMouseLeave(() => hover.clear());

  const atCursor = (run: (line: number) => void) => (target: monaco.editor.ICodeEditor) => {
    const pos = target.getPosition();
    if (pos) run(pos.lineNumber);
  };
  ed.addAction({ id: 'ndb.runToLine', label: 'Run to line', contextMenuGroupId: 'navigation', contextMenuOrder: 0, run: atCursor((l) => on.onruntoline(l)) });
  ed.addAction({
    id: 'ndb.toggleBreakpoint',
    label: 'Toggle breakpoint',
    keybindings: [M.KeyCode.F9],
    contextMenuGroupId: 'navigation',
    contextMenuOrder: 1,
    run: atCursor((l) => on.ontogglebreakpoint(l)),
  });
  ed.addAction({ id: 'ndb.toggleTabFocus', label: 'Toggle Tab key moves focus', keybindings: [M.KeyMod.CtrlCmd | M.KeyCode.KeyM], run: () => on.ontoggletabfocus() });
  ed.addAction({
    id: 'ndb.editCondition',
    label: 'Edit breakpoint condition',
    contextMenuGroupId: 'navigation',
    contextMenuOrder: 2,
    run: atCursor((l) => on.oneditcondition?.(l)),
  });
  ed.onDidContentSizeChange((e) => {
    if (e.contentHeightChanged) on.oncontentheight?.(e.contentHeight);
  });
  on.oncontentheight?.(ed.getContentHeight());

  return {
    editor: ed,
    breakpoints,
    current: ed.createDecorationsCollection(),
    ghost: ed.createDecorationsCollection(),
    frame: ed.createDecorationsCollection(),
    error: ed.createDecorationsCollection(),
    dispose() {
      press.dispose();
      ed.getModel()?.dispose();
      ed.dispose();
    },
  };
}

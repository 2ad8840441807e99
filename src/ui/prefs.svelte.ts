// What the page remembers across a reload, beside the share link (which holds the program): the
// model's Mode, Predict first, exception stops, the panels folded away, the theme and the text size. Kept in the browser's storage for this
// origin (browser.ts); a blocked storage just forgets.

import { fontSizeOf, themeChoiceOf, type ThemeChoice } from './appearance';
import { modeOf, type Mode } from './modes';

/** Where the preferences are kept (the browser's localStorage, or a test's). */
export interface PrefsStorage {
  read(): string | null;
  write(text: string): void;
}

export interface PrefsData {
  mode?: Mode;
  predictFirst?: boolean;
  /** Forward moves stop where an exception is raised. */
  exceptionStops?: boolean;
  /** Variables draws its objects as a heap, names with arrows to them. */
  heapView?: boolean;
  /** Panels by name (`callstack`, `output`, …): true when folded away. */
  folded?: Record<string, boolean>;
  /** The theme picked (absent: the system's). */
  theme?: ThemeChoice;
  /** The editor's font size in pixels (the panels' text scales with it). */
  fontSize?: number;
}

/** Whatever the storage holds, only well-formed preferences are kept. */
export function parsePrefs(text: string | null): PrefsData {
  let raw: unknown;
  try {
    raw = text ? JSON.parse(text) : null;
  } catch {
    return {};
  }
  if (!raw || typeof raw !== 'object') return {};
  const { mode, predictFirst, exceptionStops, heapView, folded, theme, fontSize } = raw as Record<string, unknown>;
  const out: PrefsData = {};
  const saved = modeOf(mode);
  if (saved) out.mode = saved;
  if (typeof predictFirst === 'boolean') out.predictFirst = predictFirst;
  if (typeof exceptionStops === 'boolean') out.exceptionStops = exceptionStops;
  if (typeof heapView === 'boolean') out.heapView = heapView;
  if (folded && typeof folded === 'object') {
    const f: Record<string, boolean> = {};
    for (const [name, value] of Object.entries(folded as Record<string, unknown>)) if (typeof value === 'boolean') f[name] = value;
    out.folded = f;
  }
  const choice = themeChoiceOf(theme);
  if (choice) out.theme = choice;
  const size = fontSizeOf(fontSize);
  if (size !== undefined) out.fontSize = size;
  return out;
}

export class Prefs {
  private data: PrefsData;
  private readonly storage: PrefsStorage | null;

  constructor(storage: PrefsStorage | null = null) {
    this.storage = storage;
    this.data = parsePrefs(storage?.read() ?? null);
  }

  get mode(): Mode | undefined {
    return this.data.mode;
  }

  get predictFirst(): boolean | undefined {
    return this.data.predictFirst;
  }

  get exceptionStops(): boolean | undefined {
    return this.data.exceptionStops;
  }

  get heapView(): boolean | undefined {
    return this.data.heapView;
  }

  get theme(): ThemeChoice | undefined {
    return this.data.theme;
  }

  get fontSize(): number | undefined {
    return this.data.fontSize;
  }

  /** Whether the panel `name` was folded away (undefined: the user never folded or unfolded it). */
  folded(name: string): boolean | undefined {
    return this.data.folded?.[name];
  }

  setMode(mode: Mode): void {
    this.save({ ...this.data, mode });
  }

  setPredictFirst(on: boolean): void {
    this.save({ ...this.data, predictFirst: on });
  }

  setExceptionStops(on: boolean): void {
    this.save({ ...this.data, exceptionStops: on });
  }

  setHeapView(on: boolean): void {
    this.save({ ...this.data, heapView: on });
  }

  setTheme(theme: ThemeChoice): void {
    this.save({ ...this.data, theme });
  }

  setFontSize(fontSize: number): void {
    this.save({ ...this.data, fontSize });
  }

  setFolded(name: string, folded: boolean): void {
    this.save({ ...this.data, folded: { ...this.data.folded, [name]: folded } });
  }

  private save(data: PrefsData): void {
    this.data = data;
    this.storage?.write(JSON.stringify(data));
  }
}

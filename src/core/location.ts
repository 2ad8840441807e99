// Where a stop is across the files of a program: a file of the recording and a line in it. A
// breakpoint is kept as one number, its key (file index × FILE_LINES + line), so that the main
// file's keys are its own line numbers and everything that knew only lines keeps working; the
// tracer computes the same key for a condition (tracer.py, FILE_LINES).

import { own } from './names';
import type { Recording, TraceEvent } from './trace';

export const FILE_LINES = 1_000_000;

/** The main file's name when the recording does not name it. */
export const MAIN_FILE = 'main.py';

export interface Location {
  file: string;
  line: number;
}

/** The file index of an event (0: the main file). */
export function fileIndexOf(rec: Recording, e: TraceEvent): number {
  return rec.codes[e.code]?.file ?? 0;
}

/** The breakpoint key of the line an event is at. */
export function eventKey(rec: Recording, e: TraceEvent): number {
  return fileIndexOf(rec, e) * FILE_LINES + e.line;
}

export function lineKey(fileIndex: number, line: number): number {
  return fileIndex * FILE_LINES + line;
}

export function keyFileIndex(key: number): number {
  return Math.floor(key / FILE_LINES);
}

export function keyLine(key: number): number {
  return key % FILE_LINES;
}

/** The files of a recording, the main file first. */
export function filesOf(rec: Recording, main = MAIN_FILE): readonly string[] {
  return rec.files ?? [main];
}

/** The name of the file an event is in, relative to the project. */
export function eventFile(rec: Recording, e: TraceEvent): string {
  return filesOf(rec)[fileIndexOf(rec, e)] ?? MAIN_FILE;
}

/** A key as the file and line a person reads. */
export function keyLocation(files: readonly string[], key: number): Location {
  return { file: files[keyFileIndex(key)] ?? MAIN_FILE, line: keyLine(key) };
}

/** The order of a project's files as the tracer numbers them: the main file, then the other
 * `.py` files in the order they are handed in. */
export function projectFileNames(main: string, files: Readonly<Record<string, string>> | undefined): string[] {
  return [main, ...Object.keys(files ?? {}).filter((f) => f.endsWith('.py'))];
}

/** The source of a recording's file (by index; 0 is the main file), when it is known. */
export function sourceOfFile(rec: Recording, index: number): string | undefined {
  if (index === 0) return rec.source;
  const name = rec.files?.[index];
  return name === undefined ? undefined : own(rec.sources, name);
}

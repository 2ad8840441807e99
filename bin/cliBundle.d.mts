// Types of bin/cliBundle.mjs (plain JavaScript: it runs before any TypeScript loader), for its tests.
export declare const BUNDLE_DIR: string;
/** The start module's URL of the bundle in `dir` when it was built from src/ as it is now; else null. */
export declare function freshBundle(dir?: string): string | null;
/** Builds a bundle in `dir` and makes it current; null when another process holds the build lock. */
export declare function buildBundle(dir?: string): Promise<string | null>;
/** The start module's URL to import (built first when stale), or null: run src/ through tsx. */
export declare function cliEntry(env?: NodeJS.ProcessEnv, dir?: string): Promise<string | null>;

// Constants that vite.config.ts defines at build time (absent under vitest and Node).

/** The versioned Cache API cache of the default model, e.g. `ndb-models-NAME-HASH`. */
declare const __NDB_MODEL_CACHE__: string;
/** The default model's files that the service worker stores for offline use, relative to the base. */
declare const __NDB_MODEL_FILES__: string[];

/**
 * The storage kinds: a leaf module, so the public declarations name them without storage's internals.
 */
/**
 * Where a database lives: 'persistent' (the default) is LevelDB in Node and Electron's main process,
 * IndexedDB in a browser or renderer; 'memory' is memory-level, gone when the database closes.
 */
export type StorageKind = 'persistent' | 'memory';

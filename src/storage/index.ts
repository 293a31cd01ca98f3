/**
 * The storage layer's surface for the engine: the key-value store over the level family, its handles and
 * shapes, the key layout (`keys`), level error mapping, backups and side files.
 */
export { DEFAULT_ROW_CACHE_BYTES, KvStore, type KvStoreOptions, type StorageKind } from './kv-store.js';
export { toBytes, bytesToString } from './kv-types.js';
export { KvSnapshot, PreparedBatch } from './kv-handles.js';
export { DURABILITIES, type Durability, type KvOperation, type KvRange, type KvValue } from './kv-types.js';
export { mapLevelError } from './level-errors.js';
export * as keys from './keys.js';
export type { IndexScalar } from './keys.js';
export { backupStore, restoreStore, checkEmptyTarget, createStoreAtomically } from './backup.js';
export { sideFileDir, sideFilePath, sideFilePathIn, makeDurable, fileSize, removeFile, removeSideFiles, copySideFiles, replaceSideFile, readSideFileBefore } from './side-files.js';

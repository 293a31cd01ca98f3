export { DEFAULT_ROW_CACHE_BYTES, KvSnapshot, KvStore, PreparedBatch, mapLevelError, toBytes, bytesToString, type KvOperation, type KvRange, type KvStoreOptions, type KvValue, type StorageKind } from './kv-store.js';
export * as keys from './keys.js';
export type { IndexScalar } from './keys.js';
export { backupStore, restoreStore, checkEmptyTarget } from './backup.js';
export { sideFileDir, sideFilePath, sideFilePathIn, makeDurable, fileSize, removeFile, removeSideFiles, copySideFiles, replaceSideFile, readSideFileBefore } from './side-files.js';

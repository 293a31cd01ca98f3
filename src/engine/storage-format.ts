/**
 * The storage-format gate at open (for database.ts): refuses a database written by a newer version, and
 * brings one written by an older version to the current format (resumable).
 */
import { VectorDbError } from '../errors/index.js';
import { keys, type KvStore } from '../storage/index.js';
import { migrateLegacyVectorRecords } from './vectors/records.js';

/**
 * Checks the storage format of the database just opened in `location`, upgrading an older one; returns
 * the format found (undefined for a new database: its format is written with its catalog).
 */
export async function checkStorageFormat(kv: KvStore, location: string): Promise<string | undefined> {
  const format = await kv.getString(keys.META_FORMAT);
  if (format !== undefined && Number(format) > keys.FORMAT_VERSION) {
    throw VectorDbError.of('STORAGE_FORMAT_UNSUPPORTED', { location, format, supported: keys.FORMAT_VERSION });
  }
  if (format !== undefined && Number(format) < keys.FORMAT_VERSION) await upgradeFormat(kv);
  return format;
}

/** Brings a database written by an older version to the current storage format (resumable). */
async function upgradeFormat(kv: KvStore): Promise<void> {
  await migrateLegacyVectorRecords(kv);
  await kv.batch([{ type: 'put', key: keys.META_FORMAT, value: String(keys.FORMAT_VERSION) }]);
}

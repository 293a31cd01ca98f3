/**
 * `vectordb-local init`: creates a home (registry + directory) and prints its first Organization Administrator
 * token, once. Refuses a directory that already is a home (exit code 1). Wiring only: the home is admin/.
 */
import { HomeAdmin, resolveHome } from '../admin/index.js';
import { isVectorDbError } from '../errors/index.js';

/** Resolves with the process exit code. */
export async function init(home: string | undefined): Promise<number> {
  try {
    const created = await HomeAdmin.initHome(home);
    console.log(
      [
        `vectordb-local: created the home ${resolveHome(home)}`,
        `  Organization Administrator token (shown this once, store it safely):`,
        `  ${created.token}`,
        `  Serve it with: vectordb-local serve --home ${resolveHome(home)}`,
      ].join('\n'),
    );
    return 0;
  } catch (error) {
    const message = isVectorDbError(error) ? error.message : error instanceof Error ? error.message : String(error);
    console.error(`vectordb-local: cannot create the home: ${message}`);
    return 1;
  }
}

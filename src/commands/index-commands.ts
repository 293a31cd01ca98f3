/**
 * waitForIndex, a command of ours (not the Data API's): waits, at most `options.maxTimeMS`, until a
 * collection's HNSW graph holds every acknowledged vector, and reports whether it does. Clients repeat it
 * until `caughtUp`, so no request waits longer than a proxy or the HTTP server would allow.
 */
import { CommandBody } from './command-body.js';
import type { CommandHandler, CommandSpec } from './context.js';

/** How long one waitForIndex waits by default, and at most (ms). */
const DEFAULT_WAIT_MS = 10_000;
const MAX_WAIT_MS = 60_000;

const waitForIndex: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('waitForIndex', raw, ['options']);
  const options = body.options(['maxTimeMS']);
  const maxTimeMS = options.integer('maxTimeMS', 0, 'maxTimeMS should be greater than or equal to `0`') ?? DEFAULT_WAIT_MS;
  const { caughtUp, pendingVectors } = await ctx.collection().waitForIndex(Math.min(maxTimeMS, MAX_WAIT_MS));
  return { status: { caughtUp, pendingVectors } };
};

export const INDEX_COMMANDS: Record<string, CommandSpec> = {
  waitForIndex: { level: 'collection', run: waitForIndex },
};

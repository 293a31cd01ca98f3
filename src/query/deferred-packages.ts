/**
 * The packages of query/ that load at first use, not at import: mingo (for filter-eval.ts: ~20 CommonJS
 * files, ~20 ms of a cold import of the package) only runs filters of more than one condition, and
 * lossless-json (for exact-number.ts: 10 files, ~6 ms) only reads and writes numbers a double cannot hold.
 * Both are loaded with a synchronous require() so that their callers stay synchronous. For mingo, Node's
 * exports map resolves `import` and `require` alike (its CommonJS build), so these are the very modules a
 * static import would give; for lossless-json, `require` gives its one-file UMD build of the same version,
 * and exact-number.ts is its only user. Has a browser twin (deferred-packages.browser.ts) that imports
 * them statically: a browser has no require() and the bundle holds them anyway.
 */
import { createRequire } from 'node:module';
import type * as LosslessJson from 'lossless-json';
import type * as MingoCore from 'mingo/core';
import type * as MingoLogical from 'mingo/operators/query/logical';
import type * as MingoQuery from 'mingo/query';

export interface MingoModules {
  readonly Context: typeof MingoCore.Context;
  readonly $and: typeof MingoLogical.$and;
  readonly $or: typeof MingoLogical.$or;
  readonly Query: typeof MingoQuery.Query;
}

export interface LosslessJsonModule {
  readonly parse: typeof LosslessJson.parse;
  readonly stringify: typeof LosslessJson.stringify;
}

let mingo: MingoModules | undefined;
let losslessJson: LosslessJsonModule | undefined;

export function mingoModules(): MingoModules {
  if (mingo === undefined) {
    const require = createRequire(import.meta.url);
    const { Context } = require('mingo/core') as typeof MingoCore;
    const { $and, $or } = require('mingo/operators/query/logical') as typeof MingoLogical;
    const { Query } = require('mingo/query') as typeof MingoQuery;
    mingo = { Context, $and, $or, Query };
  }
  return mingo;
}

export function losslessJsonModule(): LosslessJsonModule {
  if (losslessJson === undefined) {
    const { parse, stringify } = createRequire(import.meta.url)('lossless-json') as typeof LosslessJson;
    losslessJson = { parse, stringify };
  }
  return losslessJson;
}

/**
 * mingo's modules for filter-eval.ts, loaded at the first filter that needs mingo (one with more than one
 * condition), not at import: they are ~20 CommonJS files, ~20 ms of a cold import of the package, that an app
 * answering unfiltered or single-condition finds never runs. In Node, mingo's exports map gives its CommonJS
 * build to `import` and `require` alike, so this synchronous require() returns the very modules a static
 * import would. Has a browser twin (mingo-modules.browser.ts) that imports them statically.
 */
import { createRequire } from 'node:module';
import type * as MingoCore from 'mingo/core';
import type * as MingoLogical from 'mingo/operators/query/logical';
import type * as MingoQuery from 'mingo/query';

export interface MingoModules {
  readonly Context: typeof MingoCore.Context;
  readonly $and: typeof MingoLogical.$and;
  readonly $or: typeof MingoLogical.$or;
  readonly Query: typeof MingoQuery.Query;
}

let loaded: MingoModules | undefined;

export function mingoModules(): MingoModules {
  if (loaded === undefined) {
    const require = createRequire(import.meta.url);
    const { Context } = require('mingo/core') as typeof MingoCore;
    const { $and, $or } = require('mingo/operators/query/logical') as typeof MingoLogical;
    const { Query } = require('mingo/query') as typeof MingoQuery;
    loaded = { Context, $and, $or, Query };
  }
  return loaded;
}

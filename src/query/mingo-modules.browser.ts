/**
 * mingo's modules for filter-eval.ts, the browser's side (swapped in for mingo-modules.ts by the browser
 * build): there is no require() in a browser and the bundle holds mingo anyway, so they are imported statically.
 */
import { Context } from 'mingo/core';
import { $and, $or } from 'mingo/operators/query/logical';
import { Query } from 'mingo/query';
import type * as NodeMingo from './mingo-modules.js';

const MODULES: NodeMingo.MingoModules = { Context, $and, $or, Query };

export const mingoModules: typeof NodeMingo.mingoModules = () => MODULES;

/**
 * The packages of query/ that Node loads at first use (deferred-packages.ts), the browser's side (swapped in
 * by the browser build): there is no require() in a browser and the bundle holds them anyway, so they are
 * imported statically.
 */
import { parse, stringify } from 'lossless-json';
import { Context } from 'mingo/core';
import { $and, $or } from 'mingo/operators/query/logical';
import { Query } from 'mingo/query';
import type * as NodeSide from './deferred-packages.js';

const MINGO: NodeSide.MingoModules = { Context, $and, $or, Query };
const LOSSLESS_JSON: NodeSide.LosslessJsonModule = { parse, stringify };

export const mingoModules: typeof NodeSide.mingoModules = () => MINGO;
export const losslessJsonModule: typeof NodeSide.losslessJsonModule = () => LOSSLESS_JSON;

/**
 * Where an embedded database's persistent store is, the browser's side (swapped in for location.ts by
 * the browser build): the endpoint is the IndexedDB database's name, used as it is.
 */
import type * as NodeLocation from './location.js';

export const resolveLocation: typeof NodeLocation.resolveLocation = (endpoint) => endpoint;

export const prepareLocation: typeof NodeLocation.prepareLocation = async (location) => location;

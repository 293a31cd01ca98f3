/**
 * The graph builder, the browser's side (swapped in for graph-builder.ts by the browser build): no
 * worker threads here, so the engine builds the graph on the page's thread, in steps that yield.
 */
import type * as NodeBuilder from './graph-builder.js';

export const graphBuilderAvailable: typeof NodeBuilder.graphBuilderAvailable = () => false;

export const GraphBuilder = {
  start: (): undefined => undefined,
} as unknown as typeof NodeBuilder.GraphBuilder;

/**
 * The Data Explorer's chart of the vectors: the `$vector` of a sample (the first SAMPLE documents under the
 * table's filter) projected on its first two principal components (ml-pca, bundled at build time) and drawn
 * as an SVG scatter plot, each point coloured by the value of a chosen field (ten colours for the most
 * frequent values, grey for the rest; a gradient for numbers), with its `_id` and value as its tooltip.
 */
import { PCA } from 'ml-pca';
import { command, type Json, type JsonObject } from './api.js';
import { el, shorten } from './format.js';

/** How many documents the chart samples: enough to see clusters, few enough to fetch in a moment. */
export const SAMPLE = 300;
const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#bcbd22', '#7f7f7f'];
const OTHER = '#c7c7c7';
const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 560;
const HEIGHT = 400;
const MARGIN = 12;

export interface Point {
  readonly id: Json;
  readonly x: number;
  readonly y: number;
  readonly value: Json | undefined;
}

/** The sample: up to SAMPLE documents with a `$vector` matching the filter, paged as the Data API pages. */
export async function sampleDocuments(keyspace: string, name: string, filter: JsonObject): Promise<JsonObject[]> {
  const documents: JsonObject[] = [];
  let pageState: string | undefined;
  do {
    const envelope = await command({ find: { filter, projection: { '*': 1 }, options: pageState === undefined ? {} : { pageState } } }, keyspace, name);
    for (const document of envelope.data?.documents ?? []) if (Array.isArray(document.$vector) && documents.length < SAMPLE) documents.push(document);
    pageState = envelope.data?.nextPageState ?? undefined;
  } while (pageState !== undefined && documents.length < SAMPLE);
  return documents;
}

/** The documents' vectors on their first two principal components (centred, not scaled). */
export function project(documents: readonly JsonObject[], field: string): Point[] {
  const vectors = documents.map((d) => d.$vector as number[]);
  if (vectors.length < 2) return vectors.map((_, i) => ({ id: documents[i]!._id ?? null, x: 0, y: 0, value: documents[i]![field] }));
  const pca = new PCA(vectors, { method: 'NIPALS', nCompNIPALS: 2, center: true, scale: false });
  const scores = pca.predict(vectors, { nComponents: 2 }).to2DArray();
  return scores.map(([x = 0, y = 0], i) => ({ id: documents[i]!._id ?? null, x, y, value: documents[i]![field] }));
}

/** A colour for each point's value, and the legend's entries. */
function colours(points: readonly Point[]): { colourOf: (value: Json | undefined) => string; legend: [string, string][] } {
  const numbers = points.map((p) => p.value).filter((v): v is number => typeof v === 'number');
  if (numbers.length > 0 && numbers.length === points.filter((p) => p.value !== undefined && p.value !== null).length) {
    const min = Math.min(...numbers);
    const span = Math.max(...numbers) - min || 1;
    const shade = (v: number) => `hsl(${Math.round(240 - ((v - min) / span) * 240)} 70% 45%)`;
    return { colourOf: (v) => (typeof v === 'number' ? shade(v) : OTHER), legend: [[String(min), shade(min)], [String(min + span), shade(min + span)]] };
  }
  const counts = new Map<string, number>();
  for (const p of points) counts.set(labelOf(p.value), (counts.get(labelOf(p.value)) ?? 0) + 1);
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, PALETTE.length).map(([label]) => label);
  const colourOf = (v: Json | undefined) => PALETTE[top.indexOf(labelOf(v))] ?? OTHER;
  const legend: [string, string][] = top.map((label, i) => [label, PALETTE[i]!]);
  if (counts.size > top.length) legend.push(['other values', OTHER]);
  return { colourOf, legend };
}

function labelOf(value: Json | undefined): string {
  return value === undefined ? '(missing)' : shorten(value, 30);
}

function svgNode(tag: string, attributes: Record<string, string>): SVGElement {
  const node = document.createElementNS(SVG, tag) as SVGElement;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

/** Draws the points into `box`: an SVG plot (points keep their projected coordinates as data-pc1/data-pc2) and a legend. */
export function drawChart(box: HTMLElement, points: readonly Point[], field: string): void {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  // One scale for both axes, so distances on the chart are proportional to distances in the projection.
  const scale = Math.min((WIDTH - 2 * MARGIN) / (maxX - minX || 1), (HEIGHT - 2 * MARGIN) / (maxY - minY || 1));
  const svg = svgNode('svg', { id: 'chart', width: String(WIDTH), height: String(HEIGHT), viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img' });
  svg.append(svgNode('rect', { x: '0', y: '0', width: String(WIDTH), height: String(HEIGHT), fill: '#fafafa', stroke: '#d1d5db' }));
  const { colourOf, legend } = colours(points);
  for (const p of points) {
    const circle = svgNode('circle', {
      class: 'point',
      cx: (MARGIN + (p.x - minX) * scale).toFixed(1),
      cy: (HEIGHT - MARGIN - (p.y - minY) * scale).toFixed(1),
      r: '4',
      fill: colourOf(p.value),
      'data-id': JSON.stringify(p.id),
      'data-pc1': String(p.x),
      'data-pc2': String(p.y),
    });
    const title = svgNode('title', {});
    title.textContent = `${shorten(p.id, 40)}: ${field} = ${labelOf(p.value)}`;
    circle.append(title);
    svg.append(circle);
  }
  const key = el('ul', { id: 'chart-legend' }, ...legend.map(([label, colour]) => el('li', {}, el('span', { class: 'swatch', style: `background:${colour}` }), ` ${label}`)));
  box.replaceChildren(svg, key);
}

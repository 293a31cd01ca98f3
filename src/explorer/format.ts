/**
 * How the Data Explorer shows values: cells shortened to a line, a `$vector` as a small SVG sparkline, the
 * table's columns from the fields its documents have (`_id` first), the lines of a stats box (a vector index's
 * graph as a progress bar), DOM building without innerHTML (no stored value is ever parsed as HTML), and the
 * JSON typed in a box (a filter, a sort).
 */
import { DataApiError, command, type Json, type JsonObject } from './api.js';

/** An element with attributes and children (strings become text nodes). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** One line of text for a value: strings as they are, the rest as compact JSON, cut at `max` characters. */
export function shorten(value: Json | undefined, max = 60): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The columns of a page of documents: `_id`, then every other field in the order first seen, `$similarity` last. */
export function columnsOf(documents: readonly JsonObject[]): string[] {
  const seen = new Set<string>(['_id']);
  for (const document of documents) for (const key of Object.keys(document)) if (key !== '$similarity') seen.add(key);
  if (documents.some((d) => d.$similarity !== undefined)) seen.add('$similarity');
  return [...seen];
}

/** A vector's components as a line in a small SVG (its dimension in the tooltip). */
export function sparkline(values: readonly number[]): SVGSVGElement {
  const width = 80;
  const height = 18;
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  svg.setAttribute('class', 'spark');
  const min = Math.min(...values);
  const span = Math.max(...values) - min || 1;
  const points = values.map((v, i) => `${((i / Math.max(values.length - 1, 1)) * width).toFixed(1)},${(height - 1 - ((v - min) / span) * (height - 2)).toFixed(1)}`);
  const line = document.createElementNS('http://www.w3.org/2000/svg', 'polyline');
  line.setAttribute('points', points.join(' '));
  const title = document.createElementNS('http://www.w3.org/2000/svg', 'title');
  title.textContent = `${values.length} dimensions`;
  svg.append(title, line);
  return svg;
}

/** Fills a stats box with the lines of a stats command's answer, or says why there are none (the Data API code). */
export async function showStats(box: HTMLElement, stats: { command: string; keyspace: string; name: string }, lines: (stats: JsonObject) => HTMLElement[]): Promise<void> {
  box.replaceChildren();
  try {
    box.append(...lines(((await command({ [stats.command]: {} }, stats.keyspace, stats.name)).status?.stats ?? {}) as JsonObject));
  } catch (error) {
    box.append(el('div', { class: 'muted' }, error instanceof DataApiError ? `stats unavailable (${error.code})` : 'stats unavailable'));
  }
}

/** One line of a stats box: a label and its value. */
export function statLine(label: string, value: Json | undefined): HTMLElement {
  return el('div', {}, el('span', { class: 'label' }, label), ` ${value ?? '–'}`);
}

/** A vector index's lines of a stats box: its vectors (dimension, metric), and its graph caught up or how many pending. */
export function vectorStatLines(vector: JsonObject, label = 'vectors'): HTMLElement[] {
  const vectors = Number(vector.vectors ?? 0);
  const inGraph = Number(vector.inGraph ?? 0);
  const caughtUp = Number(vector.pending ?? 0) === 0;
  const progress = el('progress', { max: String(Math.max(vectors, 1)), value: String(caughtUp ? Math.max(vectors, 1) : inGraph) });
  return [
    statLine(label, `${vectors} (dimension ${vector.dimension}, ${vector.metric})`),
    el('div', { class: 'graph' }, el('span', { class: 'label' }, 'graph'), ` ${caughtUp ? 'caught up' : `${vector.pending} pending`} `, progress),
  ];
}

/** A table cell's content for a field's value. */
export function cellContent(field: string, value: Json | undefined): Node | string {
  if (field === '$vector' && Array.isArray(value) && value.every((v) => typeof v === 'number')) return sparkline(value as number[]);
  // Scores ($similarity, $rerank, $rrf, ...) to four decimals; ranks are integers and stay as they are.
  if (field.startsWith('$') && typeof value === 'number' && (field === '$similarity' || !Number.isInteger(value))) return value.toFixed(4);
  return value === undefined ? '' : shorten(value);
}

/** A JSON box's value, or undefined when empty; throws with the box's name when it is not a JSON object. */
export function jsonBox(id: string, name: string): JsonObject | undefined {
  const text = (document.getElementById(id) as HTMLTextAreaElement).value.trim();
  if (text === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`the ${name} is not valid JSON (${(error as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`the ${name} must be a JSON object`);
  return value as JsonObject;
}

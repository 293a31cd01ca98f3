/**
 * Request paths -> command targets: `/v1[/{keyspace}[/{collection}]]` and the same under `/api/json/v1`
 * (the Astra-style path astra-db-ts uses by default). Only decodes the path: whether the keyspace or
 * collection exists, or is a valid name, is for commands/ to say.
 */
import type { CommandTarget } from '../commands/index.js';

const PREFIXES = [['v1'], ['api', 'json', 'v1']] as const;

/** Clients hit a handful of URLs over and over: remember the last few resolutions (targets are frozen). */
const cache = new Map<string, CommandTarget | undefined>();
const CACHE_SIZE = 512;

/** The target of a request URL, or undefined when the path is not a Data API resource (404). */
export function resolveRoute(url: string | undefined): CommandTarget | undefined {
  if (url === undefined) return undefined;
  if (cache.has(url)) return cache.get(url);
  const target = parseRoute(url);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(url, target === undefined ? undefined : Object.freeze(target));
  return target;
}

function parseRoute(url: string): CommandTarget | undefined {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (!path.startsWith('/')) return undefined;
  // One trailing slash is tolerated (`curl .../v1/`); empty segments elsewhere are not.
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(1, -1) : path.slice(1);
  const segments = trimmed.split('/');
  for (const prefix of PREFIXES) {
    if (!prefix.every((part, i) => segments[i] === part)) continue;
    const rest = segments.slice(prefix.length);
    if (rest.length > 2) return undefined;
    const decoded: string[] = [];
    for (const segment of rest) {
      const name = decodeSegment(segment);
      if (name === undefined) return undefined;
      decoded.push(name);
    }
    const [keyspace, collection] = decoded;
    if (keyspace === undefined) return {};
    return collection === undefined ? { keyspace } : { keyspace, collection };
  }
  return undefined;
}

function decodeSegment(segment: string): string | undefined {
  if (segment.length === 0) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined; // malformed percent-encoding
  }
}

/** The path of a URL, shortened, for error messages. */
export function displayPath(url: string | undefined): string {
  const path = (url ?? '').split('?')[0] ?? '';
  return path.length > 200 ? `${path.slice(0, 200)}...` : path;
}

/**
 * Talking to a source: an HTTP executor with the imported headers (plus the caller's own, forwarded), and
 * introspection with errors that name the URL and say what went wrong (unreachable, refused token, not GraphQL).
 */
import { buildHTTPExecutor } from '@graphql-tools/executor-http';
import { schemaFromExecutor } from '@graphql-tools/wrap';
import type { GraphQLSchema } from 'graphql';
import type { Header } from './workspace.js';

export type Executor = ReturnType<typeof buildHTTPExecutor>;

/**
 * An executor for `url` sending `headers`; a header of the same name on the incoming request (the gateway's
 * caller) replaces the imported one, so a client can pass its own database token.
 */
export function sourceExecutor(url: string, headers: readonly Header[]): Executor {
  return buildHTTPExecutor({
    endpoint: url,
    headers: (request) => {
      const out: Record<string, string> = {};
      const incoming = (request?.context as { request?: Request } | undefined)?.request?.headers;
      for (const h of headers) out[h.name] = incoming?.get(h.name) ?? h.value;
      return out;
    },
  });
}

export async function introspect(url: string, headers: readonly Header[]): Promise<GraphQLSchema> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`'${url}' is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`'${url}' is not an http(s) URL`);
  const headerObject = Object.fromEntries(headers.map((h) => [h.name, h.value]));
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers: { ...headerObject, 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
  } catch (error) {
    throw new Error(`could not reach ${url}: ${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}`);
  }
  const text = await response.text();
  let body: { data?: unknown; errors?: { message: string }[] } | undefined;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = undefined;
  }
  if (body === undefined || (body.data === undefined && body.errors === undefined) || response.status === 404 || response.status === 405) {
    throw new Error(`${url} is not a GraphQL endpoint (HTTP ${response.status}, ${response.headers.get('content-type') ?? 'no content type'})`);
  }
  if (response.status === 401 || response.status === 403) {
    throw new Error(`${url} refused the request (HTTP ${response.status}): ${body.errors?.[0]?.message ?? 'unauthorized'}. Check the token header (-H "X-Vendor-Token: <APPLICATION_TOKEN>")`);
  }
  if (body.errors?.length && body.data == null) throw new Error(`${url} answered with an error: ${body.errors[0]!.message}`);
  return schemaFromExecutor(sourceExecutor(url, headers)) as Promise<GraphQLSchema>;
}

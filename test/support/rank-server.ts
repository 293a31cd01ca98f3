/**
 * A small HTTP server of ours speaking NVIDIA's reranking API (the Data API's default provider format):
 * `{model, query: {text}, passages: [{text}], truncate}` -> `{rankings: [{index, logit}], usage}`, scoring each
 * passage with the given function; it records the requests (and their Authorization header) and can be told
 * to answer garbage or never to answer.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RankRequest {
  model?: string;
  query: { text: string };
  passages: { text: string }[];
  truncate?: string;
}

export interface RankServer {
  readonly url: string;
  readonly requests: RankRequest[];
  /** The Authorization header of each request, in order. */
  readonly authorizations: (string | undefined)[];
  /** When true, answers a ranking of a passage that was not sent. */
  garbage: boolean;
  /** When true, reads the request and never answers (a provider that hangs). */
  hang: boolean;
  close(): Promise<void>;
}

/** A score for tests: how many of the query's words the passage holds. */
export const wordOverlap = (query: string, passage: string): number => query.split(' ').filter((w) => passage.includes(w)).length;

export async function startRankServer(score: (query: string, passage: string) => number): Promise<RankServer> {
  const requests: RankRequest[] = [];
  const authorizations: (string | undefined)[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const request = JSON.parse(body) as RankRequest;
      requests.push(request);
      authorizations.push(req.headers.authorization);
      if (ranks.hang) return void hanging.add(res);
      res.setHeader('content-type', 'application/json');
      if (ranks.garbage) return void res.end('{"rankings": [{"index": 99, "logit": 1}]}');
      const rankings = request.passages.map((p, index) => ({ index, logit: score(request.query.text, p.text) })).sort((a, b) => b.logit - a.logit);
      res.end(JSON.stringify({ rankings, usage: { prompt_tokens: 1, total_tokens: 1 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const ranks: RankServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/ranking`,
    requests,
    authorizations,
    garbage: false,
    hang: false,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return ranks;
}

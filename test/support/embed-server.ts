/**
 * A small HTTP server of ours speaking the OpenAI embeddings API (what Ollama, LM Studio, vLLM, TEI and OpenAI
 * serve at /v1/embeddings): `{model, input: [texts], dimensions?}` -> `{object, data: [{object, index, embedding}],
 * model, usage}`, with deterministic feature-hashing vectors (texts sharing words get similar vectors). It
 * records each request and its Authorization header, and can be told to fail or answer garbage.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server does with the next requests ('ok' answers properly). */
export type EmbedMode = 'ok' | 'wrong-count' | 'wrong-dimension' | 'not-numbers' | 'not-json' | 'http-500' | 'http-429' | 'http-401' | 'hang';

export interface EmbedRequest {
  readonly body: { model?: string; input: string[]; dimensions?: number };
  readonly authorization: string | undefined;
}

export interface EmbedServer {
  readonly url: string;
  readonly requests: EmbedRequest[];
  mode: EmbedMode;
  /** Requests answered properly before `mode` applies (then every later one gets `mode`). */
  okBeforeMode: number;
  close(): Promise<void>;
}

/** FNV-1a, 32 bits. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The feature-hashing vector of a text: each lowercase word adds ±1 at its hashed slot; unit length. */
export function hashVector(text: string, dimension: number): number[] {
  const vector = new Array<number>(dimension).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const h = hash(word);
    vector[h % dimension]! += (h >>> 31) === 1 ? -1 : 1;
  }
  const norm = Math.hypot(...vector);
  if (norm === 0) vector[0] = 1; // never a zero vector (cosine refuses those)
  return norm === 0 ? vector : vector.map((x) => x / norm);
}

export async function startEmbedServer(dimension: number): Promise<EmbedServer> {
  const requests: EmbedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as EmbedRequest['body'];
      requests.push({ body, authorization: req.headers.authorization });
      const mode = requests.length <= embed.okBeforeMode ? 'ok' : embed.mode;
      const size = body.dimensions ?? dimension;
      let data = body.input.map((input, index) => ({ object: 'embedding', index, embedding: hashVector(input, size) as unknown[] }));
      if (mode === 'hang') return void hanging.add(res);
      res.setHeader('content-type', 'application/json');
      if (mode === 'http-500' || mode === 'http-429' || mode === 'http-401') {
        res.statusCode = Number(mode.slice(5));
        return void res.end(JSON.stringify({ error: { message: `test server told to answer ${res.statusCode}`, type: 'test' } }));
      }
      if (mode === 'not-json') return void res.end('<html>not json</html>');
      if (mode === 'wrong-count') data = data.slice(1);
      if (mode === 'wrong-dimension') data = data.map((d) => ({ ...d, embedding: d.embedding.slice(1) }));
      if (mode === 'not-numbers') data = data.map((d) => ({ ...d, embedding: d.embedding.map(() => 'x') }));
      data.reverse(); // answered out of order: the index decides
      res.end(JSON.stringify({ object: 'list', data, model: body.model ?? 'none', usage: { prompt_tokens: 1, total_tokens: 1 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const embed: EmbedServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/embeddings`,
    requests,
    mode: 'ok',
    okBeforeMode: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return embed;
}

/**
 * The HTTP contract with plain fetch: routes under /v1 and /api/json/v1, token headers, the status codes of
 * data-api-protocol.md 1.3 (401, 404, 405, 413, 415, 200 with errors), REQUEST_NOT_JSON, empty bodies, COMMAND_UNKNOWN per level.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstErrorCode, post, run, serve, type Served } from './helpers.js';

let s: Served;

beforeAll(async () => {
  s = await serve({ maxBodyBytes: 64 * 1024 });
  await run(s.db, { createCollection: { name: 'c' } }, { keyspace: 'default_keyspace' });
  await run(s.db, { insertOne: { document: { _id: 'a', n: 1 } } }, { keyspace: 'default_keyspace', collection: 'c' });
});

afterAll(async () => {
  await s?.close();
});

describe('routes', () => {
  for (const prefix of ['/v1', '/api/json/v1']) {
    it(`${prefix}: database, keyspace and collection levels`, async () => {
      const general = await post(s, prefix, { findKeyspaces: {} });
      expect(general.status).toBe(200);
      expect(general.body.status?.keyspaces).toContain('default_keyspace');
      expect(general.headers.get('content-type')).toBe('application/json');

      const keyspace = await post(s, `${prefix}/default_keyspace`, { findCollections: {} });
      expect(keyspace.status).toBe(200);
      expect(keyspace.body.status?.collections).toEqual(['c']);

      const collection = await post(s, `${prefix}/default_keyspace/c`, { findOne: { filter: { _id: 'a' } } });
      expect(collection.status).toBe(200);
      expect(collection.body.data).toEqual({ document: { _id: 'a', n: 1 } });
    });
  }

  it('tolerates one trailing slash and a query string, decodes percent-encoded names', async () => {
    expect((await post(s, '/v1/', { findKeyspaces: {} })).body.status?.keyspaces).toContain('default_keyspace');
    expect((await post(s, '/v1/default_keyspace/c/?x=1', { countDocuments: {} })).body.status?.count).toBe(1);
    expect((await post(s, '/v1/default%5Fkeyspace/%63', { countDocuments: {} })).body.status?.count).toBe(1);
  });

  it('answers 404 with a RESOURCE_NOT_FOUND envelope for unknown paths', async () => {
    for (const path of ['/', '/v2', '/invalid_path', '/v1/default_keyspace/c/extra', '/api/json/v2', '/api/v1', '/v1//c', '/v1/%E0%A4%A', '/v1x']) {
      const reply = await post(s, path, { findKeyspaces: {} });
      expect(reply.status, path).toBe(404);
      expect(firstErrorCode(reply), path).toBe('RESOURCE_NOT_FOUND');
    }
  });

  it('answers 405 with Allow: POST for other methods', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const reply = await post(s, '/v1/default_keyspace/c', { findOne: {} }, {}, method);
      expect(reply.status, method).toBe(405);
      expect(reply.headers.get('allow')).toBe('POST');
      expect(firstErrorCode(reply)).toBe('METHOD_NOT_ALLOWED');
    }
  });
});

describe('tokens', () => {
  for (const header of ['Token', 'token', 'X-Vendor-Token', 'X-Cassandra-Token']) {
    it(`accepts the token in ${header}`, async () => {
      const reply = await fetch(`${s.url}/v1`, { method: 'POST', headers: { 'content-type': 'application/json', [header]: s.token }, body: '{"findKeyspaces":{}}' });
      expect(reply.status).toBe(200);
      expect(((await reply.json()) as { status: { keyspaces: string[] } }).status.keyspaces).toContain('default_keyspace');
    });
  }

  it('401 MISSING_AUTHENTICATION_TOKEN without a token, as a normal errors envelope', async () => {
    const reply = await fetch(`${s.url}/v1/default_keyspace/c`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"findOne":{}}' });
    expect(reply.status).toBe(401);
    const body = (await reply.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['errors']);
    expect(body.errors).toEqual([
      expect.objectContaining({ errorCode: 'MISSING_AUTHENTICATION_TOKEN', family: 'REQUEST', scope: 'SECURITY', title: expect.any(String), message: expect.any(String), id: expect.any(String) }),
    ]);
  });

  it('401 UNAUTHENTICATED_REQUEST for a wrong or empty token, and never echoes the token', async () => {
    for (const token of [`${s.token}x`, s.token.slice(0, -1), 'wrong', 'Cassandra:Y2Fzc2FuZHJh:Y2Fzc2FuZHJh']) {
      const reply = await post(s, '/v1/default_keyspace/c', { findOne: {} }, { token });
      expect(reply.status).toBe(401);
      expect(firstErrorCode(reply)).toBe('UNAUTHENTICATED_REQUEST');
      expect(reply.body.data).toBeUndefined();
      expect(reply.text).not.toContain(token);
    }
    const empty = await post(s, '/v1', { findKeyspaces: {} }, { token: '' });
    expect(empty.status).toBe(401);
    expect(firstErrorCode(empty)).toBe('MISSING_AUTHENTICATION_TOKEN');
  });

  it('checks the token before the content type and the body', async () => {
    const reply = await post(s, '/v1', 'not json', { token: 'wrong', 'content-type': 'text/plain' });
    expect(reply.status).toBe(401);
  });
});

describe('bodies and status codes', () => {
  it('415 UNSUPPORTED_CONTENT_TYPE for non-JSON content types', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'application/xml']) {
      const reply = await post(s, '/v1', { findKeyspaces: {} }, { 'content-type': type });
      expect(reply.status, type).toBe(415);
      expect(firstErrorCode(reply)).toBe('UNSUPPORTED_CONTENT_TYPE');
    }
  });

  it('accepts application/json with parameters and in any case', async () => {
    for (const type of ['application/json; charset=utf-8', 'Application/JSON']) {
      expect((await post(s, '/v1', { findKeyspaces: {} }, { 'content-type': type })).status).toBe(200);
    }
  });

  it('200 REQUEST_NOT_JSON for malformed JSON', async () => {
    for (const body of ['{', '{"find":', 'nope', '{"a":1,}', "{'a':1}", '\u0000\u0001']) {
      const reply = await post(s, '/v1/default_keyspace/c', body);
      expect(reply.status, body).toBe(200);
      expect(firstErrorCode(reply), body).toBe('REQUEST_NOT_JSON');
      expect(reply.body.errors?.[0]?.message).toMatch(/^Request not valid JSON, problem: /);
    }
  });

  it('an empty body is the reference COMMAND_FIELD_VALUE_INVALID, and the message says the body is empty', async () => {
    for (const body of ['', '   \n']) {
      const reply = await post(s, '/v1/default_keyspace/c', body);
      expect(reply.status).toBe(200);
      expect(firstErrorCode(reply)).toBe('COMMAND_FIELD_VALUE_INVALID');
      expect(reply.body.errors?.[0]?.message).toBe(
        "Command field 'command' value `null` not valid: the request body is empty: send one JSON command, such as {\"findCollections\": {}}.",
      );
    }
  });

  it('1e400 in a vector is out of range (JSON.parse made it Infinity), not "null"', async () => {
    await run(s.db, { createCollection: { name: 'v', options: { vector: { dimension: 2 } } } }, { keyspace: 'default_keyspace' });
    for (const body of ['{"insertOne":{"document":{"$vector":[1e400,1]}}}', '{"find":{"sort":{"$vector":[1,-1e400]}}}']) {
      const reply = await post(s, '/v1/default_keyspace/v', body);
      expect(firstErrorCode(reply), body).toBe('SHRED_BAD_VECTOR_VALUE');
      expect(reply.body.errors?.[0]?.message, body).toMatch(/element [01] is out of range: components are float32, at most ±3\.4028235e\+38/);
    }
    // In process too: a finite double past float32's range would be stored as Infinity.
    expect((await run(s.db, { insertOne: { document: { $vector: [1e39, 1] } } }, { keyspace: 'default_keyspace', collection: 'v' })).errors?.[0]?.message).toContain('element 0 is out of range');
    expect((await run(s.db, { countDocuments: {} }, { keyspace: 'default_keyspace', collection: 'v' })).status?.count).toBe(0);
  });

  it('COMMAND_UNKNOWN at each level names the level', async () => {
    const cases: [string, string, string][] = [
      ['/v1', 'find', 'General'],
      ['/v1/default_keyspace', 'insertOne', 'Keyspace'],
      ['/api/json/v1/default_keyspace/c', 'createKeyspace', 'Collection'],
      ['/v1/default_keyspace/c', 'noSuchCommand', 'Collection'],
    ];
    for (const [path, command, level] of cases) {
      const reply = await post(s, path, { [command]: {} });
      expect(reply.status).toBe(200);
      expect(firstErrorCode(reply)).toBe('COMMAND_UNKNOWN');
      expect(reply.body.errors?.[0]?.message).toContain(`is not a ${level} Command`);
    }
  });

  it('command errors are 200 with errors and no data', async () => {
    const reply = await post(s, '/v1/default_keyspace/missing', { findOne: {} });
    expect(reply.status).toBe(200);
    expect(firstErrorCode(reply)).toBe('UNKNOWN_COLLECTION_OR_TABLE');
    expect(reply.body.data).toBeUndefined();
    const duplicate = await post(s, '/v1/default_keyspace/c', { insertOne: { document: { _id: 'a' } } });
    expect(firstErrorCode(duplicate)).toBe('DOCUMENT_ALREADY_EXISTS');
  });

  it('413 REQUEST_TOO_LARGE over maxBodyBytes (Content-Length), and keeps serving', async () => {
    const big = JSON.stringify({ insertOne: { document: { _id: 'big', text: 'x'.repeat(70 * 1024) } } });
    const reply = await post(s, '/v1/default_keyspace/c', big);
    expect(reply.status).toBe(413);
    expect(firstErrorCode(reply)).toBe('REQUEST_TOO_LARGE');
    expect(reply.body.errors?.[0]?.message).toContain(String(64 * 1024));
    expect((await post(s, '/v1/default_keyspace/c', { countDocuments: {} })).body.status?.count).toBe(1);
  });

  it('413 for a chunked body that grows past the limit while streaming', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await fetch(`${s.url}/v1/default_keyspace/c`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: s.token },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { errors: { errorCode: string }[] }).errors[0]!.errorCode).toBe('REQUEST_TOO_LARGE');
    expect((await post(s, '/v1/default_keyspace/c', { countDocuments: {} })).body.status?.count).toBe(1);
  });

  it('a body just under the limit is accepted', async () => {
    const doc = JSON.stringify({ insertOne: { document: { _id: 'under', text: 'y'.repeat(4000) } } });
    const reply = await post(s, '/v1/default_keyspace/c', doc);
    expect(reply.status).toBe(200);
    expect(reply.body.status?.insertedIds).toEqual(['under']);
    await post(s, '/v1/default_keyspace/c', { deleteOne: { filter: { _id: 'under' } } });
  });

  it('the default body limit is 20 MB (as the Data API): 20 MB + 1 is 413, just under is read and answered', async () => {
    const d = await serve();
    try {
      const max = 20 * 1024 * 1024;
      const over = `{"insertOne":{"document":{"t":"${'a'.repeat(max)}"}}}`;
      const refused = await post(d, '/v1/default_keyspace/c', over);
      expect(refused.status).toBe(413);
      expect(refused.body.errors?.[0]?.message).toContain(String(max));
      const under = `{"findKeyspaces":{}}${' '.repeat(max - 40)}`;
      const answered = await post(d, '/v1', under);
      expect(answered.status).toBe(200);
      expect(answered.body.status?.keyspaces).toContain('default_keyspace');
    } finally {
      await d.close();
    }
  });
});

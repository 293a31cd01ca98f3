/**
 * Reading a request body: the JSON content-type check and a byte cap enforced while streaming (and
 * up front from Content-Length); an oversized body is drained, within bounds, so the client can read its 413.
 * Turns bytes into text only; JSON parsing and its errors are in handler.ts.
 */
import type { IncomingMessage } from 'node:http';

export type BodyResult =
  | { readonly kind: 'ok'; readonly text: string }
  | { readonly kind: 'too-large'; readonly size: number | undefined }
  | { readonly kind: 'aborted' };

/** `application/json` with any parameters (charset); a missing header is taken as JSON, as curl users expect. */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined || header.trim() === '') return true;
  const media = header.split(';', 1)[0]!.trim().toLowerCase();
  return media === 'application/json';
}

/** The declared Content-Length when it is a plain number. */
export function declaredLength(req: IncomingMessage): number | undefined {
  const header = req.headers['content-length'];
  if (header === undefined || !/^\d+$/.test(header)) return undefined;
  return Number(header);
}

/**
 * How much of an oversized body is read and thrown away before the 413 is sent and the connection closed.
 * A client still sending when the socket closes (Node's fetch among them) sees EPIPE or a reset instead of
 * the answer; past these bounds the connection is closed anyway (a peer may stream forever).
 */
export const DISCARD_MAX_BYTES = 256 * 1024 * 1024;
export const DISCARD_MAX_MS = 10_000;

export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = declaredLength(req);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    let tooLarge: BodyResult | undefined;
    let discardTimer: NodeJS.Timeout | undefined;
    const finish = (result: BodyResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(discardTimer);
      req.off('data', onData).off('end', onEnd).off('error', onAbort).off('close', onClose);
      resolve(result);
    };
    const refuse = (result: BodyResult): void => {
      chunks.length = 0; // let the partial body go now; the rest is read and dropped
      tooLarge = result;
      discardTimer = setTimeout(() => finish(result), DISCARD_MAX_MS);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (tooLarge !== undefined) {
        if (size > maxBytes + DISCARD_MAX_BYTES) finish(tooLarge);
      } else if (size > maxBytes) {
        refuse({ kind: 'too-large', size: undefined });
      } else {
        chunks.push(chunk);
      }
    };
    const onEnd = (): void => {
      if (tooLarge !== undefined) return finish(tooLarge);
      finish({ kind: 'ok', text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8') });
    };
    const onAbort = (): void => finish({ kind: 'aborted' });
    const onClose = (): void => {
      if (!req.complete) finish(tooLarge ?? { kind: 'aborted' });
    };
    if (declared !== undefined && declared > maxBytes) refuse({ kind: 'too-large', size: declared });
    req.on('data', onData).on('end', onEnd).on('error', onAbort).on('close', onClose);
  });
}

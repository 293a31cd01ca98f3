/**
 * Reading a request body: the JSON content-type check and a byte cap enforced while streaming (and
 * up front from Content-Length). Turns bytes into text only; JSON parsing and its errors are in handler.ts.
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

export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = declaredLength(req);
  if (declared !== undefined && declared > maxBytes) return Promise.resolve({ kind: 'too-large', size: declared });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: BodyResult): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData).off('end', onEnd).off('error', onAbort).off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0; // let the partial body go now; the socket is closed after the 413
        req.pause();
        finish({ kind: 'too-large', size: undefined });
      } else {
        chunks.push(chunk);
      }
    };
    const onEnd = (): void => finish({ kind: 'ok', text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8') });
    const onAbort = (): void => finish({ kind: 'aborted' });
    const onClose = (): void => {
      if (!req.complete) finish({ kind: 'aborted' });
    };
    req.on('data', onData).on('end', onEnd).on('error', onAbort).on('close', onClose);
  });
}

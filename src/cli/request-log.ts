/**
 * The line `serve --log` prints per request: method, path, HTTP status, the error code of a failed command
 * (command errors are HTTP 200 with `errors[]`, as in the Data API, so the status alone says "200"), time.
 */
import type { RequestLogEntry } from '../http/index.js';

export function requestLogLine(e: RequestLogEntry): string {
  return `${e.method} ${e.path} ${e.status}${e.errorCode !== undefined ? ` ${e.errorCode}` : ''} ${e.ms.toFixed(1)}ms`;
}

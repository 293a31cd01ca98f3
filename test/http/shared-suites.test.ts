/**
 * Every shared suite (test/suite/) over a real HTTP server: each test gets a fresh database served on
 * 127.0.0.1 by createServer and reached through `new VectorDB(token, url)` (HttpTransport), so the HTTP
 * path and the embedded one (test/embedded.test.ts) run the same assertions.
 */
import { httpFactory } from '../support/http-factory.js';
import { allSuites } from '../suite/index.js';

allSuites(httpFactory);

/**
 * The HTTP adapter's surface: createServer and its options. A thin layer over commands/ (see server.ts);
 * nothing here defines protocol semantics.
 */
export { HomeResolver, SingleDatabaseResolver, type Resolver, type ResolvedRoute } from './resolver.js';
export { createServer, DataApiServer, DEFAULT_HOST, DEFAULT_MAX_BODY_BYTES, DEFAULT_PORT, type ServerOptions, type ServerTimeouts } from './server.js';
export { fixedTokenVerifier, tokenOf, type TokenVerifier } from './auth.js';
export { hashToken, hashedTokenVerifier, isTokenHash, matchesTokenHash } from './token-hash.js';
export type { RequestLogEntry } from './handler.js';
export type { CorsOrigins } from './cors.js';

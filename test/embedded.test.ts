/**
 * Runs every shared suite (test/suite/) in-process: each test gets a fresh database in a temporary
 * directory from embeddedFactory. test/http.test.ts runs the same suites over a real HTTP server.
 */
import { embeddedFactory } from './support/factory.js';
import { allSuites } from './suite/index.js';

allSuites(embeddedFactory);

/** What test/browser/page.js puts on `window` for the tests and the bench to drive. */
import type { Answers, SeededDocument } from './scenario.js';

declare global {
  interface Window {
    vdb: {
      open(name: string): Promise<void>;
      openRemote(url: string, token: string): Promise<void>;
      load(documents: SeededDocument[]): Promise<void>;
      query(vector: number[]): Promise<Answers>;
      tryOpen(name: string): Promise<{ code: string; message?: string }>;
      qps(queries: number[][], rounds: number): Promise<number>;
      surface(): Promise<{ VectorDB: string; Filter: string; VectorDBAdmin: string; byId: string }>;
      note(line: string): void;
      close(): Promise<void>;
    };
  }
  // eslint-disable-next-line no-var
  var window: Window;
  /** The little of the DOM the tests read (the project's lib has no DOM types). */
  // eslint-disable-next-line no-var
  var document: { body: { textContent: string | null } };
}
export {};

/**
 * Portable runtime helpers (platform/: below every layer, imports nothing). A macrotask: Node's
 * setImmediate (after pending I/O callbacks), else a MessageChannel message (browsers clamp nested
 * setTimeout(0) to 4 ms, which would slow every emulated IndexedDB request to a crawl).
 */
type Callback = () => void;

/** The part of a browser's MessageChannel used here (the project's lib has no DOM types). */
interface BrowserChannel {
  port1: { onmessage: (() => void) | null };
  port2: { postMessage(message: null): void };
}

function messageChannelTask(): (callback: Callback) => void {
  const queue: Callback[] = [];
  const channel = new (globalThis as unknown as { MessageChannel: new () => BrowserChannel }).MessageChannel();
  channel.port1.onmessage = () => queue.shift()?.();
  return (callback) => {
    queue.push(callback);
    channel.port2.postMessage(null);
  };
}

/** Runs `callback` in a later macrotask. */
export const macrotask: (callback: Callback) => void = typeof setImmediate === 'function' ? (callback) => void setImmediate(callback) : messageChannelTask();

/** Resolves in a later macrotask: lets timers, I/O and other requests run (in Node, after pending I/O callbacks). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise<void>((resolve) => macrotask(resolve));
}

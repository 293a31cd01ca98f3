// Injected by scripts/build-browser.js wherever the bundle uses the global `Buffer` (as Node code may).
export { Buffer } from 'buffer';

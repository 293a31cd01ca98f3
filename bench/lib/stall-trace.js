/**
 * Names what stalled the event loop (issue 31): a timer notes every window in which the loop did not turn
 * for more than `thresholdMs`, V8's sampling profiler (bench/lib/cpu-profile.js) records what the main
 * thread ran, and each long window is reported with the stacks sampled inside it and the GCs that ran in
 * it, and (Linux) how long the JS thread ran in it, waited for a core and slept, with its major page faults
 * (/proc/thread-self/schedstat and stat): a window the thread spent waiting, or sampled "(idle)", was the
 * scheduler of a busy machine, and one it slept through with major faults, the disk; not our code's work.
 * The same split over the whole trace (`whole`) says how much of the load the JS thread spent waiting for a core.
 */
import { openSync, readSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { startProfile } from './cpu-profile.js';

/** Monotonic microseconds: the clock V8's profile timestamps use (CLOCK_MONOTONIC on Linux, as uv_hrtime). */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * The calling thread's time on a core and waiting for one, in microseconds, and its major page faults (reads
 * from disk: a mapped file's page, or memory swapped out); undefined without /proc's schedstat.
 */
function schedClock() {
  let fd;
  let statFd;
  try {
    fd = openSync('/proc/thread-self/schedstat', 'r');
    statFd = openSync('/proc/thread-self/stat', 'r');
  } catch {
    return () => undefined;
  }
  const buf = Buffer.alloc(1024);
  return () => {
    const [ran, waited] = buf.toString('latin1', 0, readSync(fd, buf, 0, buf.length, 0)).split(' ').map(Number);
    const stat = buf.toString('latin1', 0, readSync(statFd, buf, 0, buf.length, 0));
    // Fields after the command's closing parenthesis: state is field 3, majflt field 12.
    const majorFaults = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[9]);
    return { ranUs: ran / 1000, waitedUs: waited / 1000, majorFaults };
  };
}

const GC_KINDS = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak callbacks' };

/**
 * Starts the trace; `stop()` resolves to the longest stalls (at most `keep`), longest first, each with its
 * causes: by wall time (`longest`), and by the JS thread's time on a core in them (`longestRan`).
 */
export async function startStallTrace({ thresholdMs = 50, tickMs = 5, keep = 10, intervalUs = 1000 } = {}) {
  const profile = await startProfile(intervalUs);
  const t0Us = nowUs();
  // performance.now() (GC entries) to the monotonic clock.
  const perfToUs = t0Us - performance.now() * 1000;
  const stalls = [];
  const sched = schedClock();
  let last = nowUs();
  let lastSched = sched();
  const startSched = lastSched;
  const startUs = last;
  const timer = setInterval(() => {
    const now = nowUs();
    const at = sched();
    if (now - last > (thresholdMs + tickMs) * 1000) {
      stalls.push({ fromUs: last, toUs: now, ranUs: at && at.ranUs - lastSched.ranUs, waitedUs: at && at.waitedUs - lastSched.waitedUs, majorFaults: at && at.majorFaults - lastSched.majorFaults });
    }
    last = now;
    lastSched = at;
  }, tickMs);
  const gcs = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.duration >= 5) gcs.push({ fromUs: perfToUs + e.startTime * 1000, ms: e.duration, kind: GC_KINDS[e.detail?.kind] ?? String(e.detail?.kind) });
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    async stop() {
      clearInterval(timer);
      observer.disconnect();
      const cpu = await profile.stop();
      const longest = [...stalls].sort((a, b) => b.toUs - b.fromUs - (a.toUs - a.fromUs)).slice(0, keep);
      // On a shared machine the longest by wall time are often the scheduler's: the longest by the JS
      // thread's own time in them are what our code did (without schedstat: none).
      const longestRan = stalls.filter((s) => s.ranUs !== undefined).sort((a, b) => b.ranUs - a.ranUs).slice(0, keep);
      const describeAll = (list) => list.map((s) => describe(s, cpu, gcs, t0Us));
      return { t0Us, count: stalls.length, whole: split({ fromUs: startUs, toUs: nowUs(), from: startSched, to: sched() }), longest: describeAll(longest), longestRan: describeAll(longestRan) };
    },
  };
}

/** The JS thread's whole trace: wall time, and (schedstat) its time on a core, waiting for one and asleep, in s. */
function split({ fromUs, toUs, from, to }) {
  const s = (us) => Math.round(us / 1e5) / 10;
  if (from === undefined || to === undefined) return { wallS: s(toUs - fromUs) };
  const ranUs = to.ranUs - from.ranUs;
  const waitedUs = to.waitedUs - from.waitedUs;
  return { wallS: s(toUs - fromUs), ranS: s(ranUs), waitedForCoreS: s(waitedUs), asleepS: s(toUs - fromUs - ranUs - waitedUs) };
}

/** One frame's short name: function and file (dist/ or node_modules/ relative), or V8's own pseudo-frames. */
function frameName(f) {
  if (f.url === '') return f.functionName || '(anonymous)';
  const file = f.url.replace(/^.*\/(dist|bench|node_modules)\//, '$1/').replace(/^node:/, 'node:');
  return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
}

/** The stall's window: its length, when (ms from the trace's start), sampled stacks by time, and GCs in it. */
function describe(stall, cpu, gcs, t0Us) {
  const byId = new Map(cpu.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of cpu.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stacks = new Map();
  let sampledUs = 0;
  let at = cpu.startTime;
  for (let i = 0; i < cpu.samples.length; i++) {
    at += cpu.timeDeltas[i];
    if (at < stall.fromUs || at > stall.toUs) continue;
    const dt = i + 1 < cpu.timeDeltas.length ? Math.min(cpu.timeDeltas[i + 1], stall.toUs - at) : 0;
    // Leaf, then up to the first seven frames of ours (dist/) or a library: enough to say which step it was.
    const frames = [];
    for (let id = cpu.samples[i]; id !== undefined && frames.length < 8; id = parent.get(id)) {
      const f = byId.get(id).callFrame;
      if (f.functionName === '(root)') break;
      if (frames.length === 0 || /\/(dist|node_modules)\//.test(f.url)) frames.push(frameName(f));
    }
    const key = frames.join(' < ');
    stacks.set(key, (stacks.get(key) ?? 0) + dt);
    sampledUs += dt;
  }
  const ms = (us) => Math.round(us / 100) / 10;
  return {
    ms: ms(stall.toUs - stall.fromUs),
    atMs: ms(stall.fromUs - t0Us),
    // Neither on a core nor waiting for one: asleep (disk reads, page faults, a lock).
    ...(stall.ranUs === undefined ? {} : { ranMs: ms(stall.ranUs), waitedForCoreMs: ms(stall.waitedUs), asleepMs: ms(stall.toUs - stall.fromUs - stall.ranUs - stall.waitedUs), majorFaults: stall.majorFaults }),
    sampledMs: ms(sampledUs),
    stacks: [...stacks.entries()].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([key, us]) => `${ms(us)} ms: ${key}`),
    gcs: gcs.filter((g) => g.fromUs < stall.toUs && g.fromUs + g.ms * 1000 > stall.fromUs).map((g) => `${g.kind} ${g.ms.toFixed(0)} ms`),
  };
}

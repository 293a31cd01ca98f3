/**
 * How a long CLI command shows progress on stderr: on a terminal a cli-progress bar (count, rate, ETA,
 * failures); elsewhere (a log, a pipe, CI) one plain line every `intervalSeconds`. Nothing on stdout,
 * which may carry the data (export to -).
 */
import cliProgress from 'cli-progress';

export interface ProgressFigures {
  readonly done: number;
  readonly total?: number | undefined;
  readonly failed: number;
  readonly rate: number;
}

export interface ProgressDisplayOptions {
  /** What is counted, e.g. 'import' or 'export'. */
  readonly label: string;
  readonly unit?: string;
  readonly total?: number | undefined;
  readonly intervalSeconds: number;
  /** What failures are called, e.g. 'rejected'. */
  readonly failedLabel?: string;
  readonly stream?: NodeJS.WriteStream;
}

const count = new Intl.NumberFormat('en-US');

export class ProgressDisplay {
  readonly #options: ProgressDisplayOptions;
  readonly #stream: NodeJS.WriteStream;
  readonly #bar: cliProgress.SingleBar | undefined;
  #last: ProgressFigures = { done: 0, failed: 0, rate: 0 };
  #timer: NodeJS.Timeout | undefined;

  constructor(options: ProgressDisplayOptions) {
    this.#options = options;
    this.#stream = options.stream ?? process.stderr;
    const unit = options.unit ?? 'docs';
    const failed = options.failedLabel ?? 'failed';
    if (this.#stream.isTTY) {
      const format =
        options.total !== undefined
          ? `${options.label} [{bar}] {percentage}% | {value}/{total} ${unit} | {rate} ${unit}/s | ETA {eta_formatted} | {failed} ${failed}`
          : `${options.label} {value} ${unit} | {rate} ${unit}/s | {failed} ${failed} | {duration_formatted}`;
      this.#bar = new cliProgress.SingleBar(
        { format, stream: this.#stream, hideCursor: true, barsize: 30, fps: 5, etaBuffer: 50, formatValue: (v, _o, type) => (type === 'value' || type === 'total' ? count.format(v) : String(v)) },
        cliProgress.Presets.shades_classic,
      );
      this.#bar.start(options.total ?? 0, 0, { rate: '0', failed: '0' });
    } else {
      this.#timer = setInterval(() => this.#line(), options.intervalSeconds * 1000);
      this.#timer.unref();
    }
  }

  update(figures: ProgressFigures): void {
    this.#last = figures;
    this.#bar?.update(figures.done, { rate: count.format(Math.round(figures.rate)), failed: count.format(figures.failed) });
  }

  /** Stops the display (the final figures go to the summary the caller prints). */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#bar?.stop();
  }

  #line(): void {
    const { done, total, failed, rate } = this.#last;
    const { label, unit = 'docs', failedLabel = 'failed' } = this.#options;
    const of = total !== undefined ? ` of ${count.format(total)} (${((100 * done) / Math.max(total, 1)).toFixed(1)}%)` : '';
    const eta = total !== undefined && rate > 0 ? `, ETA ${formatSeconds((total - done) / rate)}` : '';
    this.#stream.write(`${label}: ${count.format(done)}${of} ${unit}, ${count.format(Math.round(rate))} ${unit}/s, ${count.format(failed)} ${failedLabel}${eta}\n`);
  }
}

export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)}s`;
  const m = Math.floor(seconds / 60);
  return m < 60 ? `${m}m${String(Math.round(seconds % 60)).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

export function formatCount(n: number): string {
  return count.format(n);
}

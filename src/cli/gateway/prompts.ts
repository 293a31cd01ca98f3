/**
 * Line prompts on stdin for the gateway commands: works on a terminal and on piped input (lines that arrive
 * before the question is asked are kept, which readline's question() would drop).
 */
import { createInterface, type Interface } from 'node:readline';

export class Prompter {
  #rl: Interface | undefined;
  #lines: AsyncIterator<string> | undefined;

  async ask(question: string, fallback = ''): Promise<string> {
    process.stdout.write(`? ${question}${fallback ? ` (${fallback})` : ''} `);
    this.#rl ??= createInterface({ input: process.stdin, terminal: false });
    this.#lines ??= this.#rl[Symbol.asyncIterator]();
    const next = await this.#lines.next();
    if (next.done) throw new Error(`no answer to "${question}": stdin ended (use the flags with --non-interactive)`);
    if (!process.stdin.isTTY) process.stdout.write('\n');
    return next.value.trim() || fallback;
  }

  close(): void {
    this.#rl?.close();
  }
}

/**
 * One running process of csharp/InstancesProbe.cs: commands written to its stdin one line at a time, each answered
 * by one line starting with `@` (JSON). Every answer is awaited at most `ANSWER_TIMEOUT_MS`; a process that does
 * not answer in time is killed and the command fails, so no test waits on a stuck process.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

/** How long one command may take, ms (a generous bound on a shared machine, not a measurement). */
const ANSWER_TIMEOUT_MS = 60_000;

export type Answer = Record<string, unknown>;

export class MonoInstance {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly answers: string[] = [];
  private waiting: ((line: string | undefined) => void) | undefined;
  private output = '';
  private exited = false;

  /** Starts `mono [options] exe args` with `env`. */
  constructor(options: string[], exe: string, args: string[], env: NodeJS.ProcessEnv) {
    this.child = spawn('mono', [...options, exe, ...args], { env, stdio: 'pipe' });
    this.child.stderr.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.output += `${line}\n`;
      if (!line.startsWith('@')) return;
      if (this.waiting) this.take(line.slice(1));
      else this.answers.push(line.slice(1));
    });
    // 'close', not 'exit': Node may emit 'exit' while the child's stdout still holds its last line (child_process docs:
    // "stdio streams might still be open"), and the answer to quit is written just before the process ends.
    this.child.on('close', () => {
      this.exited = true;
      if (this.waiting) this.take(undefined);
    });
  }

  private take(line: string | undefined): void {
    const waiting = this.waiting!;
    this.waiting = undefined;
    waiting(line);
  }

  /** Sends one command; its answer (throws on a C# exception, an exit, or no answer in time). */
  async send(command: string): Promise<Answer> {
    if (this.exited) throw new Error(`${command}: the process has exited\n${this.output}`);
    const next = this.answers.shift();
    if (next !== undefined) throw new Error(`${command}: an answer nobody asked for: ${next}`);
    const answered = new Promise<string | undefined>((resolve) => (this.waiting = resolve));
    this.child.stdin.write(`${command}\n`);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ANSWER_TIMEOUT_MS)));
    const line = await Promise.race([answered, timedOut]);
    clearTimeout(timer);
    if (line === 'timeout') {
      this.kill();
      throw new Error(`${command}: no answer within ${ANSWER_TIMEOUT_MS} ms\n${this.output}`);
    }
    if (line === undefined) throw new Error(`${command}: the process exited\n${this.output}`);
    const answer = JSON.parse(line) as Answer;
    if (typeof answer['error'] === 'string') throw new Error(`${command}: ${answer['error']}`);
    return answer;
  }

  /** Quits as a player does (Application.quitting, then exit); resolves when the process has exited. */
  async quit(): Promise<void> {
    await this.send('quit');
    await this.exit();
  }

  /** Kills the process with SIGKILL (no quitting message: the OS ends it); resolves when it has exited. */
  async killed(): Promise<void> {
    this.kill();
    await this.exit();
  }

  private exit(): Promise<void> {
    if (this.exited) return Promise.resolve();
    return new Promise((resolve) => this.child.once('close', () => resolve()));
  }

  /** Everything it wrote so far (stdout and stderr). */
  get written(): string {
    return this.output;
  }

  /** Ends the process if it still runs (a test's cleanup). */
  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }
}

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVICE_BIN = path.join(ROOT, 'brokers/launcher/service.js');

export interface LogLine {
  msg?: string;
  [k: string]: unknown;
}

export interface SpawnedService {
  proc: ChildProcess;
  lines: LogLine[];
  /** Resolves with the first log line whose `msg` equals `msg` (already seen or future). */
  waitFor(msg: string | ((line: LogLine) => boolean), timeoutMs?: number): Promise<LogLine>;
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>;
  stderr(): string;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs the real `service` command (or another entry script, e.g. `test/support/runs-node.ts`) as a child process with
 * the current Node (22) and parses its JSON log lines. `prefix` runs it through a command that execs it in place (e.g.
 * `ip netns exec <ns>`), so the child's pid and signals stay the node's own.
 */
export function spawnService(
  args: string[],
  env: Record<string, string>,
  bin = SERVICE_BIN,
  prefix: string[] = [],
): SpawnedService {
  const [cmd, ...pre] = [...prefix, process.execPath];
  const proc = spawn(cmd, [...pre, bin, ...args], {
    cwd: ROOT,
    env: { ...process.env, SERVICE_LOG_LEVEL: 'info', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const waiters: { match: (l: LogLine) => boolean; resolve: (l: LogLine) => void }[] = [];
  let err = '';
  const onLine = (text: string) => {
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      return;
    }
    lines.push(line);
    for (const w of waiters.filter((w) => w.match(line))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(line);
    }
  };
  readline.createInterface({ input: proc.stdout! }).on('line', onLine);
  readline.createInterface({ input: proc.stderr! }).on('line', (l) => {
    err += `${l}\n`;
    onLine(l);
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return {
    proc,
    lines,
    exited,
    stderr: () => err,
    waitFor(msg, timeoutMs = 20_000) {
      const match = typeof msg === 'string' ? (l: LogLine) => l.msg === msg : msg;
      const what = typeof msg === 'string' ? msg : 'the awaited line';
      const seen = lines.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no "${what}" log within ${timeoutMs} ms; stderr:\n${err}`)),
          timeoutMs,
        );
        waiters.push({
          match,
          resolve: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
        void exited.then((code) => reject(new Error(`process exited (${code}) before "${what}"; stderr:\n${err}`)));
      });
    },
    async kill(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}

import { Worker } from 'node:worker_threads';

/**
 * The syncing thread: for each path of a round (a file or a folder), open, fsync, close,
 * one after another. The first fsync of a round commits the file system's journal with
 * every file written and every rename made before it, so the paths after it cost little
 * more than the system calls.
 */
const SYNC_THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { openSync, fsyncSync, closeSync } = require('node:fs');
parentPort.on('message', (folders) => {
  const failures = {};
  for (const folder of folders) {
    try {
      const fd = openSync(folder, 'r');
      try { fsyncSync(fd); } finally { closeSync(fd); }
    } catch (error) {
      failures[folder] = { message: error.message, code: error.code };
    }
  }
  parentPort.postMessage(failures);
});
`;

type Failures = Record<string, { message: string; code?: string }>;

interface Waiter {
  resolve(): void;
  reject(error: Error): void;
}

type Round = Map<string, Waiter[]>;

/** Rounds that may run at once: each fsync also flushes the disk's cache, and those overlap. */
const SYNC_THREADS = 4;

/**
 * Makes files' contents and the names created or renamed in folders durable (fsync of the
 * file or the folder), in group commits: paths asked for while every sync thread is busy
 * wait for the next free one, which syncs them all in one round. A burst of blob writes
 * then costs the event loop one message per round instead of an fsync of each file and
 * three file system calls per folder on libuv's small pool (which the writes themselves
 * need), and the disk one journal commit per round instead of one per file.
 */
export class FolderSync {
  private readonly idle: SyncThread[] = [];
  private threads = 0;
  private next: Round = new Map();

  /** Resolves once the file's content, or the folder's entries, as they are now are on disk. */
  sync(target: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiters = this.next.get(target);
      if (waiters) waiters.push({ resolve, reject });
      else this.next.set(target, [{ resolve, reject }]);
      this.startRound();
    });
  }

  private startRound(): void {
    if (this.next.size === 0) return;
    const thread = this.idle.pop() ?? (this.threads < SYNC_THREADS ? this.newThread() : undefined);
    if (!thread) return;
    const round = this.next;
    this.next = new Map();
    thread.run(round);
  }

  private newThread(): SyncThread {
    this.threads++;
    const thread: SyncThread = new SyncThread(
      () => {
        this.idle.push(thread);
        this.startRound();
      },
      () => {
        this.threads--;
        this.startRound();
      },
    );
    return thread;
  }
}

/** One thread that syncs a round of folders at a time; it does not keep the process alive while idle. */
class SyncThread {
  private readonly worker = new Worker(SYNC_THREAD_SOURCE, { eval: true });
  private round?: Round;

  constructor(onIdle: () => void, onDead: () => void) {
    this.worker.on('message', (failures: Failures) => {
      const round = this.round;
      this.round = undefined;
      this.worker.unref();
      for (const [folder, waiters] of round ?? []) {
        const failure = failures[folder];
        for (const waiter of waiters) {
          if (failure) waiter.reject(Object.assign(new Error(`fsync of ${folder} failed: ${failure.message}`), { code: failure.code }));
          else waiter.resolve();
        }
      }
      onIdle();
    });
    // A thread that dies leaves its round not known to be on disk; the next round gets a new thread.
    let dead = false;
    const die = (error: Error) => {
      if (dead) return;
      dead = true;
      for (const waiters of this.round?.values() ?? []) for (const waiter of waiters) waiter.reject(error);
      this.round = undefined;
      onDead();
    };
    this.worker.on('error', die);
    this.worker.on('exit', (code) => die(new Error(`the folder sync thread stopped (exit code ${code})`)));
  }

  run(round: Round): void {
    this.round = round;
    this.worker.ref();
    this.worker.postMessage([...round.keys()]);
  }
}

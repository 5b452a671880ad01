export interface PollOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

export interface WaitOptions extends PollOptions {
  what: string | (() => string);
}

/** Polls `check` until it gives a value other than undefined/false; undefined once the timeout has passed without one. */
export async function poll<T>(check: () => T | undefined | false | Promise<T | undefined | false>, options: PollOptions = {}): Promise<T | undefined> {
  const { timeoutMs = 20_000, intervalMs = 100 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) return undefined;
    await sleep(intervalMs);
  }
}

/** Polls `check` until it gives a value other than undefined/false, or fails after the timeout naming what it waited for. */
export async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, options: WaitOptions): Promise<T> {
  const { timeoutMs = 20_000 } = options;
  const value = await poll(check, options);
  if (value === undefined) {
    throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof options.what === 'function' ? options.what() : options.what}`);
  }
  return value;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
  what: string | (() => string);
}

/** Polls `check` until it gives a value other than undefined/false, or fails after the timeout naming what it waited for. */
export async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, options: WaitOptions): Promise<T> {
  const { timeoutMs = 20_000, intervalMs = 100 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof options.what === 'function' ? options.what() : options.what}`);
    }
    await sleep(intervalMs);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

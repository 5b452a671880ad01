const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The base URL of a server to load, refused unless it is on this machine: the harness
 * samples the server's memory through /proc, and load is only ever sent to loopback.
 */
export function loopbackBaseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`--base ${text} is not a URL; give e.g. http://127.0.0.1:3000`);
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) {
    throw new Error(`--base ${text}: only http:// on 127.0.0.1 (this machine) is benchmarked`);
  }
  return new URL(url.origin);
}

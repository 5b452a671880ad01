import { createServer } from 'node:net';

/*
 * A port for a child process to listen on. Port 0 would hand out an ephemeral port, which the
 * kernel also gives to outgoing connections (to PostgreSQL, Redis, the apps under test): one of
 * them can take it between our check and the child's bind. Ports below the ephemeral range are
 * only ever taken by listeners, so a random one that binds now is very likely still free when
 * the child binds it.
 */
const LOWEST = 20_000;
const BELOW_EPHEMERAL = 32_768;
/** A test asks for several ports before its children bind any: never the same one twice. */
const handedOut = new Set<number>();

export async function freePort(): Promise<number> {
  for (;;) {
    const port = LOWEST + Math.floor(Math.random() * (BELOW_EPHEMERAL - LOWEST));
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await bindable(port)) return port;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

import net from 'node:net';

export interface TcpProxy {
  port: number;
  url(scheme: string): string;
  /** Stops passing the client's bytes on: what it sends now stays in flight, unanswered. */
  hold(): void;
  /** Drops every connection and refuses new ones: the server behind it has gone away. */
  cut(): Promise<void>;
}

/** A TCP proxy to a local port that a test can stall and cut, as a network or a server failing mid-request would. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let holding = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('data', (chunk) => {
      if (!holding) upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    url: (scheme) => `${scheme}://127.0.0.1:${port}`,
    hold: () => {
      holding = true;
    },
    cut: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

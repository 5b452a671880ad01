import { createSocket } from 'node:dgram';
import { connect, isIPv6 } from 'node:net';
import DNS from 'dns2';
import type { DnsRecordType } from './dns-answers';
import type { NameServer } from './name-servers';

const { Packet } = DNS;

/** RFC 6891's payload size most paths carry unfragmented (DNS flag day 2020): larger answers come over TCP. */
const UDP_PAYLOAD_BYTES = 1232;

/**
 * Asks one server for `type` records of `name`: over UDP, then over TCP when the answer did not fit (TC bit),
 * until `signal` aborts, which closes the socket and rejects with the signal's reason. The UDP socket is
 * connected, so only datagrams from the server are read; one carrying another query's id is ignored.
 */
export async function exchange(server: NameServer, name: string, type: DnsRecordType, signal: AbortSignal): Promise<DNS.Packet> {
  const query = new Packet();
  query.header.id = Packet.uuid();
  query.header.rd = 1;
  query.questions.push(new Packet.Question(name, Packet.TYPE[type], Packet.CLASS.IN));
  query.additionals.push(Packet.Resource.EDNS([], { udpPayloadSize: UDP_PAYLOAD_BYTES }) as DNS.Packet.Resource);
  const message = query.toBuffer();
  const overUdp = await udpExchange(server, message, query.header.id, signal);
  return overUdp.header.tc ? tcpExchange(server, message, query.header.id, signal) : overUdp;
}

function udpExchange(server: NameServer, message: Buffer, id: number, signal: AbortSignal): Promise<DNS.Packet> {
  return settleOnce(signal, (resolve, reject) => {
    const socket = createSocket(isIPv6(server.host) ? 'udp6' : 'udp4');
    socket.on('error', reject);
    socket.on('message', (datagram) => {
      const response = parseOrUndefined(datagram);
      if (response?.header.id === id && response.header.qr === 1) resolve(response);
    });
    socket.connect(server.port, server.host, () => socket.send(message));
    return () => socket.close();
  });
}

function tcpExchange(server: NameServer, message: Buffer, id: number, signal: AbortSignal): Promise<DNS.Packet> {
  return settleOnce(signal, (resolve, reject) => {
    const socket = connect({ host: server.host, port: server.port });
    socket.on('error', reject);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(message.length);
    socket.write(Buffer.concat([length, message]));
    Packet.readStream(socket)
      .then((data) => Packet.parse(data))
      .then((response) => (response.header.id === id ? resolve(response) : reject(new Error(`answer ${response.header.id} to query ${id}`))), reject);
    return () => socket.destroy();
  });
}

/**
 * A promise settled by the first of `start`'s callbacks or `signal`'s abort; either way the cleanup
 * `start` returns runs once, so no socket outlives its lookup.
 */
function settleOnce<T>(signal: AbortSignal, start: (resolve: (value: T) => void, reject: (error: unknown) => void) => () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    let release: (() => void) | undefined;
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      release?.();
      finish();
    };
    const onAbort = () => settle(() => reject(signal.reason));
    signal.addEventListener('abort', onAbort);
    try {
      release = start(
        (value) => settle(() => resolve(value)),
        (error) => settle(() => reject(error)),
      );
      // Settled while starting: the cleanup was not known yet.
      if (settled) release();
    } catch (error) {
      settle(() => reject(error));
    }
  });
}

function parseOrUndefined(datagram: Buffer): DNS.Packet | undefined {
  try {
    return Packet.parse(datagram);
  } catch {
    return undefined;
  }
}

import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { postToRspamd, RspamdTimeout, type RspamdAddress } from './rspamd-request';

/** A stand-in for rspamd's worker: each connection's request is handed to `answer`, which writes what it likes. */
async function fakeRspamd(
  answer: (socket: net.Socket, request: Buffer) => void,
): Promise<{ address: RspamdAddress; requests: Buffer[]; close: () => Promise<void> }> {
  const requests: Buffer[] = [];
  const server = net.createServer((socket) => {
    let request = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      request = Buffer.concat([request, chunk]);
      const headEnd = request.indexOf('\r\n\r\n');
      const length = Number(/Content-Length: (\d+)/.exec(request.toString('latin1'))?.[1]);
      if (headEnd >= 0 && request.length - headEnd - 4 >= length) {
        requests.push(request);
        answer(socket, request);
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    address: { host: '127.0.0.1', port },
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('a request to rspamd', () => {
  const message = Buffer.from('From: someone@example.org\r\nSubject: hello\r\n\r\nhi\r\n');

  test('sends the message with a header line each, and reads an answer that arrives in pieces', async () => {
    const reply = JSON.stringify({ score: 1.5, action: 'no action' });
    const rspamd = await fakeRspamd((socket) => {
      const answer = `HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(reply)}\r\n\r\n${reply}`;
      socket.write(answer.slice(0, 20));
      setTimeout(() => socket.write(answer.slice(20, 70)), 5);
      // Kept open after the answer: its length, not the connection's end, tells it is whole.
      setTimeout(() => socket.write(answer.slice(70)), 10);
    });
    try {
      const answer = await postToRspamd(
        rspamd.address,
        '/checkv2',
        [
          ['Rcpt', 'a@letterbox.test'],
          ['Rcpt', 'b@letterbox.test'],
        ],
        message,
        5000,
      );
      assert.equal(answer.status, 200);
      assert.deepEqual(JSON.parse(answer.body.toString()), { score: 1.5, action: 'no action' });
      const request = rspamd.requests[0].toString();
      assert.match(request, /^POST \/checkv2 HTTP\/1\.0\r\n/);
      assert.match(request, /\r\nRcpt: a@letterbox\.test\r\nRcpt: b@letterbox\.test\r\n/);
      assert.ok(request.endsWith(`\r\n\r\n${message.toString()}`));
    } finally {
      await rspamd.close();
    }
  });

  test("reads an answer without a length to the connection's end, and gives its status", async () => {
    const rspamd = await fakeRspamd((socket) => socket.end('HTTP/1.1 500 Internal Server Error\r\n\r\nbroken'));
    try {
      const answer = await postToRspamd(rspamd.address, '/checkv2', [], message, 5000);
      assert.equal(answer.status, 500);
      assert.equal(answer.body.toString(), 'broken');
    } finally {
      await rspamd.close();
    }
  });

  describe('fails', () => {
    let silent: Awaited<ReturnType<typeof fakeRspamd>>;
    before(async () => {
      silent = await fakeRspamd(() => undefined);
    });
    after(() => silent.close());

    test('with RspamdTimeout when no answer comes in time', async () => {
      await assert.rejects(postToRspamd(silent.address, '/checkv2', [], message, 100), RspamdTimeout);
    });

    test('without connecting when a header value would break its line', async () => {
      const before = silent.requests.length;
      await assert.rejects(postToRspamd(silent.address, '/checkv2', [['Helo', 'mx.example.org\r\nRcpt: victim@letterbox.test']], message, 1000), /Helo header/);
      assert.equal(silent.requests.length, before);
    });

    test('when the connection ends before the answer does', async () => {
      const rspamd = await fakeRspamd((socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"score"'));
      try {
        await assert.rejects(postToRspamd(rspamd.address, '/checkv2', [], message, 5000), /before the end of its answer/);
      } finally {
        await rspamd.close();
      }
    });

    test('when the answer is larger than a megabyte, without reading the rest', async () => {
      const rspamd = await fakeRspamd((socket) => {
        socket.write('HTTP/1.1 200 OK\r\n\r\n');
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const flood = setInterval(() => (socket.destroyed ? clearInterval(flood) : socket.write(chunk)), 1);
      });
      try {
        await assert.rejects(postToRspamd(rspamd.address, '/checkv2', [], message, 10_000), /larger than 1048576 bytes/);
      } finally {
        await rspamd.close();
      }
    });

    test('when nothing listens', async () => {
      const { address, close } = await fakeRspamd(() => undefined);
      await close();
      await assert.rejects(postToRspamd(address, '/checkv2', [], message, 5000), /ECONNREFUSED/);
    });
  });
});

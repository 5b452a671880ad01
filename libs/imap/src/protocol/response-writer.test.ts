import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { Readable, Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { ResponseWriteError, writeResponse } from './response-writer';

const CHUNK = 64 * 1024;
const TEN_MB = 10 * 1024 * 1024;

/** `length` bytes in CHUNK-sized pieces, made only when read, counting what it made. */
function source(length: number) {
  const counter = { made: 0 };
  const stream = new Readable({
    highWaterMark: CHUNK,
    read() {
      const size = Math.min(CHUNK, length - counter.made);
      if (size === 0) return this.push(null);
      const chunk = Buffer.alloc(size, counter.made / CHUNK);
      counter.made += size;
      this.push(chunk);
    },
  });
  return { stream, counter };
}

describe('writeResponse', () => {
  test('streams a 10 MB literal to a slow writer chunk by chunk, reading ahead no more than the buffers hold', async () => {
    const { stream, counter } = source(TEN_MB);
    let taken = 0;
    let largestWrite = 0;
    let largestLead = 0;
    const hash = createHash('sha256');
    const slow = new Writable({
      highWaterMark: CHUNK,
      write(chunk: Buffer, _encoding, done) {
        largestWrite = Math.max(largestWrite, chunk.length);
        largestLead = Math.max(largestLead, counter.made - taken);
        taken += chunk.length;
        hash.update(chunk);
        setImmediate(done);
      },
    });
    await writeResponse(slow, ['* 1 FETCH (BODY[] ', { literalStream: { length: TEN_MB, stream } }, ')']);
    assert.equal(taken, '* 1 FETCH (BODY[] {10485760}\r\n'.length + TEN_MB + ')\r\n'.length);
    // A read may join what the source's buffer holds, never more.
    assert.ok(largestWrite <= 4 * CHUNK, `a write of ${largestWrite} bytes: the literal was joined`);
    assert.ok(largestLead <= 4 * CHUNK, `the source ran ${largestLead} bytes ahead of the writer`);
  });

  test('sends a literal through a socket whose reader is paused, then resumes, byte for byte', async () => {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const accepted = once(server, 'connection') as Promise<[Socket]>;
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const [socket] = await accepted;
    try {
      client.pause();
      const { stream, counter } = source(TEN_MB);
      let done = false;
      const writing = writeResponse(socket, ['* 1 FETCH (BODY[] ', { literalStream: { length: TEN_MB, stream } }, ')']).then(() => (done = true));
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(done, false, 'the write waits for the paused reader');
      assert.ok(counter.made < TEN_MB / 2, `${counter.made} bytes read from the source while the reader was paused`);
      const received: Buffer[] = [];
      client.on('data', (chunk: Buffer) => received.push(chunk));
      client.resume();
      await writing;
      socket.end();
      await once(client, 'end');
      const whole = Buffer.concat(received);
      const head = Buffer.from('* 1 FETCH (BODY[] {10485760}\r\n');
      assert.ok(whole.subarray(0, head.length).equals(head));
      assert.equal(whole.length, head.length + TEN_MB + 3);
      assert.equal(whole.subarray(-3).toString(), ')\r\n');
      assert.equal(whole[head.length + TEN_MB - 1], ((TEN_MB - 1) >> 16) & 0xff);
    } finally {
      client.destroy();
      socket.destroy();
      server.close();
    }
  });

  test('fails when a literal stream is shorter or longer than it said, and when the output is closed', async () => {
    const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
    await assert.rejects(writeResponse(sink(), [{ literalStream: { length: 5, stream: Readable.from([Buffer.from('abc')]) } }]), ResponseWriteError);
    await assert.rejects(writeResponse(sink(), [{ literalStream: { length: 2, stream: Readable.from([Buffer.from('abc')]) } }]), ResponseWriteError);
    const closed = sink();
    closed.destroy();
    await assert.rejects(writeResponse(closed, ['* OK']), ResponseWriteError);
  });

  test('writes plain parts and in-memory literals as encodeResponse does', async () => {
    const chunks: Buffer[] = [];
    const out = new Writable({ write: (chunk: Buffer, _encoding, done) => (chunks.push(chunk), done()) });
    await writeResponse(out, ['* 1 FETCH (X ', { literal: Buffer.from('ab') }, ' Y ', { literalStream: { length: 0, stream: Readable.from([]) } }, ')']);
    assert.equal(Buffer.concat(chunks).toString(), '* 1 FETCH (X {2}\r\nab Y {0}\r\n)\r\n');
  });

  test('writes a literal8 stream as ~{n}, its NULs as they are', async () => {
    const chunks: Buffer[] = [];
    const out = new Writable({ write: (chunk: Buffer, _encoding, done) => (chunks.push(chunk), done()) });
    await writeResponse(out, ['* 1 FETCH (BINARY[1] ', { literalStream: { length: 3, stream: Readable.from([Buffer.from('a\0b')]), literal8: true } }, ')']);
    assert.equal(Buffer.concat(chunks).toString('latin1'), '* 1 FETCH (BINARY[1] ~{3}\r\na\0b)\r\n');
  });

  test('writes text pieces one by one as they are made, waiting for a slow writer between them', async () => {
    let made = 0;
    let taken = 0;
    let largestLead = 0;
    function* pieces() {
      for (let index = 0; index < 200; index++) {
        made++;
        yield ` ${'9'.repeat(CHUNK - 1)}`;
      }
    }
    const slow = new Writable({
      highWaterMark: CHUNK,
      write(chunk: Buffer, _encoding, done) {
        if (chunk.length === CHUNK) taken++;
        largestLead = Math.max(largestLead, made - taken);
        setImmediate(done);
      },
    });
    const chunks: Buffer[] = [];
    await writeResponse(slow, ['* SORT', { textPieces: pieces() }, ' (MODSEQ 3)']);
    assert.equal(taken, 200);
    assert.ok(largestLead <= 2, `the pieces ran ${largestLead} ahead of the writer`);
    const out = new Writable({ write: (chunk: Buffer, _encoding, done) => (chunks.push(chunk), done()) });
    await writeResponse(out, ['* SORT', { textPieces: [' 3', ' 1'] }, ' (MODSEQ 3)']);
    await writeResponse(out, ['* SORT', { textPieces: [] }]);
    assert.equal(Buffer.concat(chunks).toString(), '* SORT 3 1 (MODSEQ 3)\r\n* SORT\r\n');
  });
});

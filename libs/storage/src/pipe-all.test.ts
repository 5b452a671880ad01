import assert from 'node:assert/strict';
import { PassThrough, Readable, Transform, Writable } from 'node:stream';
import { test } from 'node:test';
import { pipeAll } from './pipe-all';

const collector = (chunks: Buffer[]) =>
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });

test('settles once the destination has everything, through every transform', async () => {
  const chunks: Buffer[] = [];
  const upper = new Transform({ transform: (chunk: Buffer, _encoding, done) => done(null, Buffer.from(chunk.toString().toUpperCase())) });
  await pipeAll(Readable.from([Buffer.from('abc'), Buffer.from('def')]), [new PassThrough(), upper], collector(chunks));
  assert.equal(Buffer.concat(chunks).toString(), 'ABCDEF');
});

test('an error anywhere rejects with it and destroys every stream', async () => {
  const source = Readable.from([Buffer.from('a'), Buffer.from('b')]);
  const failing = new Transform({ transform: (_chunk, _encoding, done) => done(new Error('too large')) });
  const sink = collector([]);
  await assert.rejects(pipeAll(source, [failing], sink), /too large/);
  assert.ok(source.destroyed && failing.destroyed && sink.destroyed);
});

test('a source that closes before its end is an error, not a complete blob', async () => {
  const source = new Readable({ read() {} });
  source.push('partial');
  const piping = pipeAll(source, [], collector([]));
  setImmediate(() => source.destroy());
  await assert.rejects(piping, /closed before its end/);
});

test('a source that failed before it was handed over rejects with its error, and the destination is let go', async () => {
  const source = new Readable({ read() {} }).on('error', () => {});
  source.destroy(new Error('the form ended inside the file'));
  const sink = collector([]);
  await assert.rejects(pipeAll(source, [], sink), /ended inside the file/);
  assert.ok(sink.destroyed);
});

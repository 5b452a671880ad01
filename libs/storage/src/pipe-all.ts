import type { Readable, Transform, Writable } from 'node:stream';

/** The source stream closed before its end: an upload cut short, not a storage fault. */
export class SourceEndedEarlyError extends Error {
  constructor() {
    super('the source closed before its end');
  }
}

/**
 * Pipes source through the transforms into sink, and settles when sink has finished and
 * closed, or on the first error, after destroying every stream. What stream.pipeline
 * does, without its per-call AbortController: it raises a DOMException, with a stack
 * trace, on every pipeline that ends, which cost the intake ~0.1 ms per message.
 */
export function pipeAll(source: Readable, transforms: Transform[], sink: Writable): Promise<void> {
  const streams = [source, ...transforms, sink];
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      for (const stream of streams) stream.destroy();
      reject(error);
    };
    // A source destroyed before it was handed over (an upload that failed while storage got ready) says so
    // only now: its 'error' and 'close' are gone.
    if (source.destroyed) return fail(source.errored ?? new SourceEndedEarlyError());
    for (const stream of streams) stream.on('error', fail);
    source.on('close', () => {
      if (!source.readableEnded) fail(new SourceEndedEarlyError());
    });
    sink.on('close', () => {
      if (settled) return;
      if (!sink.writableFinished) return fail(new Error('the destination closed before it finished'));
      settled = true;
      resolve();
    });
    let tail: Readable = source;
    for (const transform of transforms) tail = tail.pipe(transform);
    tail.pipe(sink);
  });
}

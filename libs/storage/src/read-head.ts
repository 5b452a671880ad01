import type { Readable } from 'node:stream';

/**
 * Reads up to `limit` bytes from the start of the stream, or all of it if it ends first;
 * what was read past the limit goes back into the stream, which goes on from there. A
 * stream destroyed before its end rejects, with its error if it had one.
 */
export function readHead(stream: Readable, limit: number): Promise<{ head: Buffer; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const stop = () => stream.off('readable', onReadable).off('end', onEnd).off('error', onError).off('close', onClose);
    const finish = (ended: boolean) => {
      stop();
      const whole = Buffer.concat(chunks);
      if (whole.length > limit) stream.unshift(whole.subarray(limit));
      resolve({ head: whole.subarray(0, limit), ended });
    };
    const onReadable = () => {
      let chunk: Buffer | null;
      while (length < limit && (chunk = stream.read() as Buffer | null) !== null) {
        chunks.push(chunk);
        length += chunk.length;
      }
      if (length >= limit) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const onClose = () => onError(new Error('the stream closed before its end'));
    stream.on('readable', onReadable).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

import { PassThrough, type Readable, type Writable } from 'node:stream';
import { MessageTooLargeError } from './inbound-errors';

/**
 * The content, into `output`, failing with MessageTooLargeError once it passes `limitBytes`. The source is
 * then read to its end and dropped rather than destroyed, so the protocol around it (an
 * HTTP request, an SMTP DATA phase) can still answer with the refusal.
 */
export function limitSize(content: Readable, limitBytes: number, output: Writable & Readable = new PassThrough()): Readable {
  let seen = 0;
  let refused = false;
  content.on('data', (chunk: Buffer) => {
    if (refused || output.destroyed) return;
    seen += chunk.length;
    if (seen > limitBytes) {
      refused = true;
      output.destroy(new MessageTooLargeError(limitBytes));
      content.resume();
      return;
    }
    if (!output.write(chunk)) {
      content.pause();
      output.once('drain', () => content.resume());
    }
  });
  content.once('end', () => {
    if (!refused) output.end();
  });
  content.once('error', (error) => output.destroy(error));
  // Whoever reads the output may give up on it (a storage failure): the source is drained then too.
  output.once('close', () => content.resume());
  return output;
}

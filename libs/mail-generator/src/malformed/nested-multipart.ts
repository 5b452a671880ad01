import { commonHeaders, crlfLines } from './message-lines';

/** Multipart inside multipart `depth` times around one text part: a reader that recurses without a limit overflows. */
export function deeplyNestedMultipart(depth: number): string {
  let part = crlfLines('Content-Type: text/plain; charset=us-ascii', '', `You reached the bottom, ${depth} multiparts deep.`);
  for (let level = depth; level >= 1; level--) {
    const boundary = `nest-level-${level}`;
    const messageHeaders = level === 1 ? [...commonHeaders(`Nested ${depth} levels deep`, 'nested'), 'MIME-Version: 1.0'] : [];
    const opening = crlfLines(...messageHeaders, `Content-Type: multipart/mixed; boundary="${boundary}"`, '', `--${boundary}`);
    part = opening + part + crlfLines(`--${boundary}--`);
  }
  return part;
}

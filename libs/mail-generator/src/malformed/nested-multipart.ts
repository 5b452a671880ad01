import { commonHeaders, crlfLines } from './message-lines';

/** Multipart inside multipart `depth` times, one text part at the bottom: a reader that recurses without a limit overflows. */
export function deeplyNestedMultipart(depth: number): string {
  let body = crlfLines(
    'Content-Type: text/plain; charset=us-ascii',
    '',
    `You reached the bottom, ${depth} multiparts deep.`,
  );
  for (let level = depth; level >= 1; level--) {
    const boundary = `nest-level-${level}`;
    const headers = level === 1 ? [...commonHeaders(`Nested ${depth} levels deep`, 'nested'), 'MIME-Version: 1.0'] : [];
    body = crlfLines(...headers, `Content-Type: multipart/mixed; boundary="${boundary}"`, '', `--${boundary}`) +
      body +
      crlfLines(`--${boundary}--`);
  }
  return body;
}

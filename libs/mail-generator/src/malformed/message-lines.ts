/** Joins lines the way the wire format does, CRLF after every line, the last one included. */
export function crlfLines(...lines: string[]): string {
  return lines.map((line) => `${line}\r\n`).join('');
}

export function commonHeaders(subject: string, messageId: string): string[] {
  return [
    'From: Broken Sender <sender@broken.example>',
    'To: Reader <reader@letterbox.example>',
    `Subject: ${subject}`,
    'Date: Mon, 02 Mar 2026 10:00:00 +0000',
    `Message-ID: <${messageId}@broken.example>`,
  ];
}

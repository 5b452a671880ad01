import type { InboundOrigin } from './mail-authentication';

/**
 * The Received trace field (RFC 5321 §4.4) Letterbox prepends to a message it takes: who
 * handed it over (HELO name and address), this server, how (ESMTP, ESMTPS with the TLS
 * version and cipher, HTTP, or local delivery), the acceptance's id and when.
 */
export function receivedHeader(origin: InboundOrigin, hostname: string, inboundId: string, at: Date): string {
  const date = at.toUTCString().replace(/GMT$/, '+0000');
  return `Received: ${clauses(origin, token(hostname)).join(' ')}\r\n id ${inboundId};\r\n ${date}\r\n`;
}

function clauses(origin: InboundOrigin, by: string): string[] {
  switch (origin.channel) {
    case 'smtp': {
      const how = origin.tls ? `ESMTPS (${token(origin.tls.protocol)}, ${token(origin.tls.cipher)})` : 'ESMTP';
      return [`from ${token(origin.helo) || 'unknown'} (${bracketed(origin.ip)})`, `by ${by}`, `with ${how}`];
    }
    case 'http':
      return [...(origin.helo || origin.ip ? [`from ${token(origin.helo ?? '') || 'unknown'} (${bracketed(origin.ip ?? '')})`] : []), `by ${by}`, 'with HTTP'];
    case 'local':
      return [`by ${by}`, '(Letterbox local delivery)'];
  }
}

/**
 * What a client said (its HELO name), made safe to write into a header: no spaces, line
 * ends, parentheses or anything beyond a host name's or address literal's characters, 255 at most.
 */
function token(text: string): string {
  return text.replace(/[^A-Za-z0-9.\-_:[\]]/g, '?').slice(0, 255);
}

function bracketed(ip: string): string {
  return ip ? `[${token(ip)}]` : 'address unknown';
}

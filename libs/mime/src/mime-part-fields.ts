import { parseHeaderParams } from './header-params';
import type { MimePart } from './layout';

/** What a part keeps of one header field: IMAP clients show these, none needs more. */
export const MAX_FIELD_BYTES = 1024;

export type MimePartFields = Pick<MimePart, 'params' | 'id' | 'description' | 'encoding' | 'disposition' | 'language' | 'location' | 'md5'>;

/**
 * The header fields of a part that IMAP's BODYSTRUCTURE reports, raw, from its headers
 * (firstValues); fields absent from the headers are absent here.
 */
export function mimePartFieldsOf(byName: Map<string, string>): MimePartFields {
  const field = (name: string) => {
    const value = byName.get(name)?.trim();
    return value ? value.slice(0, MAX_FIELD_BYTES) : undefined;
  };
  const params = parseHeaderParams(byName.get('content-type') ?? '').params.map(boundedParam);
  const encoding = field('content-transfer-encoding')?.toLowerCase();
  const disposition = byName.has('content-disposition') ? parseHeaderParams(byName.get('content-disposition') ?? '') : undefined;
  const dispositionParams = disposition?.params.map(boundedParam);
  const language = field('content-language')
    ?.split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
  const fields: MimePartFields = {
    ...(params.length > 0 ? { params } : {}),
    id: field('content-id'),
    description: field('content-description'),
    encoding: encoding === '7bit' ? undefined : encoding,
    disposition: disposition?.value
      ? { type: disposition.value.slice(0, MAX_FIELD_BYTES).toLowerCase(), ...(dispositionParams?.length ? { params: dispositionParams } : {}) }
      : undefined,
    language: language?.length ? language : undefined,
    location: field('content-location'),
    md5: field('content-md5'),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as MimePartFields;
}

function boundedParam([name, value]: [string, string]): [string, string] {
  return [name.slice(0, MAX_FIELD_BYTES), value.slice(0, MAX_FIELD_BYTES)];
}

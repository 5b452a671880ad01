export interface Hostile<Value> {
  name: string;
  value: Value;
}

/** Text for path segments, query values, headers and form fields; encoded as each place needs. */
export const HOSTILE_STRINGS: ReadonlyArray<Hostile<string>> = [
  { name: 'empty', value: '' },
  { name: 'blank', value: ' ' },
  { name: '10k characters', value: 'a'.repeat(10_000) },
  { name: '10k digits', value: '9'.repeat(10_000) },
  { name: 'negative', value: '-1' },
  { name: 'zero', value: '0' },
  { name: 'float', value: '1.5' },
  { name: 'exponent', value: '1e3' },
  { name: 'NaN', value: 'NaN' },
  { name: 'Infinity', value: 'Infinity' },
  { name: 'beyond int4', value: '2147483648' },
  { name: 'beyond 2^53', value: '9007199254740993' },
  { name: 'beyond 2^63', value: '9223372036854775808' },
  { name: 'beyond 2^64', value: '18446744073709551616' },
  { name: 'unicode', value: 'Ünïcødé 😀 ✉ 漢字' },
  { name: 'right-to-left', value: 'שלום مرحبا \u202eabc' },
  { name: 'NUL', value: '\u0000' },
  { name: 'NUL inside', value: 'a\u0000b' },
  { name: 'CRLF', value: '\r\n' },
  { name: 'header injection', value: 'a\r\nSet-Cookie: fuzz=1' },
  { name: 'traversal', value: '../../../etc/passwd' },
  { name: 'Windows traversal', value: '..\\..\\..\\windows\\win.ini' },
  { name: 'comma list', value: '1,2' },
  { name: 'JSON array', value: '[1,2]' },
  { name: 'JSON object', value: '{"a":1}' },
  { name: 'quotes', value: `'"\`` },
  { name: 'SQL', value: "' OR '1'='1" },
  { name: 'LIKE wildcards', value: '%_\\' },
  { name: 'year 0', value: '0000-01-01T00:00:00Z' },
  { name: 'year 9999', value: '9999-12-31T23:59:59Z' },
  { name: 'February 30', value: '2026-02-30T00:00:00Z' },
];

/** Percent-encodings that decode to nothing valid, put in a URL as written. */
export const HOSTILE_ENCODINGS: ReadonlyArray<Hostile<string>> = [
  { name: 'a lone percent sign', value: '%' },
  { name: 'a percent sign without hex digits', value: '%zz' },
  { name: 'a byte that is no UTF-8', value: '%FF' },
  { name: 'an encoded surrogate', value: '%ED%A0%80' },
  { name: 'an overlong slash', value: '%C0%AF' },
  { name: 'a double-encoded traversal', value: '..%252F..%252Fetc%252Fpasswd' },
];

/** The deepest nesting the fuzzer sends: far past any recursion a parser or validator could afford. */
const DEEP = 10_000;

/** JSON texts to put in place of one field of a body: wrong types, and strings the field's type allows. */
export const HOSTILE_JSON_VALUES: ReadonlyArray<Hostile<string>> = [
  { name: 'null', value: 'null' },
  { name: 'true', value: 'true' },
  { name: 'false', value: 'false' },
  { name: 'number 0', value: '0' },
  { name: 'number -1', value: '-1' },
  { name: 'number 1.5', value: '1.5' },
  { name: 'number -0', value: '-0' },
  { name: 'number beyond int4', value: '2147483648' },
  { name: 'number beyond 2^53', value: '9007199254740993' },
  { name: 'number beyond 2^64', value: '18446744073709551616' },
  { name: 'number 1e400 (Infinity)', value: '1e400' },
  ...HOSTILE_STRINGS.map(({ name, value }) => ({ name: `string ${name}`, value: JSON.stringify(value) })),
  { name: 'string of 100k characters', value: JSON.stringify('a'.repeat(100_000)) },
  { name: 'string with a lone surrogate', value: '"a\\ud800b"' },
  { name: 'empty array', value: '[]' },
  { name: 'array of strings', value: '["a","b"]' },
  { name: 'array of numbers', value: '[1,2]' },
  { name: 'array of null', value: '[null]' },
  { name: 'array with a NUL string', value: '["a\\u0000b"]' },
  { name: 'array of 10k empty strings', value: JSON.stringify(Array.from({ length: 10_000 }, () => '')) },
  { name: 'deeply nested array', value: `${'['.repeat(DEEP)}${']'.repeat(DEEP)}` },
  { name: 'empty object', value: '{}' },
  { name: 'object', value: '{"a":1}' },
];

export interface HostileBody {
  name: string;
  /** Left out when undefined. */
  contentType?: string;
  /** No body at all when undefined. */
  body?: string | Uint8Array;
}

const json = (name: string, body: string): HostileBody => ({ name, contentType: 'application/json', body });

/** Whole bodies: none, the wrong media types, JSON that does not parse, JSON that is no object, and JSON too deep to walk. */
export const HOSTILE_BODIES: readonly HostileBody[] = [
  { name: 'no body' },
  json('empty JSON body', ''),
  { name: 'text/plain', contentType: 'text/plain', body: 'hello' },
  { name: 'application/xml', contentType: 'application/xml', body: '<?xml version="1.0"?><a>1</a>' },
  { name: 'form-urlencoded', contentType: 'application/x-www-form-urlencoded', body: 'a=1&b=2' },
  { name: 'multipart without boundary', contentType: 'multipart/form-data', body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n' },
  { name: 'multipart with an empty boundary', contentType: 'multipart/form-data; boundary=', body: '--\r\n\r\n' },
  {
    name: 'multipart that never closes',
    contentType: 'multipart/form-data; boundary=fuzz',
    body: '--fuzz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1',
  },
  { name: 'multipart of garbage', contentType: 'multipart/form-data; boundary=fuzz', body: 'garbage' },
  { name: 'octet-stream', contentType: 'application/octet-stream', body: new Uint8Array([0, 1, 2, 255]) },
  { name: 'no content type', body: new TextEncoder().encode('{}') },
  { name: 'malformed content type', contentType: ';;;', body: '{}' },
  { name: 'JSON said to be UTF-16', contentType: 'application/json; charset=utf-16', body: '{}' },
  { name: 'JSON under a vendor type', contentType: 'application/vnd.fuzz+json', body: '{}' },
  json('unclosed object', '{'),
  json('unclosed member', '{"a":'),
  json('trailing comma', '{"a":1,}'),
  json('single quotes', "{'a':1}"),
  json('NaN', '{"a":NaN}'),
  json('a NUL', '\u0000'),
  json('a byte order mark', '\ufeff{}'),
  json('garbage after the object', '{"a":1}garbage'),
  json('a JSON array', '[]'),
  json('a JSON array of objects', '[{}]'),
  json('a JSON number', '0'),
  json('a JSON string', '"text"'),
  json('JSON null', 'null'),
  json('JSON true', 'true'),
  json('10,000 nested arrays', `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`),
  json('10,000 nested objects', `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`),
  json('__proto__', '{"__proto__":{"polluted":true}}'),
  json('constructor.prototype', '{"constructor":{"prototype":{"polluted":true}}}'),
];

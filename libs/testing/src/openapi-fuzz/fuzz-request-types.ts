import type { Hostile } from './hostile-values';
import type { Operation } from './openapi-document';

/** One request to send; the runner adds the bearer token or not. */
export interface FuzzRequest {
  operation: Operation;
  /** What is hostile in it, as `path id: NUL`. */
  input: string;
  method: string;
  /** Encoded path and query. */
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | FormData;
}

export interface FuzzOptions {
  /** The value of a path parameter while another part is fuzzed, such as a mail of the user's own; `1` when not given. */
  pathValue?: (path: string, name: string) => string | undefined;
  /** A valid body per operation label, to fuzz one field at a time; otherwise one is made from the schema. */
  bodies?: Record<string, Record<string, unknown>>;
  /** The multipart field that carries files, for operations that take multipart/form-data. */
  fileField?: string;
  /** More strings to try everywhere, such as a syntax of the API's own. */
  extraStrings?: ReadonlyArray<Hostile<string>>;
}

/** A request for the operation with the given hostile input, the rest of it as a valid one would be. */
export type MakeRequest = (input: string, changes?: Partial<FuzzRequest>) => FuzzRequest;

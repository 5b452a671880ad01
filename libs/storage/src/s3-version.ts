import type { BlobVersion } from './blob-version';

/** The object metadata that names the put that wrote an object. */
export const PUT_ID_METADATA = 'put-id';

export interface S3ObjectState {
  etag: string;
  /** Whole seconds: what every S3 API tells (HEAD's Last-Modified is an HTTP date). */
  modifiedS: number;
  putId?: string;
}

/**
 * On S3 a version is the object's ETag and modification time, as a listing tells them,
 * and the id of the put that wrote it when its creator knows it (TrackedPut.created).
 * The put id alone tells writes of the same bytes apart in the same second; a listing
 * does not give metadata, but the collector only removes versions older than its grace
 * period, which a write since would have made younger. Stamp: `<seconds>:<etag>[:<put id>]`.
 */
export function s3VersionOf(key: string, state: S3ObjectState): BlobVersion {
  return { key, stamp: [state.modifiedS, state.etag, ...(state.putId ? [state.putId] : [])].join(':') };
}

export function isS3Version(state: S3ObjectState, version: BlobVersion): boolean {
  const [modifiedS, etag, putId] = version.stamp.split(':');
  return Number(modifiedS) === state.modifiedS && etag === state.etag && (putId === undefined || putId === state.putId);
}

export function stateOf(object: { ETag?: string; LastModified?: Date; Metadata?: Record<string, string> }): S3ObjectState {
  return {
    etag: (object.ETag ?? '').replaceAll('"', ''),
    modifiedS: Math.floor((object.LastModified?.getTime() ?? 0) / 1000),
    putId: object.Metadata?.[PUT_ID_METADATA],
  };
}

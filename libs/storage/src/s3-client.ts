import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { S3Client } from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';

export interface S3Settings {
  /** Omitted for AWS itself; a MinIO, Ceph RGW, R2 or s3rver address otherwise. */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Buckets addressed as a path (`endpoint/bucket/key`), as most S3-compatible stores want, not as a host name. */
  forcePathStyle: boolean;
}

/** Sockets kept open to the store: a mail read makes a few ranged GETs at once, an API serves many reads. */
const MAX_SOCKETS = 128;

export function createS3Client(settings: S3Settings): S3Client {
  // The project runs on Node 20 on purpose; the SDK's supported switch for its "Node 20 support ends in 2027"
  // notice (@aws-sdk/core emitWarningIfUnsupportedVersion) silences that notice alone, and only if not set otherwise.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const agent = { keepAlive: true, maxSockets: MAX_SOCKETS };
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // By default the SDK sends aws-chunked bodies with trailing checksums, which s3rver and several
    // S3-compatible stores do not understand; TLS and the content hash in the key guard the bytes already.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: new NodeHttpHandler({ httpAgent: new HttpAgent(agent), httpsAgent: new HttpsAgent(agent), connectionTimeout: 5000 }),
  });
}

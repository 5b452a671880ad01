import S3rver from 's3rver';

/**
 * The bench's S3-compatible server, run as a process of its own (bench/harness/bench-s3.ts
 * starts it): in the bench process its work would share the event loop that generates
 * the load. Its folder outlives it, so the copied blobs are there at the next run.
 */
async function main(): Promise<void> {
  const { BENCH_S3_PORT, BENCH_S3_DIR, BENCH_S3_BUCKET } = process.env;
  if (!BENCH_S3_PORT || !BENCH_S3_DIR || !BENCH_S3_BUCKET) throw new Error('BENCH_S3_PORT, BENCH_S3_DIR and BENCH_S3_BUCKET are required');
  const server = new S3rver({
    address: '127.0.0.1',
    port: Number(BENCH_S3_PORT),
    silent: true,
    directory: BENCH_S3_DIR,
    configureBuckets: [{ name: BENCH_S3_BUCKET }],
  });
  await server.run();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});

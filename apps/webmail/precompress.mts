import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

/** What is worth compressing: text the browser fetches. Images are compressed already; source maps are not served. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;

/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside each text file of the build, once, at
 * the best ratio: the webmail server sends the one the browser takes (`@fastify/static`'s
 * `preCompressed`) and spends no CPU on it per request.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'letterbox-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          const content = await readFile(full);
          const [br, gz] = await Promise.all([
            promisify(brotliCompress)(content, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }),
            promisify(gzip)(content, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([writeFile(`${full}.br`, br), writeFile(`${full}.gz`, gz)]);
        }),
      );
    },
  };
}

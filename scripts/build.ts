import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { transformFile, type Options } from '@swc/core';

/**
 * Compiles apps/ and libs/ to dist/ with SWC, one file for one file, so the apps run as
 * plain JavaScript: compiling on load would keep SWC's native compiler (about 90 MB of
 * memory) resident in every process. Then builds the webmail's SPA with Vite into
 * dist/apps/webmail/public, which its server (dist/apps/webmail/src/main.js) serves.
 * Another folder may be given (`scripts/build.ts <dir>`), inside the repository so the apps find node_modules.
 */
const ROOT = path.resolve(__dirname, '..');
const OUT = path.resolve(ROOT, process.argv[2] ?? 'dist');
const { paths } = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.base.json'), 'utf8')).compilerOptions as { paths: Record<string, string[]> };

const options: Options = {
  sourceMaps: true,
  module: { type: 'commonjs' },
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    baseUrl: ROOT,
    paths,
    keepClassNames: true,
  },
};

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => file.includes(`${path.sep}src${path.sep}`) && !file.includes(`${path.sep}testing${path.sep}`));
}

async function main(): Promise<void> {
  await rm(OUT, { recursive: true, force: true });
  const files = [...(await sources(path.join(ROOT, 'apps'))), ...(await sources(path.join(ROOT, 'libs')))];
  await Promise.all(
    files.map(async (file) => {
      const target = path.join(OUT, path.relative(ROOT, file)).replace(/\.ts$/, '.js');
      const output = await transformFile(file, { ...options, filename: file, outputPath: target });
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, `${output.code}\n//# sourceMappingURL=${path.basename(target)}.map\n`);
      if (output.map) await writeFile(`${target}.map`, output.map);
    }),
  );
  console.log(`compiled ${files.length} files to ${path.relative(ROOT, OUT)}/`);
  await buildWebmail();
}

/** The SPA: Vite (ESM only) runs in its own process, with apps/webmail/vite.config.mts. */
async function buildWebmail(): Promise<void> {
  const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
  const outDir = path.join(OUT, 'apps/webmail/public');
  await promisify(execFile)(process.execPath, [vite, 'build', '--config', 'apps/webmail/vite.config.mts', '--outDir', outDir, '--logLevel', 'warn'], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: Error & { stderr?: string; stdout?: string }) => {
    throw new Error(`the webmail's vite build failed: ${error.stderr || error.stdout || error.message}`);
  });
  console.log(`built the webmail to ${path.relative(ROOT, outDir)}/`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '@letterbox/testing';

/** Builds the SPA as production does (vite build), into a folder of the test's own. */
export async function buildSpa(outDir = path.join(REPO_ROOT, 'tmp/webmail-test/public')): Promise<string> {
  const vite = path.join(REPO_ROOT, 'node_modules/vite/bin/vite.js');
  await promisify(execFile)(process.execPath, [vite, 'build', '--config', 'apps/webmail/vite.config.mts', '--outDir', outDir, '--logLevel', 'warn'], {
    cwd: REPO_ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
  return outDir;
}

import { existsSync } from 'node:fs';
import path from 'node:path';

/** The repository, found from this file whether it runs from source or from dist/. */
function findRepoRoot(from: string): string {
  for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'nx.json'))) return dir;
  }
  return process.cwd();
}

export const repoRoot = findRepoRoot(__dirname);

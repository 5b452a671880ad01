import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { createProjectGraphAsync } from '@nx/devkit';

const ROOT = path.resolve(__dirname, '..');

/** A project as `npm test` sees it: `nx run-many -t test` runs the command of its test target, if it has one. */
interface Project {
  name: string;
  root: string;
  testCommand?: string;
}

/**
 * What keeps test files from running in `npm test`: a file in no project, or in a project whose test
 * target does not run `tools/run-tests.sh` over the project's folder. A file belongs to the innermost
 * project holding it.
 */
function testsLeftOut(projects: Project[], testFiles: string[]): string[] {
  const byDepth = [...projects].sort((a, b) => b.root.length - a.root.length);
  const leftOut = new Map<string, string[]>();
  for (const file of testFiles) {
    const project = byDepth.find((candidate) => candidate.root === '.' || file.startsWith(`${candidate.root}/`));
    const reason = !project
      ? 'no project holds'
      : runsTestsOf(project)
        ? undefined
        : `${project.name} (${project.root}) has test files and no test target running tools/run-tests.sh ${project.root}`;
    if (reason) leftOut.set(reason, [...(leftOut.get(reason) ?? []), file]);
  }
  return [...leftOut].map(([reason, files]) => `${reason}: ${files.join(', ')}`);
}

function runsTestsOf(project: Project): boolean {
  const expected = `tools/run-tests.sh ${project.root}`;
  return project.testCommand !== undefined && (project.testCommand === expected || project.testCommand.startsWith(`${expected} `));
}

/** The repository's test files, committed or not yet (ignored ones aside), as tools/run-tests.sh finds them. */
function repositoryTestFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', '*.test.ts', '*.test.tsx'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return [...new Set(listed.split('\0'))].filter((file) => file !== '' && existsSync(path.join(ROOT, file)));
}

async function workspaceProjects(): Promise<Project[]> {
  const graph = await createProjectGraphAsync({ exitOnError: false });
  return Object.values(graph.nodes).map((node) => {
    const command: unknown = node.data.targets?.test?.options?.command;
    return { name: node.name, root: node.data.root, testCommand: typeof command === 'string' ? command : undefined };
  });
}

describe('npm test runs every test file: each is in a project whose test target runs it', () => {
  test('no test file of the repository is left out', async () => {
    const files = repositoryTestFiles();
    assert.ok(files.includes('tools/test-targets.test.ts'), 'the listing finds the test files, this one among them');
    assert.deepEqual(testsLeftOut(await workspaceProjects(), files), []);
  });

  test('a project with test files and no test target, or one running other tests, is named; so is a test file in no project', () => {
    const projects: Project[] = [
      { name: 'mail', root: 'libs/mail', testCommand: 'tools/run-tests.sh libs/mail' },
      { name: 'sending', root: 'libs/sending' },
      { name: 'e2e-outer', root: 'e2e', testCommand: 'tools/run-tests.sh e2e/other' },
      { name: 'scale-out', root: 'e2e/scale-out', testCommand: 'tools/run-tests.sh e2e/scale-out' },
    ];
    const files = [
      'libs/mail/src/a.test.ts',
      'libs/sending/src/b.test.ts',
      'libs/sending/src/c.test.tsx',
      'e2e/d.test.ts',
      'e2e/scale-out/e.test.ts',
      'prisma/f.test.ts',
    ];
    assert.deepEqual(testsLeftOut(projects, files), [
      'sending (libs/sending) has test files and no test target running tools/run-tests.sh libs/sending: libs/sending/src/b.test.ts, libs/sending/src/c.test.tsx',
      'e2e-outer (e2e) has test files and no test target running tools/run-tests.sh e2e: e2e/d.test.ts',
      'no project holds: prisma/f.test.ts',
    ]);
  });
});

import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { createProjectGraphAsync } from '@nx/devkit';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '..');
const BOUNDARIES = '@nx/enforce-module-boundaries';
const ACROSS_PROJECTS_BY_PATH = `${BOUNDARIES}: Projects cannot be imported by a relative or absolute path, and must begin with a npm scope`;
const testCodeImported = (specifier: string) =>
  `no-restricted-imports: '${specifier}' import is restricted from being used by a pattern. test code: production code may not import it`;

describe('the lint run holds the projects to their boundaries (eslint.config.mjs, the tags in project.json)', () => {
  let eslint: ESLint;

  before(async () => {
    // The rule reads the project graph Nx caches, which a lint outside an Nx run may not find yet.
    await createProjectGraphAsync({ exitOnError: false });
    eslint = new ESLint({ cwd: ROOT });
  });

  /** What the boundary rules say of `code` as if it were the file at `file` (which need not exist). */
  async function boundaryProblems(file: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    return result.messages
      .filter((message) => message.ruleId === BOUNDARIES || message.ruleId === 'no-restricted-imports')
      .map((message) => `${message.ruleId}: ${message.message.split('\n')[0]}`);
  }

  test('a library may not import an app', async () => {
    const problems = await boundaryProblems('libs/mail/src/fixture.ts', "export { createSendApi } from '../../../apps/send-api/src/create-send-api';\n");
    assert.deepEqual(problems, [ACROSS_PROJECTS_BY_PATH]);
  });

  test('an app may not import another app, not even in a test', async () => {
    const problems = await boundaryProblems(
      'apps/send-api/src/fixture.test.ts',
      "export { startDeliveryWorker } from '../../delivery-worker/src/start-delivery-worker';\n",
    );
    assert.deepEqual(problems, [ACROSS_PROJECTS_BY_PATH]);
  });

  test('production code may not import the test harnesses', async () => {
    const problems = await boundaryProblems('libs/mail/src/fixture.ts', "export { createTestUser } from '@letterbox/testing';\n");
    assert.deepEqual(problems, [`${BOUNDARIES}: A project tagged with "type:domain" can only depend on libs tagged with "type:domain", "type:infrastructure"`]);
  });

  test("nor a testing folder, its own project's or another library's", async () => {
    assert.deepEqual(await boundaryProblems('libs/mime/src/fixture.ts', "export { compose } from './testing/mime-fixtures';\n"), [
      testCodeImported('./testing/mime-fixtures'),
    ]);
    assert.deepEqual(await boundaryProblems('apps/notify-worker/src/fixture.ts', "export { startMockFcmServer } from '@letterbox/push/testing';\n"), [
      testCodeImported('@letterbox/push/testing'),
    ]);
  });

  test('infrastructure may not import the domain', async () => {
    const problems = await boundaryProblems('libs/db/src/fixture.ts', "export { storeMail } from '@letterbox/mail';\n");
    assert.deepEqual(problems, [`${BOUNDARIES}: A project tagged with "type:infrastructure" can only depend on libs tagged with "type:infrastructure"`]);
  });

  test('tests and testing folders may import the harnesses; production code the libraries below it', async () => {
    assert.deepEqual(await boundaryProblems('libs/mail/src/fixture.test.ts', "export { createTestUser } from '@letterbox/testing';\n"), []);
    assert.deepEqual(
      await boundaryProblems('apps/notify-worker/src/testing/fixture.ts', "export { startMockFcmServer } from '@letterbox/push/testing';\n"),
      [],
    );
    assert.deepEqual(
      await boundaryProblems(
        'apps/send-api/src/fixture.ts',
        "export { createDatabase } from '@letterbox/db';\nexport { SendRecords } from '@letterbox/sending';\n",
      ),
      [],
    );
  });
});

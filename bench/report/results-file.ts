import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ProcedureOutcome } from '../harness/procedure-outcome';
import type { ScenarioOutcome } from '../harness/run-scenario';

const RESULTS_DIR = path.join(__dirname, '../results');

/** Writes bench/results/<scenario>-<timestamp>.json and returns its path relative to the working directory. */
export async function writeResultFile(outcome: ScenarioOutcome | ProcedureOutcome): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const stamp = outcome.startedAt.replace(/[:.]/g, '-');
  const file = path.join(RESULTS_DIR, `${outcome.scenario}-${stamp}.json`);
  // The machine goes with the figures: they mean little without its core count and Node version.
  const machine = { cpus: os.cpus().length, memoryBytes: os.totalmem(), node: process.version };
  await writeFile(file, `${JSON.stringify({ ...outcome, machine }, null, 2)}\n`);
  return path.relative(process.cwd(), file);
}

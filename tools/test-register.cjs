'use strict';
/**
 * The require hook every test process loads (tools/run-tests.sh, and the apps the tests start): TypeScript compiled by
 * SWC exactly as @swc-node/register compiles it (same options, from tsconfig.base.json), without its cost on each start.
 * @swc-node/register loads the typescript package (~0.5 s of CPU) in every process only to read tsconfig.json, and
 * `npm test` starts a few hundred processes. SWC's output is kept on disk by content hash under tmp/compile-cache, so
 * a test file's start-up reads what an earlier one compiled.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const CACHE_DIR = path.join(ROOT, 'tmp', 'compile-cache');
const TYPESCRIPT_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts'];

/** What changes a compiled output besides its source: the compilers' versions and our options. */
const toolchain = ['@swc/core', '@swc-node/core'].map((name) => `${name}@${require(`${name}/package.json`).version}`).join();
const swcOptions = readSwcOptions();
const salt = `${process.version};${toolchain};${JSON.stringify(swcOptions)}`;

/** @swc-node/register's options for our tsconfig (its tsCompilerOptionsToSwcConfig), paths made absolute. */
function readSwcOptions() {
  const { compilerOptions } = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.base.json'), 'utf8'));
  const baseUrl = path.resolve(ROOT, compilerOptions.baseUrl);
  return {
    module: 'commonjs',
    target: compilerOptions.target.toLowerCase(),
    sourcemap: true,
    experimentalDecorators: compilerOptions.experimentalDecorators,
    emitDecoratorMetadata: compilerOptions.emitDecoratorMetadata,
    useDefineForClassFields: true,
    esModuleInterop: compilerOptions.esModuleInterop,
    dynamicImport: true,
    keepClassNames: true,
    externalHelpers: false,
    baseUrl,
    paths: Object.fromEntries(Object.entries(compilerOptions.paths).map(([alias, targets]) => [alias, targets.map((target) => path.resolve(baseUrl, target))])),
    ignoreDynamic: false,
    swc: {},
  };
}

function hashOf(filename, content) {
  return crypto.hash('sha1', `${salt}\0${filename}\0${content}`);
}

function readCache(name) {
  try {
    return fs.readFileSync(path.join(CACHE_DIR, name));
  } catch {
    return undefined;
  }
}

/** Written aside then renamed: a test process running beside this one reads a whole entry or none. */
function writeCache(name, data) {
  try {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    const aside = path.join(CACHE_DIR, `${name}.${process.pid}.tmp`);
    fs.writeFileSync(aside, data);
    fs.renameSync(aside, path.join(CACHE_DIR, name));
  } catch {
    // A cache that cannot be written only costs the next process a compile.
  }
}

/** Stack traces name TypeScript lines, as under @swc-node/register (its source-map support, maps kept in memory). */
let sourceMaps;
function keepSourceMap(filename, map) {
  if (!sourceMaps) {
    const support = require('@swc-node/sourcemap-support');
    support.installSourceMapSupport();
    sourceMaps = support.SourcemapMap;
  }
  sourceMaps.set(filename, map);
}

function compileTypeScript(source, filename) {
  const name = `${hashOf(filename, source)}.json`;
  const cached = readCache(name);
  let output = cached && JSON.parse(cached.toString('utf8'));
  if (!output) {
    const { code, map } = require('@swc-node/core').transformSync(source, filename, { ...swcOptions, jsx: filename.endsWith('x') });
    output = { code, map };
    writeCache(name, JSON.stringify(output));
  }
  if (!output.map) return output.code;
  keepSourceMap(filename, output.map);
  return `${output.code}\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,${Buffer.from(output.map, 'utf8').toString('base64')}`;
}

for (const extension of TYPESCRIPT_EXTENSIONS) {
  Module._extensions[extension] = (module, filename) => module._compile(compileTypeScript(fs.readFileSync(filename, 'utf8'), filename), filename);
}

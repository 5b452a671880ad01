import { readFileSync } from 'node:fs';

/**
 * Summarises a V8 CPU profile (node --cpu-prof) of a server under load: how busy its
 * main thread was, and where that time went, by library and by function.
 * usage: node --require @swc-node/register bench/profile-top.ts <file.cpuprofile> [rows] [skip-seconds]
 * (skip-seconds leaves out the profile's start, such as the server's start-up before the load)
 *
 * "Charged" time puts the time of node's own code and of native calls (socket writes,
 * file system calls, GC is left apart) on the nearest library or app file up the stack
 * that made the call, so that e.g. a socket write shows up under the driver that wrote.
 * Only synchronous stacks are in a CPU profile: code that runs after an `await` is
 * charged to the library it runs in, not to the caller that awaited it.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, rowsText, skipText] = process.argv.slice(2);
if (!file) {
  console.error('usage: node --require @swc-node/register bench/profile-top.ts <file.cpuprofile> [rows] [skip-seconds]');
  process.exit(1);
}
const rows = Number(rowsText ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

/** The package under node_modules, the app or lib under dist/ (or the source file), node core, or a V8 pseudo-frame. */
function libraryOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith('node:')) return 'node core';
  const dist = url.indexOf('/dist/');
  if (dist >= 0)
    return url
      .slice(dist + 1)
      .split('/')
      .slice(0, 3)
      .join('/');
  const source = url.match(/\/(apps|libs|bench)\/([^/]+)\//);
  return source ? `${source[1]}/${source[2]}` : url;
}

const isOwnCode = (library: string) => library !== 'node core' && library !== '(native)' && !library.startsWith('(');

/** The first library up the stack (the frame itself included) that is neither node core nor native. */
function chargedLibrary(id: number): string {
  const own = libraryOf(byId.get(id) as ProfileNode);
  if (own.startsWith('(') && own !== '(native)') return own;
  for (let current: number | undefined = id; current !== undefined; current = parentOf.get(current)) {
    const library = libraryOf(byId.get(current) as ProfileNode);
    if (isOwnCode(library)) return library;
  }
  return own;
}

const frameName = (node: ProfileNode) => `${node.callFrame.functionName || '(anonymous)'}  ${libraryOf(node)}:${node.callFrame.lineNumber + 1}`;

const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
const selfByLibrary = new Map<string, number>();
const chargedByLibrary = new Map<string, number>();
const selfByFunction = new Map<string, number>();
const nativeByCaller = new Map<string, number>();
const skipMs = Number(skipText ?? 0) * 1000;
let idleMs = 0;
let elapsedMs = 0;
profile.samples.forEach((id, index) => {
  // A sample lasts until the next one.
  const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000;
  elapsedMs += (profile.timeDeltas[index] ?? 0) / 1000;
  if (elapsedMs < skipMs) return;
  const node = byId.get(id) as ProfileNode;
  if (node.callFrame.functionName === '(idle)') {
    idleMs += ms;
    return;
  }
  add(selfByLibrary, libraryOf(node), ms);
  add(chargedByLibrary, chargedLibrary(id), ms);
  add(selfByFunction, frameName(node), ms);
  if (libraryOf(node) === '(native)' || libraryOf(node) === 'node core')
    add(nativeByCaller, `${node.callFrame.functionName || '(anonymous)'} from ${chargedLibrary(id)}`, ms);
});
const wallMs = (profile.endTime - profile.startTime) / 1000 - skipMs;
const busyMs = wallMs - idleMs;

const show = (title: string, entries: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [name, ms] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(`${(ms / 1000).toFixed(2).padStart(8)} s ${((ms / busyMs) * 100).toFixed(1).padStart(5)}%  ${name}`);
  }
};
console.log(`${file}: ${(wallMs / 1000).toFixed(1)} s profiled, main thread busy ${(busyMs / 1000).toFixed(1)} s (percentages below are of the busy time)`);
show('busy time charged to libraries (node core and native calls on the library that made them)', chargedByLibrary);
show('self time by library', selfByLibrary);
show('node core and native self time, by the library that made the call', nativeByCaller);
show('self time by function', selfByFunction);

/// <reference types="node" />
// `attention-lab package … --preview`: the package, unzipped into a temporary folder, served on
// 127.0.0.1 under sco/, framed by a stand-in LMS page (preview/lms.html, preview/lms.js) that
// gives it scorm-again as the LMS's API (window.API for SCORM 1.2, window.API_1484_11 for 2004).
// Every API call the package makes is printed (log), scorm-again's commits are kept, and a reload
// of the LMS page resumes the attempt from the last commit (entry "resume", the suspend data,
// status and score), as an LMS does.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { unzipSync } from 'fflate';
import type { Standard } from '../lms/session';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.xml': 'application/xml',
};

/** The stand-in LMS's learner. */
const LEARNER = { id: 'preview-learner', name: 'Learner, Preview' };

/** One API call the package made, as the stand-in LMS saw it. */
export interface LmsCall {
  seq: number;
  fn: string;
  args: string[];
  result: string;
  error: string;
}

/** The CMI data a launch starts from: the learner, and after a suspended session its state (scorm-again's loadFromJSON shape). */
function launchData(standard: Standard, committed: Record<string, unknown> | undefined): Record<string, unknown> {
  const cmi = (committed?.cmi ?? committed ?? {}) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  if (standard === 'scorm12') {
    const core = cmi.core ?? {};
    const resume = core.exit === 'suspend';
    return {
      core: {
        student_id: LEARNER.id,
        student_name: LEARNER.name,
        entry: committed ? (resume ? 'resume' : '') : 'ab-initio',
        ...(core.lesson_status ? { lesson_status: core.lesson_status } : {}),
        ...(core.score ? { score: core.score } : {}),
      },
      ...(resume && cmi.suspend_data ? { suspend_data: cmi.suspend_data } : {}),
    };
  }
  const resume = cmi.exit === 'suspend';
  return {
    learner_id: LEARNER.id,
    learner_name: LEARNER.name,
    entry: committed ? (resume ? 'resume' : '') : 'ab-initio',
    ...(cmi.completion_status ? { completion_status: cmi.completion_status } : {}),
    ...(cmi.success_status ? { success_status: cmi.success_status } : {}),
    ...(cmi.score ? { score: cmi.score } : {}),
    ...(resume && cmi.suspend_data ? { suspend_data: cmi.suspend_data } : {}),
  };
}

const body = (request: IncomingMessage): Promise<string> =>
  new Promise((ok, fail) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => ok(Buffer.concat(parts).toString('utf8')));
    request.on('error', fail);
  });

/**
 * Serves the zip `zip` (a package of `standard`) with the stand-in LMS on 127.0.0.1:`port` (0: a
 * free one). Resolves to { url (the LMS page), folder (the unzipped package), calls (so far),
 * commits (scorm-again's, so far), close() (stops the server and removes the folder) }.
 */
export async function servePreview(
  zip: Uint8Array,
  standard: Standard,
  { port = 0, log = () => {} }: { port?: number; log?: (line: string) => void } = {},
) {
  const folder = mkdtempSync(join(tmpdir(), 'attention-lab-preview-'));
  for (const [path, data] of Object.entries(unzipSync(zip))) {
    const target = resolve(folder, 'sco', normalize(path));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, data);
  }
  const require = createRequire(import.meta.url);
  const api = standard === 'scorm12' ? 'scorm-again/scorm12/min' : 'scorm-again/scorm2004/min';
  const lmsFiles: Record<string, () => Buffer | string> = {
    '/': () => readFileSync(resolve(import.meta.dirname, '../preview/lms.html')),
    '/lms.js': () => readFileSync(resolve(import.meta.dirname, '../preview/lms.js')),
    '/scorm-again.js': () => readFileSync(require.resolve(api)),
    '/launch.json': () => {
      const cmi = launchData(standard, committed);
      log(`LMS launch (${standard}): ${JSON.stringify(cmi)}`);
      return JSON.stringify({ standard, cmi });
    },
  };
  let committed: Record<string, unknown> | undefined;
  const calls: LmsCall[] = [];
  const commits: Record<string, unknown>[] = [];

  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    try {
      if (request.method === 'POST' && path === '/commit') {
        const data = JSON.parse(await body(request)) as Record<string, unknown>;
        committed = data;
        commits.push(data);
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ result: true, errorCode: 0 }));
        return;
      }
      if (request.method === 'POST' && path === '/log') {
        for (const call of JSON.parse(await body(request)) as LmsCall[]) {
          calls.push(call);
          const shown = call.args.map((arg) => JSON.stringify(arg.length > 120 ? `${arg.slice(0, 120)}…` : arg));
          log(
            `LMS ${String(call.seq).padStart(3)} ${call.fn}(${shown.join(', ')}) -> ${JSON.stringify(call.result)}${call.error !== '0' ? ` error ${call.error}` : ''}`,
          );
        }
        response.writeHead(204).end();
        return;
      }
      if (path === '/favicon.ico') {
        response.writeHead(204).end(); // the stand-in LMS has no icon
        return;
      }
      const own = Object.hasOwn(lmsFiles, path) ? lmsFiles[path] : undefined;
      const file = own ? undefined : resolve(folder, normalize(`.${decodeURIComponent(path)}`));
      if (!own && (!file || !file.startsWith(join(folder, 'sco')))) {
        response.writeHead(404).end();
        return;
      }
      const data = own ? own() : readFileSync(file!);
      const type = own ? TYPES[extname(path === '/' ? 'x.html' : path)] : TYPES[extname(file!)];
      response.writeHead(200, { 'Content-Type': type ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
      response.end(data);
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      response.writeHead(missing ? 404 : 500).end();
      if (!missing) log(`preview: ${request.method} ${path} failed: ${(error as Error).message}`);
    }
  });
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}/`;
  return {
    url,
    folder,
    calls,
    commits,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => {
          rmSync(folder, { recursive: true, force: true });
          ok();
        });
      }),
  };
}

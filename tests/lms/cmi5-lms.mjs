// A small cmi5 LMS with its LRS, on node:http, for the tests (no cmi5 LMS is packaged): it
// serves a folder (the AU) on one origin and the LMS on another (as an LMS and its content
// usually are: the AU reaches the LRS through CORS), or both on one (sameOrigin: the LMS serves
// the AU itself; a course package's policy allows its own origin or https: endpoints, and the
// tests' LMS speaks http), and gives launch URLs whose parameters name
// a fetch URL (one token each; a second POST gets the cmi5 error JSON), the LRS endpoint, the
// learner, the registration and the AU's activity id. Before each launch it writes the
// LMS.LaunchData state document (context template with a new session id, launch mode, mastery
// score, moveOn, returnURL), as the spec has the LMS do.
//
// The LRS: /statements (POST, PUT), /activities/state (GET, PUT, POST, DELETE by stateId,
// activityId, agent and registration), /agents/profile (GET: the learner's preferences, when
// given). Every statement is checked with Learning Locker's validator (xapi-validation) and
// against the cmi5 rules the package relies on; each broken rule is kept in `violations`.
// Every request is kept in `log` (writeLog() writes it as text).
//
//   const lms = await startCmi5Lms({ roots: ['build/au'], launch: 'index.html', masteryScore: 0.5 });
//   const url = lms.launchUrl();          // a new session (new token), same registration
//   await lms.waitFor(() => lms.statements.some(...));
//   lms.violations                        // [] when every rule held
//   await lms.close();
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, normalize, resolve } from 'node:path';

const validateStatement = createRequire(import.meta.url)('xapi-validation').default;

export const CMI5_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/cmi5';
export const MOVEON_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/moveon';
export const SESSION_EXTENSION = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid';
export const MASTERY_EXTENSION = 'https://w3id.org/xapi/cmi5/context/extensions/masteryscore';
const VERBS = 'http://adlnet.gov/expapi/verbs/';
const DEFINED = ['initialized', 'terminated', 'passed', 'failed', 'completed'];
const WITH_DURATION = ['terminated', 'completed', 'passed', 'failed'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.bin': 'application/octet-stream',
  '.xml': 'application/xml; charset=utf-8',
};

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

function listen(handler) {
  const server = createServer((request, response) => {
    handler(request, response).catch((error) => {
      response.writeHead(500, { 'Content-Type': 'text/plain' });
      response.end(String(error?.stack ?? error));
    });
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

const readBody = async (request) => {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
};

/** The agent's identity for comparison: its account (cmi5 actors have one), else its mbox. */
const who = (agent) =>
  agent?.account ? `account:${agent.account.homePage}|${agent.account.name}` : `mbox:${agent?.mbox ?? ''}`;

/**
 * Starts the LMS. roots: the AU's folders (searched in order); launch: the AU's page in it; activityId: the AU's id
 * (the launch's activityId); publisherId: the AU's id in the course structure (the context
 * template's grouping activity; default activityId); masteryScore, moveOn, launchMode,
 * returnURL: what LMS.LaunchData says (launchMode may be changed per launch); preferences:
 * the learner's cmi5LearnerPreferences document (none by default); sameOrigin: the AU served by
 * the LMS's own server (its launch URLs on the LMS's origin).
 */
export async function startCmi5Lms({
  roots,
  launch = 'index.html',
  activityId = 'https://attention-lab.dev/test/course/au',
  publisherId,
  masteryScore,
  moveOn = 'CompletedOrPassed',
  launchMode = 'Normal',
  returnURL,
  preferences,
  sameOrigin = false,
} = {}) {
  const actor = {
    objectType: 'Agent',
    name: 'Ada Learner',
    account: { homePage: 'https://lms.example', name: 'ada-42' },
  };
  const registration = randomUUID();
  const log = [];
  const violations = [];
  const statements = [];
  const states = new Map();
  /** token -> session; fetch id -> { token, used } */
  const sessions = new Map();
  const fetches = new Map();
  const started = Date.now();

  const note = (line) => log.push(`${((Date.now() - started) / 1000).toFixed(3).padStart(8)} s  ${line}`);
  const violation = (rule) => {
    violations.push(rule);
    note(`VIOLATION ${rule}`);
  };
  const stateKey = (q) =>
    JSON.stringify([q.stateId, q.activityId, who(JSON.parse(q.agent ?? 'null')), q.registration ?? '']);

  /** Serves the AU's file the request names, or 404. */
  const serveFile = async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    const name = normalize(path.endsWith('/') ? `${path}index.html` : path);
    const file = [roots]
      .flat()
      .map((folder) => join(resolve(folder), name))
      .find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
    if (!file || name.includes('..')) {
      response.writeHead(404, { 'Content-Type': 'text/plain' });
      return response.end(`no ${path}`);
    }
    response.writeHead(200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Cache-Control': 'no-cache',
    });
    response.end(readFileSync(file));
  };
  const content = await listen(serveFile);
  const contentUrl = `http://127.0.0.1:${content.address().port}/`;

  /** Checks one statement the AU sent in `session` against xAPI and the cmi5 rules. */
  function check(statement, session) {
    const verb = String(statement?.verb?.id ?? '').replace(VERBS, '');
    const name = `${statement?.verb?.id ?? '?'} (${session?.sessionId ?? 'no session'})`;
    for (const warning of validateStatement(statement))
      violation(`xAPI: ${name}: ${warning.path.join('.')}: ${warning.name ?? warning.constructor?.name}`);
    if (!UUID.test(statement?.id ?? '')) violation(`cmi5 9.1: ${name} has no UUID id`);
    if (who(statement.actor) !== who(actor)) violation(`cmi5 9.2: ${name}: actor is not the launch's`);
    if (statement.actor?.objectType !== 'Agent' || !statement.actor?.account)
      violation(`cmi5 9.2: ${name}: actor is not an Agent with an account`);
    const context = statement.context ?? {};
    if (context.registration !== registration) violation(`cmi5 9.6.1: ${name}: registration is not the launch's`);
    if (context.extensions?.[SESSION_EXTENSION] !== session?.sessionId)
      violation(`cmi5 9.6.3.1: ${name}: the session id extension is not the session's`);
    const grouping = (context.contextActivities?.grouping ?? []).map((a) => a.id);
    if (!grouping.includes(publisherId ?? activityId))
      violation(`cmi5 10.2.1: ${name}: the context template's grouping activity is missing`);
    if (!statement.timestamp) violation(`cmi5 9.7: ${name} has no timestamp`);
    const categories = (context.contextActivities?.category ?? []).map((a) => a.id);
    const aboutAu = statement.object?.id === activityId;
    const defined = categories.includes(CMI5_CATEGORY);
    if (defined && !(DEFINED.includes(verb) && aboutAu))
      violation(`cmi5 7.1.3: ${name}: the cmi5 category on a statement that is not cmi5 defined`);
    if (!defined && aboutAu && DEFINED.includes(verb))
      violation(`cmi5 9.6.2.1: ${name}: a cmi5 verb about the AU without the cmi5 category`);
    if (!session) return;
    // Order within the session and the registration.
    const earlier = session.statements;
    if (earlier.length === 0 && !(defined && verb === 'initialized'))
      violation(`cmi5 9.3.1: ${name}: the session's first statement is not initialized`);
    if (session.terminated) violation(`cmi5 9.3.8: ${name} after terminated`);
    earlier.push(statement);
    if (!defined) return;
    const result = statement.result ?? {};
    const judged = 'success' in result || 'completion' in result;
    if (judged !== categories.includes(MOVEON_CATEGORY))
      violation(`cmi5 9.6.2.2: ${name}: the moveon category ${judged ? 'missing' : 'where nothing is judged'}`);
    if (WITH_DURATION.includes(verb) && !result.duration) violation(`cmi5 9.5.4: ${name} has no duration`);
    if (!['passed', 'failed'].includes(verb) && (result.score || 'success' in result))
      violation(`cmi5 9.5: ${name} carries a score or success`);
    if (verb !== 'completed' && 'completion' in result) violation(`cmi5 9.5.3: ${name} carries completion`);
    const sameVerb = earlier.filter((s) => s.verb.id === statement.verb.id && s.object?.id === activityId);
    if (sameVerb.length > 1) violation(`cmi5 9.3: ${name} twice in one session`);
    if (['passed', 'failed', 'completed'].includes(verb) && session.launchMode !== 'Normal')
      violation(`cmi5 10.2.2: ${name} in ${session.launchMode} mode`);
    const inRegistration = (v) =>
      statements.filter((s) => s.verb.id === VERBS + v && s.object?.id === activityId && s !== statement);
    if (verb === 'passed' || verb === 'failed') {
      if (earlier.some((s) => s !== statement && ['passed', 'failed'].some((v) => s.verb.id === VERBS + v)))
        violation(`cmi5 9.3: ${name}: a second judgement (passed or failed) in one session`);
      if (inRegistration('passed').length) violation(`cmi5 9.3: ${name} after passed in this registration`);
      if (typeof masteryScore === 'number') {
        if (context.extensions?.[MASTERY_EXTENSION] !== masteryScore)
          violation(`cmi5 9.6.3.2: ${name} without the masteryScore extension`);
        const scaled = result.score?.scaled;
        if (typeof scaled === 'number' && (verb === 'passed') !== scaled >= masteryScore)
          violation(
            `cmi5 9.3.${verb === 'passed' ? 4 : 5}: ${name}: scaled ${scaled} against masteryScore ${masteryScore}`,
          );
      }
      if (result.success !== (verb === 'passed')) violation(`cmi5 9.5.2: ${name}: success is ${result.success}`);
    }
    if (verb === 'completed') {
      if (inRegistration('completed').length) violation(`cmi5 9.3.3: ${name}: completed twice in this registration`);
      if (result.completion !== true) violation(`cmi5 9.5.3: ${name}: completion is not true`);
    }
    if (verb === 'terminated') session.terminated = true;
  }

  const cors = {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type, X-Experience-API-Version',
    'Access-Control-Allow-Methods': 'GET, PUT, POST, DELETE, OPTIONS',
    'Access-Control-Expose-Headers': 'X-Experience-API-Version, ETag',
  };
  const send = (response, status, body, headers = {}) => {
    response.writeHead(status, {
      ...cors,
      'X-Experience-API-Version': '1.0.3',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    });
    response.end(body === undefined ? undefined : JSON.stringify(body));
  };

  const lms = await listen(async (request, response) => {
    const url = new URL(request.url, 'http://x');
    const q = Object.fromEntries(url.searchParams);
    if (request.method === 'OPTIONS') return send(response, 204);
    const body = await readBody(request);
    const path = url.pathname;

    if (path === '/return') {
      note('GET /return (the learner is back at the LMS)');
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      return response.end('<!doctype html><title>Course</title><p id="lms-return">Back at the course.</p>');
    }

    if (path.startsWith('/fetch/')) {
      const id = path.slice('/fetch/'.length);
      const entry = fetches.get(id);
      if (request.method !== 'POST') {
        violation(`cmi5 8.2.1: ${request.method} to the fetch URL (POST only)`);
        return send(response, 405, { 'error-code': '3', 'error-text': 'POST only' });
      }
      if (!entry) return send(response, 400, { 'error-code': '2', 'error-text': 'no such fetch URL' });
      if (entry.used) {
        violation('cmi5 8.2.3: the fetch URL asked a second time');
        note(`POST /fetch/${id} -> 400 error-code 1 (already used)`);
        return send(response, 400, {
          'error-code': '1',
          'error-text': 'The authorization token has already been returned.',
        });
      }
      entry.used = true;
      note(`POST /fetch/${id} -> 200 auth-token (session ${sessions.get(entry.token).sessionId})`);
      return send(response, 200, { 'auth-token': entry.token });
    }

    if (sameOrigin && !path.startsWith('/lrs/')) return serveFile(request, response);

    // The LRS: every request needs the version header and a session's token.
    if (request.headers['x-experience-api-version'] !== '1.0.3')
      violation(`xAPI: ${request.method} ${path} without X-Experience-API-Version 1.0.3`);
    const auth = /^Basic (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const session = auth && sessions.get(auth);
    if (!session) {
      violation(`cmi5 8.2.2: ${request.method} ${path} without a session's token`);
      return send(response, 401, { error: 'no valid token' });
    }

    if (path === '/lrs/statements' && (request.method === 'POST' || request.method === 'PUT')) {
      let parsed;
      try {
        parsed = JSON.parse(body);
      } catch {
        violation(`xAPI: ${request.method} /statements with a body that is not JSON`);
        return send(response, 400, { error: 'not JSON' });
      }
      const list = [parsed].flat();
      if (request.method === 'PUT' && list[0]) list[0].id ??= q.statementId;
      for (const statement of list) {
        check(statement, session);
        statement.stored = new Date().toISOString();
        statements.push(statement);
        const verb = String(statement.verb?.id ?? '').replace(VERBS, '');
        const r = statement.result;
        const facts = [
          r?.score ? `score ${r.score.raw}/${r.score.max} (${r.score.scaled})` : '',
          r && 'success' in r ? `success ${r.success}` : '',
          r?.completion ? 'completion' : '',
          r?.response !== undefined ? `response ${JSON.stringify(r.response)}` : '',
          r?.duration ? `duration ${r.duration}` : '',
          statement.context?.contextActivities?.category?.some((a) => a.id === CMI5_CATEGORY)
            ? 'cmi5 defined'
            : 'cmi5 allowed',
        ].filter(Boolean);
        note(`${request.method} /statements ${verb} ${statement.object?.id ?? ''}  ${facts.join(', ')}`);
      }
      return send(
        response,
        200,
        list.map((s) => s.id),
      );
    }

    if (path === '/lrs/activities/state') {
      if (!q.stateId || !q.activityId || !q.agent) return send(response, 400, { error: 'stateId, activityId, agent' });
      if (who(JSON.parse(q.agent)) !== who(actor)) violation(`cmi5 10: state ${q.stateId} for another agent`);
      if (q.registration !== registration) violation(`cmi5 10: state ${q.stateId} for another registration`);
      const key = stateKey(q);
      const short = `${request.method} /activities/state ${q.stateId}`;
      if (request.method === 'GET') {
        const doc = states.get(key);
        note(`${short} -> ${doc === undefined ? '404' : `200 ${JSON.stringify(doc).slice(0, 160)}`}`);
        return doc === undefined ? send(response, 404, { error: 'no document' }) : send(response, 200, doc);
      }
      if (q.stateId === 'LMS.LaunchData') {
        violation(`cmi5 10.2.1: the AU ${request.method} LMS.LaunchData`);
        return send(response, 403, { error: 'LMS.LaunchData is the LMS’s' });
      }
      if (request.method === 'DELETE') states.delete(key);
      else {
        const doc = JSON.parse(body);
        states.set(key, request.method === 'POST' ? { ...states.get(key), ...doc } : doc);
      }
      note(`${short} -> 204 ${body.slice(0, 160)}`);
      return send(response, 204);
    }

    if (path === '/lrs/agents/profile' && request.method === 'GET') {
      note(`GET /agents/profile ${q.profileId} -> ${preferences ? 200 : 404}`);
      return preferences ? send(response, 200, preferences) : send(response, 404, { error: 'no document' });
    }

    note(`${request.method} ${path} -> 404`);
    return send(response, 404, { error: `no ${path}` });
  });
  const lmsUrl = `http://127.0.0.1:${lms.address().port}/`;
  const auUrl = sameOrigin ? lmsUrl : contentUrl;

  /** A new session of the attempt: its token, session id and LMS.LaunchData; resolves to the launch URL. */
  function launchUrl({ mode = launchMode } = {}) {
    const token = Buffer.from(`${randomUUID()}:${randomUUID()}`).toString('base64');
    const fetchId = randomUUID();
    const sessionId = randomUUID();
    sessions.set(token, { token, sessionId, launchMode: mode, statements: [], terminated: false });
    fetches.set(fetchId, { token, used: false });
    const launchData = {
      contextTemplate: {
        contextActivities: { grouping: [{ objectType: 'Activity', id: publisherId ?? activityId }] },
        extensions: { [SESSION_EXTENSION]: sessionId },
      },
      launchMode: mode,
      moveOn,
      ...(typeof masteryScore === 'number' ? { masteryScore } : {}),
      ...(returnURL ? { returnURL: new URL(returnURL, lmsUrl).href } : {}),
    };
    states.set(
      stateKey({ stateId: 'LMS.LaunchData', activityId, agent: JSON.stringify(actor), registration }),
      launchData,
    );
    note(`launch: session ${sessionId}, ${mode} mode, LMS.LaunchData written`);
    const query = new URLSearchParams({
      endpoint: `${lmsUrl}lrs/`,
      fetch: `${lmsUrl}fetch/${fetchId}`,
      actor: JSON.stringify(actor),
      registration,
      activityId,
    });
    return `${auUrl}${launch}?${query}`;
  }

  return {
    actor,
    registration,
    activityId,
    contentUrl: auUrl,
    lmsUrl,
    statements,
    violations,
    log,
    launchUrl,
    /** The documents kept for (stateId) with the launch's activity, learner and registration. */
    state(stateId) {
      return states.get(stateKey({ stateId, activityId, agent: JSON.stringify(actor), registration }));
    },
    /** The AU's statements whose verb ends in `verb`. */
    withVerb(verb) {
      return statements.filter((s) => s.verb?.id?.endsWith(`/${verb}`));
    },
    /** Resolves once fn() is truthy (checked every 25 ms), to its value; throws after `timeout` ms. */
    async waitFor(fn, what, timeout = 15000) {
      const until = Date.now() + timeout;
      for (;;) {
        const value = fn();
        if (value) return value;
        if (Date.now() > until) throw new Error(`the LMS waited ${timeout} ms for ${what}\n${log.join('\n')}`);
        await sleep(25);
      }
    },
    writeLog(file) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${log.join('\n')}\n`);
    },
    async close() {
      for (const server of [content, lms]) {
        server.closeAllConnections();
        await new Promise((ok) => server.close(ok));
      }
    },
  };
}

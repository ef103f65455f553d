// The cue-task training Worker of the built site (dist/assets/training-worker-*.js), driven
// directly in Debian's Chromium under the strict CSP: malformed requests get an error reply
// and change nothing, a run can be cancelled at any moment (even while the core is still
// loading, while paused, or by a newer run), and cancelling frees the run's heap blocks; a
// probe of a trained model (the recorded run's shipped weights, or the latest live run's) is
// answered with the native command's numbers, bit for bit; a run of one model (as each of the
// trainer's two Workers makes) gives the numbers of the run of both. Run after `npm run build`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { closeSite, openSite } from '../support/chromium.mjs';

const root = resolve(import.meta.dirname, '../..');
const workerFile = readdirSync(resolve(root, 'dist/assets')).find((f) => /^training-worker-.*\.js$/.test(f));
let server, browser;

before(async () => {
  assert.ok(workerFile, 'the build has a training Worker');
  ({ server, browser } = await openSite());
});
after(() => closeSite({ server, browser }));

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

// The requests and replies cross to and from the page as JSON, where NaN, ±Infinity and typed
// arrays have no form of their own: they go tagged ({ __number: 'NaN' }, { __typed: 'Float32Array',
// values }) and are rebuilt on the other side. (A Map crosses as {}, its own JSON.)
const tag = (key, value) =>
  typeof value === 'number' && !Number.isFinite(value)
    ? { __number: String(value) }
    : ArrayBuffer.isView(value)
      ? { __typed: value.constructor.name, values: Array.from(value) }
      : value;
const untag = (key, value) =>
  value?.__number !== undefined
    ? Number(value.__number)
    : value?.__typed !== undefined
      ? new globalThis[value.__typed](value.values)
      : value;

/** A page of the site with a fresh Worker; its replies are collected in window.replies. */
async function openWorker() {
  const page = await browser.open(server.url + 'embed.html?widget=attn-flowchart', { width: 1280, height: 720 });
  const errors = page.engineProblems;
  await page.run((url) => {
    window.replies = [];
    window.worker = new Worker(url, { type: 'module' });
    window.worker.onmessage = (e) => window.replies.push(e.data);
    window.worker.onerror = (e) => window.replies.push({ type: 'worker-error', message: e.message });
  }, 'assets/' + workerFile);
  const w = {
    page,
    errors,
    send: (...messages) =>
      page.run(
        (json) => {
          const untag = (key, value) =>
            value?.__number !== undefined
              ? Number(value.__number)
              : value?.__typed !== undefined
                ? new globalThis[value.__typed](value.values)
                : value;
          JSON.parse(json, untag).forEach((m) => window.worker.postMessage(m));
        },
        JSON.stringify(messages, tag),
      ),
    replies: async () =>
      JSON.parse(
        await page.run(() =>
          JSON.stringify(window.replies, (key, value) =>
            typeof value === 'number' && !Number.isFinite(value)
              ? { __number: String(value) }
              : ArrayBuffer.isView(value)
                ? { __typed: value.constructor.name, values: Array.from(value) }
                : value,
          ),
        ),
        untag,
      ),
    count: () => page.run(() => window.replies.length),
    /**
     * The first reply from index `since` on that has every field of `match` (or of one of a
     * list of them). Plain data, not a function: the page's CSP forbids compiling strings.
     */
    waitFor: async (match, since = 0, timeout = 60000) => {
      const found = await page.waitFor(
        ([patterns, from]) => {
          const reply = window.replies
            .slice(from)
            .find((r) => patterns.some((p) => r && Object.entries(p).every(([k, v]) => r[k] === v)));
          return (
            reply &&
            JSON.stringify(reply, (key, value) =>
              typeof value === 'number' && !Number.isFinite(value)
                ? { __number: String(value) }
                : ArrayBuffer.isView(value)
                  ? { __typed: value.constructor.name, values: Array.from(value) }
                  : value,
            )
          );
        },
        [[match].flat(), since],
        { timeout },
      );
      return JSON.parse(found, untag);
    },
    memory: async () => {
      const since = await w.count();
      await w.send({ type: 'memory' });
      return w.waitFor({ type: 'memory' }, since);
    },
    /** Starts run `runId` (of `models`, by default both) and resolves once it has finished them, with its replies. */
    trainToEnd: async (runId, epochs, models) => {
      const since = await w.count();
      await w.send({ type: 'train', runId, config: { seed: 3, epochs }, ...(models ? { models } : {}) });
      await page.waitFor(
        ([id, from, n]) =>
          window.replies.slice(from).filter((r) => r.type === 'finished' && r.runId === id).length === n,
        [runId, since, models?.length ?? 2],
        { timeout: 120000 },
      );
      return (await w.replies()).slice(since).filter((r) => r.runId === runId);
    },
  };
  await w.waitFor({ type: 'ready' });
  return w;
}

// None of these is a request the Worker acts on; each must get exactly one error reply.
const MALFORMED = [
  null,
  5,
  'train',
  true,
  [],
  [{ type: 'train' }],
  {},
  { type: 'bogus' },
  { type: 7 },
  { type: 'x'.repeat(10000) },
  { type: 'train' },
  { type: 'train', runId: 1 },
  { type: 'train', runId: 1, config: 'seed 3' },
  { type: 'train', runId: 1, config: [3, 1] },
  { type: 'train', runId: -1, config: { epochs: 1 } },
  { type: 'train', runId: 1.5, config: { epochs: 1 } },
  { type: 'train', runId: 1, seed: 0, epochs: 1 },
  { type: 'train', runId: 1, config: { epochs: 1 }, models: [] },
  { type: 'train', runId: 1, config: { epochs: 1 }, models: [3] },
  { type: 'train', runId: 1, config: { epochs: 1 }, models: [2, 2] },
  { type: 'train', runId: 1, config: { epochs: 1 }, models: 2 },
  { type: 'train', runId: 1, config: { epochs: 1 }, models: ['1'] },
  new Uint8Array(8),
  new Map([['type', 'train']]),
  { type: 'probe' },
  { type: 'probe', requestId: 1 },
  { type: 'probe', requestId: -1, target: { source: 'recorded', blocks: 2 }, tokens: [] },
  { type: 'probe', requestId: 1, target: { source: 'memory', blocks: 2 }, tokens: [] },
  { type: 'probe', requestId: 1, target: { source: 'recorded', blocks: 3 }, tokens: [] },
  { type: 'probe', requestId: 1, target: { source: 'recorded', blocks: 2 }, tokens: '3 1 7' },
  { type: 'probe', requestId: 1, target: { source: 'recorded', blocks: 2 }, tokens: ['3'] },
];

// Well-formed requests with a config the core refuses: each is a run (it replaces any other,
// so they are sent one at a time) that ends in an error naming the option.
const BAD_CONFIGS = [
  [{ seed: -1, epochs: 1 }, /seed must be a whole number/],
  [{ seed: 0.5, epochs: 1 }, /seed must be a whole number/],
  [{ seed: 2 ** 53, epochs: 1 }, /seed must be a whole number/],
  [{ epochs: 0 }, /^epochs must be a whole number in \[1, 1000\], got 0$/],
  [{ epochs: 1001 }, /^epochs must be a whole number in \[1, 1000\], got 1001$/],
  [{ epochs: NaN }, /epochs must be a whole number, got NaN/],
  [{ epochs: '3' }, /epochs must be a whole number, got "3"/],
  [{ seed: '0', epochs: 1 }, /seed must be a whole number/],
  [{ epochs: 1e300 }, /epochs must be a whole number of at most 32 bits/],
  [{ epochs: Infinity }, /epochs must be a whole number/],
  [{ epochz: 1 }, /epochz is not an option/],
  [{ heads: 3 }, /^heads must divide dModel = 32/],
];

test('malformed requests are answered with an error message, and the Worker keeps working', async () => {
  const w = await openWorker();
  const since = await w.count();
  await w.send(...MALFORMED);
  await w.page.waitFor(
    ([from, n]) => window.replies.slice(from).filter((r) => r.type === 'error').length >= n,
    [since, MALFORMED.length],
    { timeout: 30000 },
  );
  await sleep(200);
  const replies = (await w.replies()).slice(since);
  assert.equal(replies.length, MALFORMED.length, 'one reply per malformed request, nothing else');
  for (const [i, reply] of replies.entries()) {
    assert.equal(reply.type, 'error', `request ${i}`);
    assert.equal(typeof reply.message, 'string');
    assert.ok(
      reply.message.length > 0 && reply.message.length < 200,
      `request ${i}: a short message, got ${reply.message.length} characters`,
    );
  }
  for (const [i, [config, message]] of BAD_CONFIGS.entries()) {
    const from = await w.count();
    await w.send({ type: 'train', runId: 100 + i, config });
    const reply = await w.waitFor([{ type: 'error' }, { type: 'started' }], from);
    assert.equal(reply.type, 'error', JSON.stringify(config));
    assert.equal(reply.runId, 100 + i);
    assert.match(reply.message, message);
  }
  // Nothing started, and a good request still works.
  const memory = await w.memory();
  assert.equal(memory.training, false);
  await w.trainToEnd(11, 1);
  const all = await w.replies();
  assert.ok(all.some((r) => r.type === 'started' && r.runId === 11));
  assert.ok(!all.some((r) => r.type === 'worker-error'), 'the Worker never failed');
  // Malformed requests during a run do not disturb it.
  const during = await w.count();
  await w.send(
    { type: 'train', runId: 12, config: { seed: 3, epochs: 1 } },
    null,
    { type: 'train', runId: 13 },
    { type: 'pause', extra: 1 },
    { type: 'resume' },
  );
  await w.page.waitFor(
    (from) => window.replies.slice(from).filter((r) => r.type === 'finished' && r.runId === 12).length === 2,
    during,
    { timeout: 120000 },
  );
  const duringReplies = (await w.replies()).slice(during);
  assert.equal(duringReplies.filter((r) => r.type === 'error').length, 2);
  assert.ok(!duringReplies.some((r) => r.runId === 13));
  assert.deepEqual(w.errors, []);
  await w.page.close();
});

// Back at the idle figures: the same heap, the same bytes in use within 64 (Eigen allocates
// aligned, and such a block's size depends on the address it lands at).
function assertReleased(now, idle, what) {
  assert.equal(now.training, false, what);
  assert.equal(now.heapBytes, idle.heapBytes, `${what}: heap size`);
  assert.ok(
    Math.abs(now.usedBytes - idle.usedBytes) <= 64,
    `${what}: bytes in use ${idle.usedBytes} -> ${now.usedBytes}`,
  );
}

test('a run can be cancelled at any time, and cancelling frees its memory', async () => {
  const w = await openWorker();
  // Cancelled while the core is still loading (the first request of a fresh Worker).
  let since = await w.count();
  await w.send({ type: 'train', runId: 1, config: { seed: 3, epochs: 1 } }, { type: 'cancel' });
  const first = await w.waitFor([{ type: 'cancelled' }, { type: 'finished' }, { type: 'error' }], since);
  assert.deepEqual(first, { type: 'cancelled', runId: 1 });

  // The baseline: a finished run leaves the Worker's heap at its working size.
  await w.trainToEnd(2, 1);
  const idle = await w.memory();
  assert.equal(idle.training, false);
  assert.ok(idle.heapBytes > 0 && idle.usedBytes > 0);

  // Cancelled in the middle of a long run.
  since = await w.count();
  await w.send({ type: 'train', runId: 3, config: { seed: 3, epochs: 30 } });
  await w.waitFor({ type: 'progress', runId: 3 }, since);
  const busy = await w.memory();
  assert.equal(busy.training, true);
  assert.ok(
    busy.usedBytes > idle.usedBytes + 100000,
    `a run holds heap memory: ${busy.usedBytes} vs ${idle.usedBytes} bytes`,
  );
  await w.send({ type: 'cancel' });
  await w.waitFor({ type: 'cancelled', runId: 3 }, since);
  let now = await w.memory();
  assertReleased(now, idle, 'the cancelled run released what it held');

  // Cancelled in the same breath as it was asked for.
  since = await w.count();
  await w.send({ type: 'train', runId: 4, config: { seed: 3, epochs: 30 } }, { type: 'cancel' });
  await w.waitFor({ type: 'cancelled', runId: 4 }, since);

  // Cancelled while paused: no progress while paused, then the cancel is honoured.
  since = await w.count();
  await w.send({ type: 'train', runId: 5, config: { seed: 3, epochs: 30 } });
  await w.waitFor({ type: 'progress', runId: 5 }, since);
  await w.send({ type: 'pause' });
  await sleep(300);
  const paused = await w.count();
  await sleep(500);
  assert.equal(await w.count(), paused, 'nothing happens while paused');
  await w.send({ type: 'cancel' });
  await w.waitFor({ type: 'cancelled', runId: 5 }, since);

  // Replaced by a newer run, which then runs to its end.
  since = await w.count();
  await w.send({ type: 'train', runId: 6, config: { seed: 3, epochs: 30 } });
  await w.waitFor({ type: 'progress', runId: 6 }, since);
  await w.trainToEnd(7, 1);
  const replies = (await w.replies()).slice(since);
  assert.ok(
    replies.some((r) => r.type === 'cancelled' && r.runId === 6),
    'the older run was cancelled',
  );
  assert.ok(!replies.some((r) => r.type === 'finished' && r.runId === 6));

  // A cancel with nothing running changes nothing.
  await w.send({ type: 'cancel' }, { type: 'cancel' }, { type: 'pause' }, { type: 'resume' });
  now = await w.memory();
  assertReleased(now, idle, 'every run released what it held');
  assert.ok(!(await w.replies()).some((r) => r.type === 'error' || r.type === 'worker-error'));
  assert.deepEqual(w.errors, []);
  await w.page.close();
});

const cli = resolve(root, 'build/cli/attention-lab');
const CUE = 7;
const TASK = [3, 1, CUE, 5, 0, 6, 2, 2, 4, CUE]; // the answer is 5

/** `attention-lab probe --json` on a weights file, with the model's flags. */
function nativeProbe(weights, flags, tokens) {
  return JSON.parse(
    execFileSync(cli, ['probe', ...flags, '--weights', weights, '--tokens', tokens.join(','), '--json'], {
      encoding: 'utf8',
    }),
  );
}

/** A probe reply's numbers as plain arrays, to compare with the command's JSON. */
const plain = (probe) => ({
  prediction: probe.prediction,
  expected: probe.expected,
  probabilities: Array.from(probe.probabilities),
  attention: probe.attention.map((block) => block.map((w) => Array.from(w))),
});

test("probes: the recorded run's shipped weights and a live run's answer with the native command's numbers; bad probes are named", async () => {
  const w = await openWorker();
  const ask = async (requestId, target, tokens) => {
    const since = await w.count();
    await w.send({ type: 'probe', requestId, target, tokens });
    return w.waitFor(
      [
        { type: 'probe', requestId },
        { type: 'error', requestId },
      ],
      since,
    );
  };
  // Nothing live to probe before a run has finished.
  const early = await ask(1, { source: 'live', blocks: 2 }, TASK);
  assert.equal(early.type, 'error');
  assert.match(early.message, /no finished live run to probe yet/);

  // The recorded models: the weights the build shipped, loaded on the first probe.
  for (const blocks of [1, 2]) {
    const reply = await ask(10 + blocks, { source: 'recorded', blocks }, TASK);
    assert.equal(reply.type, 'probe', reply.message);
    assert.deepEqual(reply.target, { source: 'recorded', blocks });
    assert.ok(reply.forwardMs >= 0 && reply.forwardMs < 1000);
    const native = nativeProbe(
      resolve(root, `web/src/generated/cue-${blocks}block.weights.bin`),
      ['--blocks', String(blocks)],
      TASK,
    );
    assert.deepEqual(plain(reply.probe), plain(native), `${blocks} block(s)`);
  }
  assert.equal(
    (await ask(13, { source: 'recorded', blocks: 2 }, TASK)).probe.prediction,
    5,
    'the recorded 2-block model answers',
  );
  const bad = await ask(14, { source: 'recorded', blocks: 2 }, [1, 2, 3]);
  assert.equal(bad.type, 'error');
  assert.match(bad.message, /^tokens must hold 10 token ids \(the sequence length\), got 3$/);

  // A live run, once finished, answers too: the same weights as the native run of its config.
  await w.trainToEnd(20, 2);
  const dir = mkdtempSync(join(tmpdir(), 'attn-probe-'));
  try {
    for (const blocks of [1, 2]) {
      const weights = join(dir, `${blocks}.bin`);
      execFileSync(cli, ['cue', '--seed', '3', '--epochs', '2', '--blocks', String(blocks), '--save-weights', weights]);
      const reply = await ask(20 + blocks, { source: 'live', blocks }, TASK);
      assert.equal(reply.type, 'probe', reply.message);
      assert.deepEqual(
        plain(reply.probe),
        plain(nativeProbe(weights, ['--blocks', String(blocks)], TASK)),
        `live, ${blocks} block(s)`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true });
  }
  assert.ok(!(await w.replies()).some((r) => r.type === 'worker-error'));
  assert.deepEqual(w.errors, []);
  await w.page.close();
});

test('a run trains the models it names: each alone gives the records of the run of both; a Worker probes only the live models it trained, and forgets them when its next run starts', async () => {
  const w = await openWorker();
  const epochs = (replies, model) =>
    replies.filter((r) => r.type === 'epoch' && r.model === model).map((r) => r.record);
  const both = await w.trainToEnd(1, 2);
  const runs = { 1: await w.trainToEnd(2, 2, [1]), 2: await w.trainToEnd(3, 2, [2]) };
  for (const model of [1, 2]) {
    const alone = runs[model];
    assert.deepEqual(
      [...new Set(alone.filter((r) => 'model' in r).map((r) => r.model))],
      [model],
      `run of model ${model}: replies name only it`,
    );
    assert.equal(epochs(alone, model).length, 2);
    assert.deepEqual(
      epochs(alone, model),
      epochs(both, model),
      `model ${model} alone: the same epoch records as beside the other`,
    );
    const finished = (replies) => ({ ...replies.find((r) => r.type === 'finished' && r.model === model), runId: 0 });
    assert.deepEqual(finished(alone), finished(both), `model ${model}: the same analysis`);
  }
  const ask = async (requestId, blocks) => {
    const since = await w.count();
    await w.send({ type: 'probe', requestId, target: { source: 'live', blocks }, tokens: TASK });
    return w.waitFor(
      [
        { type: 'probe', requestId },
        { type: 'error', requestId },
      ],
      since,
    );
  };
  // The latest run trained the 2-block model only.
  assert.equal((await ask(1, 2)).type, 'probe');
  const other = await ask(2, 1);
  assert.equal(other.type, 'error');
  assert.match(other.message, /no finished live run to probe yet/);
  // A new run starts: its Worker no longer answers from the one before.
  const since = await w.count();
  await w.send({ type: 'train', runId: 4, config: { seed: 3, epochs: 30 }, models: [2] });
  const during = await ask(3, 2);
  assert.equal(during.type, 'error', 'the previous run is forgotten once the next starts');
  await w.send({ type: 'cancel' });
  await w.waitFor({ type: 'cancelled', runId: 4 }, since);
  assert.ok(!(await w.replies()).some((r) => r.type === 'worker-error'));
  assert.deepEqual(w.errors, []);
  await w.page.close();
});

// The training Worker's request check (web/src/worker/training-protocol.ts), for probes and
// interventions: a well-formed request comes back as the request the Worker acts on; anything
// else as {error} naming what is wrong, so the Worker changes nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { parseRequest } from '../../web/src/worker/training-protocol.ts';

const target = { source: 'recorded', blocks: 2 };
const tokens = [3, 1, 7, 5, 0, 6, 2, 2, 4, 7];

test("an intervention request is read as the Worker's request: its target, config and lists", () => {
  assert.deepEqual(
    parseRequest({
      type: 'intervene',
      requestId: 4,
      target,
      config: { action: 'patch', block: 1, head: 0 },
      inputs: { tokens, positions: [3] },
      wasmUrl: 'https://example.com/a.wasm',
    }),
    {
      type: 'intervene',
      requestId: 4,
      target,
      config: { action: 'patch', block: 1, head: 0 },
      inputs: { tokens, positions: [3] },
      wasmUrl: 'https://example.com/a.wasm',
    },
  );
  // Empty config and lists: the core's defaults; extra fields of the target are dropped.
  assert.deepEqual(
    parseRequest({ type: 'intervene', requestId: 0, target: { ...target, extra: 1 }, config: {}, inputs: {} }),
    { type: 'intervene', requestId: 0, target, config: {}, inputs: {} },
  );
});

test('a malformed intervention request is an error that names what is wrong', () => {
  const good = { type: 'intervene', requestId: 1, target, config: {}, inputs: { tokens } };
  const cases = [
    [{ requestId: -1 }, /^intervene: requestId must be a whole number$/],
    [{ requestId: '1' }, /^intervene: requestId must be a whole number$/],
    [{ target: { source: 'elsewhere', blocks: 2 } }, /^intervene: target must be/],
    [{ target: { source: 'live', blocks: 3 } }, /^intervene: target must be/],
    [{ config: null }, /^intervene: config must be an object of intervention options$/],
    [{ config: [] }, /^intervene: config must be an object/],
    [
      { config: { action: 'knock-out', colour: 'red' } },
      /^intervene: config has no option "colour" \(options: action, ablation/,
    ],
    [{ inputs: undefined }, /^intervene: inputs must be an object of lists/],
    [{ inputs: { tokens, weights: [1] } }, /^intervene: inputs has no list "weights"/],
    [{ inputs: { tokens: 'abc' } }, /^intervene: inputs\.tokens must be an array of at most 4096 numbers$/],
    [{ inputs: { positions: [1, '2'] } }, /^intervene: inputs\.positions must be an array/],
    [{ inputs: { corrupted: new Array(4097).fill(0) } }, /^intervene: inputs\.corrupted must be an array/],
    [{ wasmUrl: 'file:///x.wasm' }, /^intervene: wasmUrl must be an http\(s\) or blob: address$/],
  ];
  for (const [change, message] of cases) {
    const parsed = parseRequest({ ...good, ...change });
    assert.ok('error' in parsed, JSON.stringify(change));
    assert.match(parsed.error, message);
  }
});

test('probes are checked as before, with the same messages', () => {
  assert.deepEqual(parseRequest({ type: 'probe', requestId: 2, target, tokens }), {
    type: 'probe',
    requestId: 2,
    target,
    tokens,
  });
  assert.deepEqual(parseRequest({ type: 'probe', requestId: 2, target, tokens: ['a'] }), {
    error: 'probe: tokens must be an array of token ids',
  });
  assert.deepEqual(parseRequest({ type: 'probe', requestId: 2, target: null, tokens }), {
    error: 'probe: target must be { source: "recorded" or "live", blocks: 1 or 2 }',
  });
});

test("a probe or an intervention carries the addresses of the core's .wasm and the recorded weights, each checked", () => {
  const weightsUrl = 'https://course.example.org/assets/cue-2block.weights-x1.bin';
  assert.deepEqual(parseRequest({ type: 'probe', requestId: 3, target, tokens, weightsUrl }), {
    type: 'probe',
    requestId: 3,
    target,
    tokens,
    weightsUrl,
  });
  assert.deepEqual(
    parseRequest({ type: 'intervene', requestId: 3, target, config: {}, inputs: {}, weightsUrl: 'blob:x' }),
    { type: 'intervene', requestId: 3, target, config: {}, inputs: {}, weightsUrl: 'blob:x' },
  );
  for (const [type, extra] of [
    ['probe', { tokens }],
    ['intervene', { config: {}, inputs: {} }],
  ])
    assert.deepEqual(
      parseRequest({ type, requestId: 3, target, ...extra, weightsUrl: 'file:///cue-2block.weights.bin' }),
      { error: `${type}: weightsUrl must be an http(s) or blob: address` },
    );
});

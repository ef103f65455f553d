// Readers' settings in the URL hash: entries under a widget's state-key, every other entry kept.
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { WRITE_GAP_MS, flushState, readState, writeState } from '../../web/src/widgets/element/hash-state.ts';

// The two browser globals the module uses: location.hash and history.replaceState.
let replaced;
beforeEach(() => {
  flushState(); // what a test before left waiting, written before the globals are replaced
  replaced = [];
  globalThis.location = { hash: '' };
  globalThis.history = {
    replaceState(_state, _title, url) {
      replaced.push(url);
      globalThis.location.hash = url;
    },
  };
});

test('readState: only the entries under the key, without the key', () => {
  location.hash = '#lookup.q=0.40,1.20&table.draws=500&lookup.scale=on';
  assert.deepEqual(readState('lookup'), { q: '0.40,1.20', scale: 'on' });
  assert.deepEqual(readState('table'), { draws: '500' });
  // "look" is not "lookup": the key ends at its dot
  assert.deepEqual(readState('look'), {});
  location.hash = '';
  assert.deepEqual(readState('lookup'), {});
});

test("writeState: sets the key's entries in place, keeps the others, writes commas as commas", () => {
  location.hash = '#table.draws=500&lookup.q=0.10,0.20';
  writeState('lookup', { q: '0.40,1.20', scale: 'off' });
  assert.deepEqual(replaced, ['#table.draws=500&lookup.q=0.40,1.20&lookup.scale=off']);
  assert.deepEqual(readState('table'), { draws: '500' });
  assert.deepEqual(readState('lookup'), { q: '0.40,1.20', scale: 'off' });
});

test('writeState: values that need escaping come back as written', () => {
  writeState('quiz', { answer: 'a&b=c #1' });
  assert.deepEqual(readState('quiz'), { answer: 'a&b=c #1' });
});

test('writeState: a burst of writes rewrites the hash at once, then at most once per gap, ending with the latest values', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: Date.now() + 60_000 }); // a gap after any earlier write
  location.hash = '#table.draws=500';
  // 30 steps of a drag, 16 ms apart (one a frame): 480 ms in all.
  for (let step = 1; step <= 30; step++) {
    writeState('lookup', { q: `${step}.00,0.00` });
    assert.deepEqual(readState('lookup'), { q: `${step}.00,0.00` }, 'a value waiting to be written reads back');
    t.mock.timers.tick(16);
  }
  t.mock.timers.tick(WRITE_GAP_MS);
  assert.ok(replaced.length >= 2 && replaced.length <= Math.ceil(480 / WRITE_GAP_MS) + 1, `${replaced.length} writes`);
  assert.equal(replaced[0], '#table.draws=500&lookup.q=1.00,0.00', 'the first change is written at once');
  assert.equal(replaced.at(-1), '#table.draws=500&lookup.q=30.00,0.00', 'the last change is written');
  // Quiet for a gap: the next change is written at once again.
  t.mock.timers.tick(WRITE_GAP_MS);
  writeState('lookup', { q: '0.50,0.50' });
  assert.equal(location.hash, '#table.draws=500&lookup.q=0.50,0.50');
});

test('flushState: writes what waits now, and nothing when nothing waits', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: Date.now() + 120_000 }); // after the test above's mocked writes
  writeState('lookup', { q: '1.00,1.00' });
  writeState('lookup', { scale: 'off' });
  assert.equal(replaced.length, 1, 'the second write waits for the gap');
  flushState();
  assert.deepEqual(replaced, ['#lookup.q=1.00,1.00', '#lookup.q=1.00,1.00&lookup.scale=off']);
  flushState();
  assert.equal(replaced.length, 2);
});

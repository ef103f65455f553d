// Readers' settings in the URL hash: entries under a widget's state-key, every other entry kept.
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { readState, writeState } from '../../web/src/widgets/element/hash-state.ts';

// The two browser globals the module uses: location.hash and history.replaceState.
let replaced;
beforeEach(() => {
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

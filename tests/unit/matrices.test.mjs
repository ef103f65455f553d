// The facade's plain data, made without a core: matrices and masks from the forms a caller writes,
// with errors that name the argument.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { knowElementLimit, mat, maskMat, row } from '../../web/src/core/matrices.ts';

test('mat: flat row-major values, nested rows, or one number for all; copied to float32', () => {
  assert.deepEqual(mat(2, 3), { rows: 2, cols: 3, data: new Float32Array(6) });
  assert.deepEqual([...mat(2, 2, 0.5).data], [0.5, 0.5, 0.5, 0.5]);
  const nested = mat(2, 2, [
    [1, 2],
    [3, 4],
  ]);
  assert.deepEqual([...nested.data], [1, 2, 3, 4]);
  assert.deepEqual([...mat(2, 2, [1, 2, 3, 4]).data], [1, 2, 3, 4]);
  assert.equal(mat(1, 1, [0.1]).data[0], Math.fround(0.1));
  const source = new Float32Array([1, 2]);
  const copy = mat(1, 2, source);
  source[0] = 9;
  assert.equal(copy.data[0], 1);
});

test('mat: a wrong shape or value is named', () => {
  assert.throws(() => mat(2, 2, [1, 2, 3]), { message: 'values must have rows * cols = 4 values, got 3' });
  assert.throws(() => mat(2, 2, [[1, 2]]), { message: 'values must have 2 rows, got 1' });
  assert.throws(() => mat(2, 2, [[1, 2], [3]]), {
    message: 'values[1] must be an array of 2 numbers, got an array of length 1',
  });
  assert.throws(() => mat(1, 2, [1, '2']), { message: 'values must hold numbers, got "2" at index 1' });
  assert.throws(() => mat(-1, 2), { message: 'rows must be a whole number between 0 and 2147483647, got -1' });
  assert.throws(() => mat(1.5, 2), { message: 'rows must be a whole number between 0 and 2147483647, got 1.5' });
  assert.throws(() => mat(1, 2, 'ab'), { message: 'values must be an array, a typed array or a number, got "ab"' });
});

test('maskMat: true or nonzero may attend; anything else is named', () => {
  const mask = maskMat(2, 2, [
    [true, false],
    [1, 0],
  ]);
  assert.deepEqual(mask, { rows: 2, cols: 2, data: Uint8Array.from([1, 0, 1, 0]) });
  assert.deepEqual([...maskMat(1, 3, [2, 0, -1]).data], [1, 0, 1]);
  assert.throws(() => maskMat(1, 2, [true, 'no']), {
    message: 'values must hold numbers or booleans, got "no" at index 1',
  });
});

test('row: a copy of one row; an index out of range is named', () => {
  const m = mat(2, 2, [
    [1, 2],
    [3, 4],
  ]);
  const second = row(m, 1);
  assert.deepEqual([...second], [3, 4]);
  second[0] = 0;
  assert.equal(m.data[2], 3);
  assert.throws(() => row(m, 2), { message: 'i must be a whole number between 0 and 1, got 2' });
});

test('once a core has loaded, its element limit holds for mat() and maskMat()', () => {
  assert.equal(mat(4, 4).data.length, 16);
  knowElementLimit(10);
  assert.throws(() => mat(4, 4), {
    message: 'rows would make a (4, 4) matrix of 16 values, more than the 10 allowed',
    code: 'too-many-elements',
    values: { max: 10, got: 16 },
  });
  assert.throws(() => maskMat(1, 11, new Array(11).fill(1)), {
    message: 'rows would make a (1, 11) mask of 11 values, more than the 10 allowed',
  });
  assert.equal(mat(2, 5).data.length, 10);
});

// Loads the core on the page and in a module Worker, prints both attention rows, and leaves
// the numbers in window.attnResult for the Chromium test.
import { softLookupRow } from './lookup.mjs';

const status = document.getElementById('status');
const fmt = (x) => x.toFixed(4);

function addRow(where, { weights, output }) {
  const tr = document.createElement('tr');
  for (const text of [where, ...weights.map(fmt), `(${output.map(fmt).join(', ')})`]) {
    const td = document.createElement('td');
    td.textContent = text;
    tr.append(td);
  }
  document.querySelector('#rows tbody').append(tr);
}

function inWorker() {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }) => (data.error ? reject(new Error(data.error)) : resolve(data.result));
    worker.onerror = (event) => reject(new Error(event.message || 'worker failed'));
  });
}

try {
  const page = await softLookupRow();
  const worker = await inWorker();
  addRow('page', page);
  addRow('module Worker', worker);
  document.getElementById('rows').hidden = false;
  status.textContent = 'computed by the core in WebAssembly (page and module Worker)';
  window.attnResult = { page, worker };
} catch (error) {
  status.textContent = `failed: ${error.message}`;
  window.attnResult = { error: String(error.stack || error) };
}
document.body.dataset.state = 'done';

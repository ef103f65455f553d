// Builds WebAssembly targets of build-wasm/ for a benchmark (scripts/build has configured it; the
// configure step here only makes a target added since known), with emcc's NODE_PATH.
import { execFileSync } from 'node:child_process';

import { root } from '../tests/wasm/helpers.mjs';

export function buildWasmTargets(...targets) {
  const env = { ...process.env, NODE_PATH: ['/usr/share/nodejs', process.env.NODE_PATH].filter(Boolean).join(':') };
  const quiet = { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] };
  execFileSync('bash', ['scripts/configure-wasm', 'build-wasm'], quiet);
  execFileSync('cmake', ['--build', 'build-wasm', `-j${process.env.ATTN_JOBS ?? 2}`, '--target', ...targets], quiet);
}

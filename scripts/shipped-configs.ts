// The shipped page module's configs (defaults and fields), for scripts/build-package.mjs. It is
// imported through Vite's module runner, which closes once the import returns: loading the core
// here, at the top level, lets loadCore() import the module while the runner is still open.
import { readFileSync } from 'node:fs';
import { loadCore } from '../web/src/core';

const wasmBinary = readFileSync(new URL('../web/src/generated/attention_lab.wasm', import.meta.url));
export const { configs } = await loadCore({ wasmBinary });

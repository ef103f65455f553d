// The package's command as an author runs it (dist-package/bin/attention-lab.js, after `npm run build`).
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export const CLI = resolve(import.meta.dirname, '../../dist-package/bin/attention-lab.js');

/** `attention-lab package …`: { status, stdout, stderr }. */
export function cli(...args) {
  try {
    return {
      status: 0,
      stdout: execFileSync('node', [CLI, 'package', ...args], { encoding: 'utf8', stdio: 'pipe' }),
      stderr: '',
    };
  } catch (error) {
    return { status: error.status, stdout: error.stdout, stderr: error.stderr };
  }
}

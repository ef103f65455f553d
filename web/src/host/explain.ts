// Why attention-lab cannot run on a page, in words that tell the reader in place and tell the
// author what the page or the asset host must allow. Shared by the classic loader (loader.ts,
// which runs when the module itself cannot load) and the widgets (failure.ts, worker.ts).
//
// The causes are found by what the page does, not by engine-specific error texts:
// - a Content-Security-Policy refusal: the `securitypolicyviolation` events seen since this
//   file ran (Chromium, Firefox and WebKit fire them for workers, scripts and fetches);
// - WebAssembly refused by the policy: instantiating an empty module fails (WebKit fires no
//   violation event for it and compiles a module synchronously anyway; instantiate it refuses);
// - a file the asset host serves without CORS: a CORS fetch fails where an opaque (no-cors)
//   fetch of the same address succeeds;
// - a missing file or a wrong content type: the fetch's answer.

/** A reason's message key (the failure catalog) and arguments, for a widget that says it in its language. */
export interface ReasonSaid {
  key: string;
  params: Record<string, string | number>;
}

// Each reason made, by its English text: a widget shows it from the failure catalog (failure.ts)
// by its key and arguments, never by reading the text. (This file is also in the classic loader,
// which has no catalogs and says the English text.)
const made = new Map<string, ReasonSaid>();
function reason(key: string, params: Record<string, string | number>, text: string): string {
  made.set(text, { key, params });
  return text;
}

/** The key and arguments of a reason this file made; undefined for any other text. */
export const reasonOf = (text: string): ReasonSaid | undefined => made.get(text);

/** The messages, one per cause: shown in place of a widget, logged, and listed in the guide (in English). */
export const MESSAGES = {
  noWebAssembly: () =>
    reason(
      'noWebAssembly',
      {},
      'This widget cannot run in this browser: it needs WebAssembly, which this browser does not offer or has turned off.',
    ),
  wasmRefused: () =>
    reason(
      'wasmRefused',
      {},
      "This widget cannot run on this page: the page's Content-Security-Policy does not allow WebAssembly. The page must add 'wasm-unsafe-eval' to its script-src.",
    ),
  policyRefused: (directive: string, origin: string) =>
    reason(
      'policyRefused',
      { directive, origin },
      `This widget cannot run on this page: the page's Content-Security-Policy does not allow ${origin} in ${directive}. The page must add ${origin} to its ${directive}.`,
    ),
  workerRefused: (needed: string, policy?: string) =>
    reason(
      policy ? 'workerRefusedPolicy' : 'workerRefused',
      { needed, policy: policy ?? '' },
      `Training cannot run on this page: the page's Content-Security-Policy does not allow the training Worker${policy ? ` (${policy})` : ''}. The page must allow worker-src ${needed}.`,
    ),
  noCors: (origin: string, file: string) =>
    reason(
      'noCors',
      { origin, file },
      `This widget cannot run on this page: ${origin} does not let other sites use ${file} (it sends no Access-Control-Allow-Origin header). The server of the attention-lab files must send Access-Control-Allow-Origin: * (or this page's origin) with every file.`,
    ),
  httpError: (url: string, status: number) =>
    reason(
      'httpError',
      { url, status: String(status) },
      `This widget cannot run on this page: ${url} answered HTTP ${status}. Copy the build's files together: attention-lab*.js, attention-lab.css, embed.html and the assets/ folder.`,
    ),
  wrongType: (url: string, type: string) =>
    reason(
      'wrongType',
      { url, type },
      `This widget cannot run on this page: ${url} is served as "${type}"; scripts must be served as text/javascript and .wasm files as application/wasm.`,
    ),
  unreachable: (url: string) =>
    reason('unreachable', { url }, `This widget cannot run on this page: ${url} could not be reached.`),
  other: (message: string) => reason('other', { message }, `This widget could not start: ${message}`),
};

const violations: SecurityPolicyViolationEvent[] = [];
if (typeof document !== 'undefined')
  document.addEventListener('securitypolicyviolation', (event) => violations.push(event));

/** Resolves after `ms`, or as soon as a policy violation is reported (they arrive as tasks, after the refusal). */
function violationOrTimeout(ms: number): Promise<void> {
  return new Promise((done) => {
    const finish = () => {
      clearTimeout(timer);
      document.removeEventListener('securitypolicyviolation', finish);
      done();
    };
    const timer = setTimeout(finish, ms);
    document.addEventListener('securitypolicyviolation', finish);
  });
}

/**
 * The policy violations reported under one of `directives` for an address on one of `origins`
 * ('blob' stands for blob: addresses), since the page began; waits briefly for one still on
 * its way.
 */
export async function violationsFor(
  directives: readonly string[],
  origins: readonly string[],
): Promise<SecurityPolicyViolationEvent[]> {
  const matches = () =>
    violations.filter(
      (event) =>
        directives.includes(event.effectiveDirective) &&
        origins.some(
          (origin) =>
            event.blockedURI === origin || event.blockedURI.startsWith(origin === 'blob' ? 'blob:' : `${origin}/`),
        ),
    );
  if (matches().length === 0) await violationOrTimeout(200);
  return matches();
}

/** The directive as the page's policy states it ("worker-src 'none'"), for a message; the directive's name when it is implied. */
export function quoteDirective(event: SecurityPolicyViolationEvent): string {
  const fallbacks = [event.effectiveDirective, 'child-src', 'script-src', 'default-src'];
  const parts = event.originalPolicy.split(';').map((part) => part.trim());
  for (const name of fallbacks) {
    const found = parts.find((part) => part === name || part.startsWith(`${name} `));
    if (found) return found;
  }
  return event.effectiveDirective;
}

/** Does this page's policy refuse WebAssembly? (An empty module must instantiate anywhere else.) */
export async function webAssemblyRefused(): Promise<boolean> {
  try {
    await WebAssembly.instantiate(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
    return false;
  } catch {
    return true;
  }
}

/**
 * Why `url` (a file attention-lab needs) cannot be used by this page, as a message; undefined
 * when it loads fine with the right content type.
 */
export async function explainFile(url: string): Promise<string | undefined> {
  const { origin, pathname } = new URL(url);
  const file = pathname.slice(pathname.lastIndexOf('/') + 1);
  try {
    // HEAD: the answer's status and headers are all that is needed (GET where HEAD is not served).
    let response = await fetch(url, { method: 'HEAD', mode: 'cors', cache: 'no-store' });
    if (response.status === 405 || response.status === 501)
      response = await fetch(url, { mode: 'cors', cache: 'no-store' });
    if (!response.ok) return MESSAGES.httpError(url, response.status);
    const type = response.headers.get('content-type') ?? '';
    const wanted = file.endsWith('.js') ? /javascript/ : file.endsWith('.wasm') ? /^application\/wasm/ : /./;
    return wanted.test(type) ? undefined : MESSAGES.wrongType(url, type);
  } catch {
    // Refused by the page's policy (connect-src), by the missing CORS header, or unreachable.
    const refused = await violationsFor(['connect-src'], [origin]);
    if (refused.length > 0) return MESSAGES.policyRefused('connect-src', origin);
    try {
      await fetch(url, { method: 'HEAD', mode: 'no-cors', cache: 'no-store' });
      return MESSAGES.noCors(origin, file);
    } catch {
      return MESSAGES.unreachable(url);
    }
  }
}

/** Why the attention-lab files at `url` (or on its origin) cannot run here: policy first, then the file itself. */
export async function explainLoad(url: string): Promise<string | undefined> {
  const { origin } = new URL(url);
  const refused = await violationsFor(
    ['script-src-elem', 'script-src', 'style-src-elem', 'style-src', 'connect-src', 'font-src', 'img-src'],
    [origin],
  );
  if (refused.length > 0) return MESSAGES.policyRefused(refused[0].effectiveDirective.replace(/-elem$/, ''), origin);
  return explainFile(url);
}

/** Logs `message` as attention-lab's, once per page for the same text (many widgets share one cause). */
const logged = new Set<string>();
export function logOnce(message: string, detail?: unknown): void {
  if (logged.has(message)) return;
  logged.add(message);
  console.error(`attention-lab: ${message}`, ...(detail === undefined ? [] : [detail]));
}

/** The message as a paragraph in place of a widget's content (the class widgets.css styles as an error). */
export function showInPlace(widget: Element, message: string): void {
  const paragraph = document.createElement('p');
  paragraph.className = 'attn-error';
  paragraph.setAttribute('role', 'alert');
  paragraph.textContent = message;
  widget.replaceChildren(paragraph);
}

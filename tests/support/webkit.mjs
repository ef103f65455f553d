// WebKit for tests/support/engines.mjs: Debian's WebKitGTK MiniBrowser (the engine family of
// Safari) in its own Xvfb screen, driven through WebKitWebDriver with plain W3C WebDriver HTTP
// calls (fetch). WebKitGTK has no headless mode, and its WebDriver has no BiDi: no console or
// network events (the in-page watcher sees them instead), and screenshots cover the viewport
// only, so a full-page screenshot grows the window inside the screen, which is tall for that.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
/** The Xvfb screen: wide enough for a desktop viewport, tall enough for a whole page. */
export const SCREEN = { width: 1400, height: 24576 };
/** WebDriver's code points for the named keys the tests press (W3C WebDriver, "Keyboard actions"). */
const KEYS = {
  Backspace: '\uE003',
  Tab: '\uE004',
  Enter: '\uE007',
  Shift: '\uE008',
  Control: '\uE009',
  Alt: '\uE00A',
  Escape: '\uE00C',
  Space: '\uE00D',
  PageUp: '\uE00E',
  PageDown: '\uE00F',
  End: '\uE010',
  Home: '\uE011',
  ArrowLeft: '\uE012',
  ArrowUp: '\uE013',
  ArrowRight: '\uE014',
  ArrowDown: '\uE015',
  Delete: '\uE017',
};

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

function freePort() {
  return new Promise((ok, fail) => {
    const probe = createServer()
      .once('error', fail)
      .listen(0, '127.0.0.1', () => {
        const { port } = probe.address();
        probe.close(() => ok(port));
      });
  });
}

/** Starts a process in its own group, so that stopping it also stops what it started (MiniBrowser). */
function startGroup(command, args, options) {
  const child = spawn(command, args, { detached: true, ...options });
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  process.once('exit', stop);
  return { child, stop };
}

/** Xvfb on the first free display (-displayfd writes its number); resolves to { display, stop }. */
async function startXvfb() {
  const { child, stop } = startGroup(
    'Xvfb',
    ['-displayfd', '3', '-screen', '0', `${SCREEN.width}x${SCREEN.height}x24`, '-nolisten', 'tcp'],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const display = await new Promise((ok, fail) => {
    let out = '';
    child.stdio[3].on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) ok(`:${out.trim()}`);
    });
    child.once('exit', (code) => fail(new Error(`Xvfb exited (${code}) before it was ready: ${stderr.trim()}`)));
  });
  return { display, stop };
}

/** One WebDriver session's commands: `command('POST', '/url', {url})` returns the reply's value. */
function webDriver(base) {
  return async function command(method, path, body) {
    const response = await fetch(base + path, {
      method,
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const reply = await response.json();
    if (!response.ok) throw new Error(`WebDriver ${method} ${path}: ${reply.value?.error}: ${reply.value?.message}`);
    return reply.value;
  };
}

/**
 * Launches MiniBrowser through WebKitWebDriver in a new Xvfb screen. Resolves to the adapter
 * engines.mjs wraps: { version, navigate, resize, innerSize, run, runInFrame, pointerClick,
 * keys, viewportPng, close }.
 */
export async function launchWebKit() {
  const xvfb = await startXvfb();
  const port = await freePort();
  const driver = startGroup('WebKitWebDriver', [`--port=${port}`], {
    stdio: 'ignore',
    env: { ...process.env, DISPLAY: xvfb.display },
  });
  const stopAll = () => {
    driver.stop();
    xvfb.stop();
  };
  const command = webDriver(`http://127.0.0.1:${port}`);
  let session;
  try {
    for (let attempt = 0; !session; attempt++) {
      try {
        session = await command('POST', '/session', {
          capabilities: {
            alwaysMatch: {
              browserName: 'MiniBrowser',
              'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
            },
          },
        });
      } catch (error) {
        // The driver is not listening yet.
        if (error.cause?.code !== 'ECONNREFUSED' || attempt > 100) throw error;
        await sleep(100);
      }
    }
  } catch (error) {
    stopAll();
    throw error;
  }
  const inSession = (method, path, body) => command(method, `/session/${session.sessionId}${path}`, body);
  const actions = (list) => inSession('POST', '/actions', { actions: list });

  /** Runs `source` (a function expression's text) on `arg` in the page; async functions are awaited. */
  async function run(source, arg) {
    // Sent as the body of a function under the page's CSP, so no eval here either.
    const script = `const [arg, done] = arguments;
      Promise.resolve().then(() => (${source})(arg)).then(
        (value) => done({ value: value === undefined ? null : value }),
        (error) => done({ error: error instanceof Error ? \`\${error.name}: \${error.message} (\${error.stack})\` : String(error) }));`;
    const reply = await inSession('POST', '/execute/async', { script, args: [arg ?? null] });
    if (reply?.error !== undefined) throw new Error(`in the page: ${reply.error}`);
    return reply?.value;
  }

  /** Runs `source` on `arg` in the document of the <iframe> `selector` names (any origin), then returns to the top page. */
  async function runInFrame(selector, source, arg) {
    const frame = await inSession('POST', '/element', { using: 'css selector', value: selector });
    await inSession('POST', '/frame', { id: frame });
    try {
      return await run(source, arg);
    } finally {
      await inSession('POST', '/frame/parent', {});
    }
  }

  return {
    version: `WebKitGTK ${session.capabilities.browserVersion}`,
    navigate: (url) => inSession('POST', '/url', { url }),
    /** Sets the window's outer size. */
    resize: (width, height) => inSession('POST', '/window/rect', { width, height }),
    innerSize: () => run('() => ({ width: innerWidth, height: innerHeight })'),
    run,
    runInFrame,
    async pointerClick(x, y) {
      await actions([
        {
          type: 'pointer',
          id: 'mouse',
          parameters: { pointerType: 'mouse' },
          actions: [
            { type: 'pointerMove', origin: 'viewport', x: Math.round(x), y: Math.round(y), duration: 0 },
            { type: 'pointerDown', button: 0 },
            { type: 'pointerUp', button: 0 },
          ],
        },
      ]);
    },
    /** Presses each chord in turn: "ArrowLeft", "Shift+ArrowUp", "a". */
    async keys(chords) {
      const steps = [];
      for (const chord of chords) {
        const parts = chord.split('+').map((name) => KEYS[name] ?? name);
        for (const value of parts) steps.push({ type: 'keyDown', value });
        for (const value of parts.reverse()) steps.push({ type: 'keyUp', value });
      }
      await actions([{ type: 'key', id: 'keyboard', actions: steps }]);
    },
    viewportPng: async () => Buffer.from(await inSession('GET', '/screenshot'), 'base64'),
    async close() {
      try {
        await inSession('DELETE', '');
      } finally {
        stopAll();
      }
    },
  };
}

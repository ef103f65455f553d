// Page quality as Lighthouse 12 scores it (the pinned dev dependency, through its node API, in
// Debian's Chromium), on localhost with the project's own server (scripts/static-server.mjs:
// brotli, the strict CSP, long-lived caching for hashed assets): the lesson (dist/index.html)
// and a course author's page with one soft lookup (bench/course-page/, beside the built files as
// the embedding guide's "files in a course folder" recipe copies them). For each page and preset
// (mobile, Lighthouse's default; desktop) it runs Lighthouse `--runs` times, each in a fresh
// browser, and prints the medians of the four category scores, FCP, LCP, TBT, CLS and the bytes
// transferred, with the request chain's depth (lighthouse-chain.mjs, one load per page and
// preset), each against its goal. Scores and times vary with the machine's load: the goals are
// for a quiet machine; bytes and the chain's depth do not depend on it. The CPU column is the
// median of Lighthouse's own measure of the machine's speed at each run (its benchmarkIndex,
// higher is faster), so that runs on a busier or slower machine show as such.
//
//   npm run bench:lighthouse [-- --page lesson|course] [--preset mobile|desktop] [--runs 5] [--strict]
//
// --strict: exit with code 1 when a goal is missed (else the table says so and the exit code is 0).
// Needs the built site (scripts/build). With Chromium 156, six diagnostic audits of Lighthouse
// 12.2.3 error ("RootCauses gatherer ..."); the scores still come out, and those audits are
// not read here.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launch as launchChrome } from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';

import { STRICT_CSP, serveStatic } from '../scripts/static-server.mjs';
import { launchChromium } from '../tests/support/chromium.mjs';
import { measureChain } from './lighthouse-chain.mjs';
import { median, table } from './report.mjs';

const root = path.resolve(import.meta.dirname, '..');
const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];

export const PAGES = ['lesson', 'course'];
export const PRESETS = ['mobile', 'desktop'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
/** The viewport each preset emulates (Lighthouse's own), for the chain's load. */
const VIEWPORTS = { mobile: { width: 412, height: 823 }, desktop: { width: 1350, height: 940 } };

/** The goals: scores out of 100, at least; the course page's bytes and every chain, at most. */
export const GOALS = {
  performance: { mobile: 95, desktop: 100 },
  accessibility: 100,
  'best-practices': 100,
  seo: 100,
  courseKiB: 120,
  chainDepth: 3,
};

/** One Lighthouse run of `url` with `preset`, in a browser of its own: the report (lhr). */
async function runLighthouse(url, preset) {
  const chrome = await launchChrome({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  try {
    const result = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES },
      preset === 'desktop' ? desktopConfig : undefined,
    );
    if (!result) throw new Error(`lighthouse: no result for ${url} (${preset})`);
    if (result.lhr.runtimeError) throw new Error(`lighthouse: ${url} (${preset}): ${result.lhr.runtimeError.message}`);
    return result.lhr;
  } finally {
    await chrome.kill();
  }
}

/** The figures of one report: scores out of 100, times in ms, bytes. */
export function figuresOf(lhr) {
  const audit = (id) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    ...Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? NaN) * 100)])),
    fcp: audit('first-contentful-paint'),
    lcp: audit('largest-contentful-paint'),
    si: audit('speed-index'),
    tbt: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    bytes: audit('total-byte-weight'),
    cpu: lhr.environment?.benchmarkIndex ?? NaN,
  };
}

/** Each figure's median over the runs' figures. */
export function medians(runs) {
  return Object.fromEntries(Object.keys(runs[0]).map((key) => [key, median(runs.map((r) => r[key]))]));
}

/** The goals one page's medians and chain depth miss, as "figure value (goal)" strings. */
export function missedGoals(page, preset, m, depth) {
  const missed = [];
  for (const c of CATEGORIES) {
    const goal = c === 'performance' ? GOALS.performance[preset] : GOALS[c];
    if (!(m[c] >= goal)) missed.push(`${c} ${m[c]} (>= ${goal})`);
  }
  if (page === 'course' && !(m.bytes / 1024 <= GOALS.courseKiB))
    missed.push(`bytes ${(m.bytes / 1024).toFixed(1)} KiB (<= ${GOALS.courseKiB})`);
  if (!(depth <= GOALS.chainDepth)) missed.push(`chain ${depth} deep (<= ${GOALS.chainDepth})`);
  return missed;
}

async function main() {
  const { values } = parseArgs({
    options: {
      page: { type: 'string', multiple: true },
      preset: { type: 'string', multiple: true },
      runs: { type: 'string', default: '5' },
      strict: { type: 'boolean', default: false },
    },
  });
  const pages = values.page ?? PAGES;
  const presets = values.preset ?? PRESETS;
  const runs = Number(values.runs);
  for (const p of pages)
    if (!PAGES.includes(p)) throw new Error(`--page: "${p}" is no page (known: ${PAGES.join(', ')})`);
  for (const p of presets)
    if (!PRESETS.includes(p)) throw new Error(`--preset: "${p}" is no preset (known: ${PRESETS.join(', ')})`);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`--runs: must be a whole number of at least 1, got "${values.runs}"`);

  const dist = path.join(root, 'dist');
  const lessonServer = await serveStatic(dist, { csp: STRICT_CSP });
  // The course page's folder first: its index.html, icon and stylesheet, then the built files.
  const courseServer = await serveStatic([path.join(root, 'bench/course-page'), dist], { csp: STRICT_CSP });
  const urls = { lesson: lessonServer.url, course: courseServer.url };
  const rows = [];
  const missed = [];
  const chains = [];
  const browser = await launchChromium();
  try {
    for (const page of pages)
      for (const preset of presets) {
        const chain = await measureChain(browser, urls[page], VIEWPORTS[preset]);
        const depth = chain[0].depth;
        chains.push({ page, preset, chain: chain[0].chain.map((u) => u.replace(urls[page], '/')) });
        const figures = [];
        for (let r = 0; r < runs; r++) {
          figures.push(figuresOf(await runLighthouse(urls[page], preset)));
          process.stderr.write(`${page} ${preset}: run ${r + 1} of ${runs}\r`);
        }
        const m = medians(figures);
        rows.push([
          `${page} ${preset}`,
          ...CATEGORIES.map((c) => m[c]),
          (m.fcp / 1000).toFixed(2),
          (m.lcp / 1000).toFixed(2),
          (m.si / 1000).toFixed(2),
          m.tbt.toFixed(0),
          m.cls.toFixed(3),
          (m.bytes / 1024).toFixed(1),
          depth,
          m.cpu.toFixed(0),
        ]);
        for (const goal of missedGoals(page, preset, m, depth)) missed.push(`${page} ${preset}: ${goal}`);
      }
  } finally {
    await browser.close();
    await lessonServer.close();
    await courseServer.close();
  }

  process.stderr.write('\n');
  console.log(`Lighthouse 12.2.3, median of ${runs} run(s) per page and preset, localhost, brotli\n`);
  console.log(
    table([
      ['page preset', 'perf', 'a11y', 'BP', 'SEO', 'FCP s', 'LCP s', 'SI s', 'TBT ms', 'CLS', 'KiB', 'chain', 'CPU'],
      ...rows,
      [
        'goal',
        '>=95/100',
        '100',
        '100',
        '100',
        '',
        '',
        '',
        '',
        '',
        `course <=${GOALS.courseKiB}`,
        `<=${GOALS.chainDepth}`,
        '',
      ],
    ]),
  );
  console.log('\nDeepest request chain of each load:');
  for (const { page, preset, chain } of chains) console.log(`  ${page} ${preset}: ${chain.join(' -> ')}`);
  console.log(missed.length ? `\nGoals missed:\n  ${missed.join('\n  ')}` : '\nEvery goal met.');
  if (values.strict && missed.length) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

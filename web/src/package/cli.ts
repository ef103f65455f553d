/// <reference types="node" />
// The package's command line (bin `attention-lab`; built to bin/attention-lab.js in the package):
//
//   attention-lab package [page.html] --standard scorm12|scorm2004|cmi5 --out course.zip
//                 [--title T] [--pass-mark 0.8] [--widget attn-quiz ...] [--quiz my.json] [--preview]
//
// It reads the author's page (or makes one of the --widget elements), the files the page names
// and the widgets' own files from this package, and writes the zip course-package.ts makes.
// --preview then serves it with a stand-in LMS (preview.ts). Bad input exits with code 2 and a
// message naming the argument.
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  BRIDGE_FILE,
  STANDARDS,
  WIDGET_FILES,
  coursePackage,
  generatedPage,
  pageReferences,
  widgetTags,
} from '../lms/course-package';
import type { PackageSettings, Standard } from '../lms/session';
import { TAGS } from '../widgets/element/tags';

/** This package's folder (bin/ is one below it). */
const PACKAGE_DIR = resolve(import.meta.dirname, '..');

const USAGE = `usage: attention-lab package [page.html] --standard ${STANDARDS.join('|')} --out course.zip
         [--title "Course title"] [--pass-mark 0.8] [--widget attn-quiz ...] [--quiz questions.json] [--preview [--port N]]

  scorm12, scorm2004: imsmanifest.xml; the learner's answers are kept in the LMS's suspend data.
  cmi5: cmi5.xml (one AU, index.html, masteryScore = --pass-mark, moveOn CompletedOrPassed). The LMS
    launches index.html with endpoint, fetch, actor, registration and activityId; the answers are
    kept in the xAPI state document "<activityId>/attention-lab-progress" (agent and registration
    of the launch); when the LMS gives a returnURL, a "Done" button ends the session and goes there.
    --preview is for SCORM only (its stand-in LMS speaks SCORM).`;

/** Bad input: said with the argument it concerns, exit code 2. */
class UsageError extends Error {}

const fail = (argument: string, problem: string): never => {
  throw new UsageError(`attention-lab package: ${argument}: ${problem}`);
};

/** Every file under `folder`, as paths relative to `base` with "/" separators. */
function filesUnder(folder: string, base: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(base, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

interface Options {
  page?: string;
  standard: Standard;
  out: string;
  title: string;
  passMark: number;
  widgets: string[];
  quiz?: string;
  preview: boolean;
  port: number;
}

/** The command's options, checked; undefined when --help asks for the usage. */
export function readOptions(args: string[]): Options | undefined {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        standard: { type: 'string' },
        out: { type: 'string' },
        title: { type: 'string' },
        'pass-mark': { type: 'string' },
        widget: { type: 'string', multiple: true },
        quiz: { type: 'string' },
        preview: { type: 'boolean' },
        port: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return fail('arguments', `${(error as Error).message}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) return undefined;
  if (positionals.length > 1) fail('page', `one page at most, got ${positionals.length}: ${positionals.join(', ')}`);
  const standard = values.standard ?? fail('--standard', `missing (one of ${STANDARDS.join(', ')})`);
  if (!(STANDARDS as string[]).includes(standard))
    fail('--standard', `"${standard}" is not one of ${STANDARDS.join(', ')}`);
  const out = values.out ?? fail('--out', 'missing (the zip to write, such as course.zip)');
  if (!out.endsWith('.zip')) fail('--out', `"${out}" should end in .zip`);
  const passText = values['pass-mark'] ?? '0.8';
  const passMark = Number(passText);
  if (passText.trim() === '' || !Number.isFinite(passMark) || passMark < 0 || passMark > 1)
    fail('--pass-mark', `must be a number from 0 to 1 (the share of points that passes), got "${passText}"`);
  if (values.preview && standard === 'cmi5')
    fail('--preview', 'the stand-in LMS speaks SCORM only; import the cmi5 zip into a cmi5 LMS to try it');
  const portText = values.port ?? '0';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail('--port', `must be a port number 0-65535, got "${portText}"`);
  const known = Object.values(TAGS) as string[];
  for (const tag of values.widget ?? [])
    if (!known.includes(tag)) fail('--widget', `"${tag}" is not a widget (${known.join(', ')})`);
  const page = positionals[0];
  if (page === undefined && !values.widget?.length)
    fail('page', 'give a page (page.html) or widgets (--widget attn-quiz)');
  if (page !== undefined && values.widget?.length) fail('--widget', 'give a page or --widget, not both');
  return {
    page,
    standard: standard as Standard,
    out,
    title: values.title ?? (page ? basename(page, '.html') : 'Attention lab'),
    passMark,
    widgets: values.widget ?? [],
    quiz: values.quiz,
    preview: values.preview ?? false,
    port,
  };
}

/** Reads a file the package needs, or fails naming the argument it came from. */
function readNeeded(path: string, argument: string, what: string): Uint8Array {
  if (!existsSync(path) || !statSync(path).isFile()) fail(argument, `${what} ${path} is not there`);
  return readFileSync(path);
}

/** The zip's input from the options: the page, the files it names, the widgets' files. */
function gather(options: Options): { settings: PackageSettings; page: string; files: Record<string, Uint8Array> } {
  const settings: PackageSettings = { standard: options.standard, passMark: options.passMark, title: options.title };
  const files: Record<string, Uint8Array> = {};
  let page: string;
  let pageDir: string;
  if (options.page !== undefined) {
    const path = resolve(options.page);
    page = new TextDecoder().decode(readNeeded(path, 'page', 'the page'));
    pageDir = dirname(path);
    if (widgetTags(page).length === 0)
      fail('page', `${options.page} holds no widget (no <attn-…> element such as <attn-quiz>)`);
    if (options.quiz) fail('--quiz', 'with a page, name the questions in the page (<attn-quiz src="…">)');
  } else {
    pageDir = process.cwd();
    const quiz = options.quiz;
    const widgets = options.widgets.map((tag) => {
      if (tag !== TAGS.quiz) return { tag };
      if (quiz) return { tag, src: `data/${basename(quiz)}` };
      return { tag, src: 'data/quiz.example.json' }; // the package's example questions
    });
    if (quiz) files[`data/${basename(quiz)}`] = readNeeded(resolve(quiz), '--quiz', 'the questions file');
    else if (options.widgets.includes(TAGS.quiz))
      files['data/quiz.example.json'] = readNeeded(
        join(PACKAGE_DIR, 'schemas/examples/quiz.example.json'),
        '--quiz',
        'the example questions',
      );
    page = generatedPage(options.title, widgets);
  }
  for (const reference of pageReferences(page)) {
    if (files[reference]) continue;
    const path = resolve(pageDir, reference);
    if (relative(pageDir, path).startsWith('..'))
      fail('page', `it names ${reference}, outside its folder; the package holds only the page's folder`);
    files[reference] = readNeeded(path, 'page', `it names ${reference}, but`);
  }
  for (const file of [
    ...WIDGET_FILES,
    ...filesUnder(join(PACKAGE_DIR, 'assets'), PACKAGE_DIR),
    ...filesUnder(join(PACKAGE_DIR, 'lms'), PACKAGE_DIR),
  ])
    files[file] = readNeeded(join(PACKAGE_DIR, file), 'package', "the widgets' file");
  if (!files[BRIDGE_FILE]) fail('package', `the bridge ${BRIDGE_FILE} is missing from ${PACKAGE_DIR}`);
  return { settings, page, files };
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (command === '--help' || command === '-h' || command === 'help') return console.log(USAGE);
  if (command !== 'package') throw new UsageError(`attention-lab: unknown command "${command ?? ''}"\n${USAGE}`);
  const options = readOptions(args);
  if (!options) return console.log(USAGE); // --help
  const input = gather(options);
  const zip = coursePackage(input);
  mkdirSync(dirname(resolve(options.out)), { recursive: true });
  writeFileSync(options.out, zip);
  console.log(
    `attention-lab: wrote ${options.out} (${options.standard}, ${Object.keys(input.files).length + 2} files, ${zip.length.toLocaleString('en')} bytes)`,
  );
  if (options.preview) {
    const { servePreview } = await import('./preview');
    const preview = await servePreview(zip, options.standard, { port: options.port, log: (line) => console.log(line) });
    console.log(`attention-lab: previewing at ${preview.url} (the stand-in LMS calls follow; Ctrl+C ends)`);
    // Ended by Ctrl+C or a kill: the unzipped copy goes with the server.
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.once(signal, () => void preview.close().then(() => process.exit(0)));
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(error.message);
    process.exitCode = 2;
  } else {
    console.error('attention-lab:', error);
    process.exitCode = 1;
  }
});

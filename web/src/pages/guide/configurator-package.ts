// The configurator's "Download a course package" (the #configurator-package area configurator.ts
// leaves hidden): a standard, a title and a pass mark, and a Download button that makes, in the
// browser, the zip `attention-lab package --widget …` makes (web/lms/course-package.ts) for a
// generated page holding the configured element. A widget that takes author data holds the
// example data inline, as the preview shows it (the author's own src file is not on this site).
// The package's runtime files (the widgets, the core's .wasm, the bridge) are the site's copy in
// package/ (scripts/build-package.mjs), listed with their sizes in package/files.json, and fetched
// only when the author clicks Download.
import type { Messages } from '../../common/messages';
import { STANDARDS, coursePackage, generatedPage, identifier } from '../../lms/course-package';
import type { Standard } from '../../lms/session';
import { el } from '../../widgets/element/base';
import { CONTRACTS } from '../../widgets/element/contracts';
import exercisesExample from '../../schemas/examples/exercises.example.json';
import quizExample from '../../schemas/examples/quiz.example.json';
import tableExample from '../../schemas/examples/table.example.json';
import type { Configuration } from './configurator';

/** The example data for a widget that takes author data: the preview shows it (the author's own src cannot load here) and the package holds it. */
export const EXAMPLES: Record<string, unknown> = {
  quiz: quizExample,
  exercises: exercisesExample,
  table: tableExample,
};

/** Each standard's name in the select (catalog keys). */
const STANDARD_KEYS: Record<Standard, string> = {
  scorm12: 'standardScorm12',
  scorm2004: 'standardScorm2004',
  cmi5: 'standardCmi5',
};

/** The title the command line gives a package of widgets when none is given. */
const DEFAULT_TITLE = 'Attention lab';

/** package/files.json: each runtime file's path in the package and its size in bytes. */
interface RuntimeList {
  files: { path: string; size: number }[];
}

/** The pass mark typed, or undefined when it is not a number from 0 to 1 (as the command line's --pass-mark). */
export function readPassMark(text: string): number | undefined {
  const value = Number(text.trim());
  return text.trim() !== '' && Number.isFinite(value) && value >= 0 && value <= 1 ? value : undefined;
}

/**
 * The generated page's widget for a configuration: its attributes, and for a widget that takes
 * author data the example inline in place of a src (`replacedSrc`: the author's src left out).
 */
export function packagedWidget(configuration: Configuration): {
  tag: string;
  attributes: Record<string, string>;
  data?: unknown;
  replacedSrc?: string;
} {
  const { tag, attributes } = configuration;
  const schema = CONTRACTS.find((c) => c.tag === tag)?.schema;
  const { src, ...rest } = attributes;
  // The table draws its own data without src; the quiz and the exercises need theirs.
  if (schema === undefined || (schema === 'table' && src === undefined)) return { tag, attributes };
  return { tag, attributes: rest, data: EXAMPLES[schema], replacedSrc: src };
}

/** A field's row: label, control, hint and the place its error is said. */
function row(label: string, field: HTMLElement, hint?: HTMLElement) {
  const error = el('p', { class: 'configurator-error', id: `${field.id}-error`, hidden: '' });
  const node = el('div', { class: 'configurator-row' }, el('label', { for: field.id }, label), field);
  if (hint) node.append(hint);
  node.append(error);
  const describedBy = hint ? [hint.id] : [];
  if (describedBy.length) field.setAttribute('aria-describedby', describedBy.join(' '));
  /** Says `problem` at the field (marked invalid), or clears it. */
  const mark = (problem: string | null) => {
    error.hidden = problem === null;
    error.textContent = problem ?? '';
    if (problem === null) {
      field.removeAttribute('aria-invalid');
      if (describedBy.length) field.setAttribute('aria-describedby', describedBy.join(' '));
      else field.removeAttribute('aria-describedby');
    } else {
      field.setAttribute('aria-invalid', 'true');
      field.setAttribute('aria-describedby', [error.id, ...describedBy].join(' '));
    }
  };
  return { node, mark };
}

/** Hands `bytes` to the browser as a download named `name`. */
function save(bytes: Uint8Array, name: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/zip' }));
  const link = el('a', { href: url, download: name, hidden: '' });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Fills the configurator's package area (`area`, #configurator-package, with data-configuration)
 * and shows it; `base` is the site's folder (package/ is under it).
 */
export function renderPackageDownload(area: HTMLElement, base: string, messages: Messages, language: string): void {
  const standard = el('select', { id: 'configurator-package-standard' });
  standard.replaceChildren(...STANDARDS.map((s) => el('option', { value: s }, messages.text(STANDARD_KEYS[s]))));
  const title = el('input', {
    id: 'configurator-package-title',
    type: 'text',
    autocomplete: 'off',
    placeholder: DEFAULT_TITLE,
  });
  const passMark = el('input', {
    id: 'configurator-package-pass-mark',
    type: 'text',
    inputmode: 'decimal',
    autocomplete: 'off',
    dir: 'ltr',
    value: '0.8',
  });
  const passRow = row(
    messages.text('packagePassMark'),
    passMark,
    el(
      'p',
      { class: 'configurator-hint', id: 'configurator-package-pass-mark-hint' },
      messages.text('packagePassMarkHint'),
    ),
  );
  const button = el('button', { type: 'button', class: 'configurator-copy', id: 'configurator-package-download' });
  button.textContent = messages.text('packageDownload');
  const status = el('p', { class: 'configurator-status', id: 'configurator-package-status', role: 'status' });
  const error = el('p', { class: 'configurator-error', id: 'configurator-package-error', role: 'alert', hidden: '' });
  const about = el('p', { class: 'configurator-note', id: 'configurator-package-about' });
  const dataNote = el('p', { class: 'configurator-note', id: 'configurator-package-data' });
  const fields = el(
    'div',
    { class: 'configurator-package-fields' },
    row(messages.text('packageStandard'), standard).node,
    row(messages.text('packageTitle'), title).node,
    passRow.node,
  );
  area.append(
    el('p', { class: 'configurator-note' }, messages.text('packageIntro')),
    fields,
    dataNote,
    about,
    el('div', { class: 'configurator-actions' }, button, status),
    error,
  );
  area.hidden = false;

  const configuration = (): Configuration => JSON.parse(area.dataset.configuration ?? '{}') as Configuration;
  const describe = () => {
    const widget = packagedWidget(configuration());
    dataNote.textContent =
      widget.data === undefined
        ? ''
        : widget.replacedSrc !== undefined
          ? messages.text('packageSrcReplaced', { src: widget.replacedSrc, tag: widget.tag })
          : messages.text('packageExample');
    dataNote.hidden = widget.data === undefined;
  };
  area.addEventListener('configurator-change', describe);
  describe();

  const sayError = (text: string | null) => {
    error.hidden = text === null;
    error.textContent = text ?? '';
    if (text === null) button.removeAttribute('aria-describedby');
    else button.setAttribute('aria-describedby', error.id);
  };
  const checkPassMark = () => {
    const value = readPassMark(passMark.value);
    passRow.mark(
      value === undefined ? messages.text('packagePassMarkRefused', { got: passMark.value.slice(0, 40) }) : null,
    );
    return value;
  };
  passMark.addEventListener('input', checkPassMark);

  const listUrl = new URL('package/files.json', base).href;
  let listed: Promise<RuntimeList> | undefined;
  const runtimeList = () =>
    (listed ??= fetch(listUrl).then(async (response) => {
      if (!response.ok) throw new Error(`${listUrl}: HTTP ${response.status}`);
      return (await response.json()) as RuntimeList;
    }));
  const megabytes = (list: RuntimeList) => Math.round(list.files.reduce((sum, file) => sum + file.size, 0) / 1e5) / 10;
  // The list is small; the files it names are fetched only on Download.
  runtimeList().then(
    (list) => (about.textContent = messages.text('packageAbout', { megabytes: megabytes(list) })),
    () => {
      listed = undefined; // said at the button when the author clicks Download
    },
  );

  const fetchFile = async (path: string): Promise<Uint8Array> => {
    const url = new URL(`package/${path}`, base).href;
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  };

  button.addEventListener('click', async () => {
    const mark = checkPassMark();
    sayError(null);
    status.textContent = '';
    if (mark === undefined) {
      passMark.focus();
      return;
    }
    button.disabled = true;
    try {
      let list: RuntimeList;
      let files: Record<string, Uint8Array>;
      try {
        list = await runtimeList();
        status.textContent = messages.text('packageFetching', { megabytes: megabytes(list) });
        const fetched = await Promise.all(list.files.map(async ({ path }) => [path, await fetchFile(path)] as const));
        files = Object.fromEntries(fetched);
      } catch (problem) {
        listed = undefined;
        status.textContent = '';
        sayError(messages.text('packageFetchFailed', { reason: (problem as Error).message }));
        return;
      }
      const { replacedSrc: _replaced, ...widget } = packagedWidget(configuration());
      const courseTitle = title.value.trim() || DEFAULT_TITLE;
      const chosen = standard.value as Standard;
      const zip = coursePackage({
        settings: { standard: chosen, passMark: mark, title: courseTitle },
        page: generatedPage(courseTitle, [widget], widget.attributes.lang ?? language),
        files,
      });
      const name = `${identifier(courseTitle)}-${chosen}.zip`;
      save(zip, name);
      status.textContent = messages.text('packageMade', {
        file: name,
        kilobytes: Math.round(zip.length / 1024),
        count: list.files.length + 2,
      });
    } catch (problem) {
      status.textContent = '';
      sayError(messages.text('packageFailed', { reason: (problem as Error).message }));
    } finally {
      button.disabled = false;
    }
  });
}

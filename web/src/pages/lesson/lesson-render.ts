// Turns the lesson data (sections.ts) into the page: headings, prose with live
// numbers, formulas, code listings and widgets. `numbers` may be filled in later (main.ts).
// Headings and captions come from the lesson catalog; prose in another language than the page's
// is marked with its lang. Code and display formulas keep dir="ltr" in a right-to-left page.
import type { Block, Section } from './sections';
import type { LiveNumbers } from '../../common/live-format';
import { textAround, type Messages } from '../../common/messages';
import type { LessonData } from './lesson-data';
import { renderLiveTex, renderRich } from '../../common/rich-text';
import { otherSeedRuns, recordedCueRuns } from '../../common/recorded-runs';
import { giveLessonData } from './lesson-data';
import { routeVariant, shownRoute } from './shown-run';
import { routeTable } from '../../widgets/shared/route-table';
import { el } from '../../widgets/element/base';
import { painted } from './frames';
import attentionHeader from '../../../../core/include/attn/attention.hpp?raw';
import attentionSource from '../../../../core/src/attention.cpp?raw';

// The function the page runs, cut from the core's own sources so the listing cannot drift: the
// weights from the header, then the line of attention() that multiplies them by the values
// (product_into: Eigen's product natively, a SIMD128 kernel in WebAssembly).
function coreListing(): string {
  const start = attentionHeader.indexOf('template <typename Scalar>\nMatrixOf<Scalar> attention_weights_unchecked');
  const end = attentionHeader.indexOf('\n}\n', start);
  const output = attentionSource
    .split('\n')
    .find((line) => line.includes('product_into(result.weights, value, result.output)'));
  if (start < 0 || end < start || !output)
    throw new Error('the attention listing is no longer where lesson-render.ts looks for it');
  return `${attentionHeader.slice(start, end + 2)}\n// then, in attention() (core/src/attention.cpp):\n${output.trim()}`;
}

/** How the page says things: its messages, the locale of its numbers, the language of its prose. */
export interface LessonView {
  messages: Messages;
  /** the locale live numbers are written in */
  locale: string;
  /** the prose's language when it is not the page's (the prose is then marked with it) */
  proseLang?: string;
  /** the quiz and exercises in the page's language (lesson-data.ts) */
  data?: LessonData;
}

function renderBlock(block: Block, numbers: LiveNumbers, view: LessonView): HTMLElement {
  const rich = (text: string) => renderRich(text, numbers, view.locale);
  const prose: Record<string, string> = view.proseLang ? { lang: view.proseLang } : {};
  switch (block.kind) {
    case 'p': {
      const p = el('p', prose, rich(block.text));
      return block.route ? routeVariant(p, block.route) : p;
    }
    case 'note':
      return el('p', { class: 'note', ...prose }, rich(block.text));
    case 'list':
      return el('ul', prose, ...block.items.map((item) => el('li', {}, rich(item))));
    case 'math': {
      const div = renderLiveTex(block.tex, numbers, true, view.locale);
      div.classList.add('math-display');
      div.dir = 'ltr';
      return div;
    }
    case 'code': {
      const source = block.source === 'attention-core' ? coreListing() : block.source;
      const caption =
        block.source === 'attention-core'
          ? textAround(view.messages, block.caption, {
              header: el('code', {}, 'core/include/attn/attention.hpp'),
              source: el('code', {}, 'core/src/attention.cpp'),
            })
          : [view.messages.text(block.caption)];
      return el(
        'figure',
        { class: 'code' },
        el('pre', { tabindex: '0', dir: 'ltr', lang: 'en' }, el('code', {}, source)),
        el('figcaption', {}, ...caption),
      );
    }
    case 'route-table': {
      const runs = [recordedCueRuns()?.[1], ...otherSeedRuns()].filter((r) => r !== undefined);
      if (!runs.length) return el('p', { class: 'note' }, view.messages.text('noRecordedRuns'));
      const columns = runs.map((r) => ({
        title: view.messages.text('seedColumn', { seed: r.config.seed }),
        route: r.route,
        heads: r.config.heads,
      }));
      const caption = view.messages.text(block.caption);
      // Focusable, so keyboard users can scroll the table sideways on a narrow screen.
      return el(
        'div',
        { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': caption, 'data-route-runs': '' },
        routeTable(columns, caption, view.messages),
      );
    }
    case 'details': {
      const details = el('details', { class: 'aside' }, el('summary', prose, rich(block.summary)));
      for (const inner of block.blocks) details.append(renderBlock(inner, numbers, view));
      return details;
    }
    case 'panel': {
      const heading = el('h3', prose, rich(block.title));
      const panel = el('aside', { class: 'panel', 'aria-label': block.title, ...prose }, heading);
      for (const inner of block.blocks) panel.append(renderBlock(inner, numbers, view));
      return panel;
    }
    case 'widget': {
      const widget = document.createElement(block.tag);
      // Its code is loaded as the reader nears it (autoload.ts), not with the page.
      widget.setAttribute('loading', 'lazy');
      for (const [name, value] of Object.entries(block.attrs ?? {})) widget.setAttribute(name, value);
      if (block.tag === 'attn-flowchart') widget.setAttribute('route', shownRoute());
      giveLessonData(widget, numbers, view.data);
      const figure = el('figure', { class: 'widget' }, widget);
      if (block.caption) figure.append(el('figcaption', prose, rich(block.caption)));
      return figure;
    }
  }
}

/**
 * Milliseconds of rendering per frame after the first section: the reader can scroll and type in
 * between, and each frame lays out only what one slice added (laying out a block takes a few
 * times as long as building it).
 */
const SLICE_MS = 3;

/** The contents: a link to each section, titled from the lesson catalog. */
export function renderContents(toc: HTMLElement, sections: Section[], view: LessonView): void {
  const link = (section: Section) => el('a', { href: `#${section.id}` }, view.messages.text(section.title));
  toc.append(...sections.map((section) => el('li', {}, link(section))));
}

/** A section's element with its heading (the caller appends the blocks). */
function sectionElement(section: Section, view: LessonView): HTMLElement {
  const headingId = `${section.id}-title`;
  const heading = el('h2', { id: headingId }, view.messages.text(section.title));
  return el('section', { id: section.id, 'aria-labelledby': headingId }, heading);
}

/** A whole section at once. */
export function renderSection(section: Section, numbers: LiveNumbers, view: LessonView): HTMLElement {
  const node = sectionElement(section, view);
  for (const block of section.blocks) node.append(renderBlock(block, numbers, view));
  return node;
}

/**
 * Renders `sections` into `main` and the contents into `toc`: the contents and the first section
 * at once (the first screen, painted before the rest is built), then the other sections a few
 * blocks per frame, each appended below what is there, so nothing on screen moves. With `kept`,
 * the contents and the first section are in the page already (made at build time:
 * first-screen.ts) and stay as they are. `placed` is called after each task that added blocks
 * (new widgets need their reserved size). `main` is aria-busy until the promise settles (every
 * section in place) and data-rendered from then on.
 */
export async function renderLesson(
  main: HTMLElement,
  toc: HTMLElement,
  sections: Section[],
  numbers: LiveNumbers,
  view: LessonView,
  placed: () => void,
  kept = false,
): Promise<void> {
  main.setAttribute('aria-busy', 'true');
  try {
    const [first, ...rest] = sections;
    if (!kept) {
      renderContents(toc, sections, view);
      main.append(renderSection(first, numbers, view));
    }
    placed();
    await painted();
    let sliceStart = performance.now();
    for (const section of rest) {
      const node = sectionElement(section, view);
      main.append(node);
      for (const block of section.blocks) {
        if (performance.now() - sliceStart > SLICE_MS) {
          placed();
          await painted();
          sliceStart = performance.now();
        }
        node.append(renderBlock(block, numbers, view));
      }
    }
    placed();
  } finally {
    main.removeAttribute('aria-busy');
    main.dataset.rendered = '';
  }
}

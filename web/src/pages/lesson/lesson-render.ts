// Turns the lesson data (sections.ts) into the page: headings, prose with live
// numbers, formulas, code listings and widgets. `numbers` may be filled in later (main.ts).
import type { Block, Section } from './sections';
import type { LiveNumbers } from '../../common/live-format';
import { renderLiveTex, renderRich } from '../../common/rich-text';
import { otherSeedRuns, recordedCueRuns } from '../../common/recorded-runs';
import { giveLessonData } from './lesson-data';
import { routeVariant, shownRoute } from './shown-run';
import { routeTable } from '../../widgets/shared/route-table';
import { el } from '../../widgets/element/base';
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

function renderBlock(block: Block, numbers: LiveNumbers): HTMLElement {
  switch (block.kind) {
    case 'p': {
      const p = el('p', {}, renderRich(block.text, numbers));
      return block.route ? routeVariant(p, block.route) : p;
    }
    case 'note':
      return el('p', { class: 'note' }, renderRich(block.text, numbers));
    case 'list':
      return el('ul', {}, ...block.items.map((item) => el('li', {}, renderRich(item, numbers))));
    case 'math': {
      const div = renderLiveTex(block.tex, numbers, true);
      div.classList.add('math-display');
      return div;
    }
    case 'code': {
      const source = block.source === 'attention-core' ? coreListing() : block.source;
      return el(
        'figure',
        { class: 'code' },
        el('pre', { tabindex: '0' }, el('code', {}, source)),
        el('figcaption', {}, block.caption),
      );
    }
    case 'route-table': {
      const runs = [recordedCueRuns()?.[1], ...otherSeedRuns()].filter((r) => r !== undefined);
      if (!runs.length) return el('p', { class: 'note' }, 'This build has no recorded runs.');
      const columns = runs.map((r) => ({ title: `seed ${r.config.seed}`, route: r.route, heads: r.config.heads }));
      // Focusable, so keyboard users can scroll the table sideways on a narrow screen.
      return el(
        'div',
        { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': block.caption, 'data-route-runs': '' },
        routeTable(columns, block.caption),
      );
    }
    case 'details': {
      const details = el('details', { class: 'aside' }, el('summary', {}, renderRich(block.summary, numbers)));
      for (const inner of block.blocks) details.append(renderBlock(inner, numbers));
      return details;
    }
    case 'panel': {
      const heading = el('h3', {}, renderRich(block.title, numbers));
      const panel = el('aside', { class: 'panel', 'aria-label': block.title }, heading);
      for (const inner of block.blocks) panel.append(renderBlock(inner, numbers));
      return panel;
    }
    case 'widget': {
      const widget = document.createElement(block.tag);
      for (const [name, value] of Object.entries(block.attrs ?? {})) widget.setAttribute(name, value);
      if (block.tag === 'attn-flowchart') widget.setAttribute('route', shownRoute());
      giveLessonData(widget, numbers);
      const figure = el('figure', { class: 'widget' }, widget);
      if (block.caption) figure.append(el('figcaption', {}, renderRich(block.caption, numbers)));
      return figure;
    }
  }
}

export function renderLesson(main: HTMLElement, toc: HTMLElement, sections: Section[], numbers: LiveNumbers): void {
  for (const section of sections) {
    const headingId = `${section.id}-title`;
    const node = el(
      'section',
      { id: section.id, 'aria-labelledby': headingId },
      el('h2', { id: headingId }, section.title),
    );
    for (const block of section.blocks) node.append(renderBlock(block, numbers));
    main.append(node);
    toc.append(el('li', {}, el('a', { href: `#${section.id}` }, section.title)));
  }
}

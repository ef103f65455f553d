// Turns the lesson data (lesson/sections.ts) into the page: headings, prose with live
// numbers, formulas, code listings and widgets.
import type { Block, Section } from './lesson/sections';
import type { LiveNumbers } from './format';
import { renderLiveTex, renderRich } from './rich-text';
import { el } from './widgets/base';
import attentionHeader from '../../core/include/attn/attention.hpp?raw';

// The function the page runs, cut from the core's own header so the listing cannot drift.
function coreListing(): string {
  const start = attentionHeader.indexOf('template <typename Scalar>\nMatrixOf<Scalar> attention_weights_unchecked');
  const end = attentionHeader.indexOf('\n}\n', start);
  return start >= 0 && end > start ? attentionHeader.slice(start, end + 2) : attentionHeader;
}

function renderBlock(block: Block, numbers: LiveNumbers): HTMLElement {
  switch (block.kind) {
    case 'p':
      return el('p', {}, renderRich(block.text, numbers));
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
      return el('figure', { class: 'code' }, el('pre', { tabindex: '0' }, el('code', {}, source)), el('figcaption', {}, block.caption));
    }
    case 'widget': {
      const widget = document.createElement(block.tag);
      for (const [name, value] of Object.entries(block.attrs ?? {})) widget.setAttribute(name, value);
      const figure = el('figure', { class: 'widget' }, widget);
      if (block.caption) figure.append(el('figcaption', {}, renderRich(block.caption, numbers)));
      return figure;
    }
  }
}

export function renderLesson(main: HTMLElement, toc: HTMLElement, sections: Section[], numbers: LiveNumbers): void {
  for (const section of sections) {
    const headingId = `${section.id}-title`;
    const node = el('section', { id: section.id, 'aria-labelledby': headingId }, el('h2', { id: headingId }, section.title));
    for (const block of section.blocks) node.append(renderBlock(block, numbers));
    main.append(node);
    toc.append(el('li', {}, el('a', { href: `#${section.id}` }, section.title)));
  }
}

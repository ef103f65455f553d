// The embedding guide's configurator (embed.html, "Configure a widget"): the author picks a
// widget and sets its attributes with controls made from its contract and the core's configs
// (configurator-controls.ts); a live preview shows the real element with those attributes, and
// the element's HTML and the iframe that frames it are written out to copy. Only attributes that
// differ from their default are written. Its words are the `configurator` catalog, in the guide's
// ?lang= (the guide's own text stays English).
//
// For what the page adds around it, #configurator-package carries the current configuration in
// data-configuration (JSON: { tag, attributes: {name: text}, element, iframe }) and receives a
// `configurator-change` event with the same detail whenever it changes.
import type { Configs } from '../../core';
import { languageOf } from '../../common/language';
import { messagesIn, type Messages } from '../../common/messages';
import configuratorMessages from 'attn-messages:configurator';
import commonMessages from 'attn-messages:common';
import { el } from '../../widgets/element/base';
import { AuthorError, COMMON_ATTRIBUTES, type WidgetContract } from '../../widgets/element/contract';
import { CONTRACTS } from '../../widgets/element/contracts';
import frameHeights from '../../../recipes/frame-heights.json';
import { buildControl, type Control } from './configurator-controls';
import { EXAMPLES, renderPackageDownload } from './configurator-package';
import { exampleLanguage } from './languages';
import './configurator.css';

/** The configuration as the page around it reads it. */
export interface Configuration {
  tag: string;
  /** attribute name -> its text ("" for a boolean written bare), only those that differ from the default */
  attributes: Record<string, string>;
  element: string;
  iframe: string;
}

const escapeHtml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/** `<tag a="1" causal></tag>`: the element with its attributes, as HTML. */
export function elementHtml(tag: string, attributes: Record<string, string>): string {
  const written = Object.entries(attributes).map(([name, text]) =>
    text === '' ? ` ${name}` : ` ${name}="${escapeHtml(text)}"`,
  );
  return `<${tag}${written.join('')}></${tag}>`;
}

/** The framed form: embed.html?widget=TAG and the attributes as query parameters, at its documented height. */
export function iframeHtml(
  base: string,
  tag: string,
  attributes: Record<string, string>,
  title: string,
  parentOrigin?: string,
): string {
  const query = new URLSearchParams({ widget: tag, ...attributes });
  if (parentOrigin) query.set('parent-origin', parentOrigin);
  const heights = (frameHeights.heights as Record<string, number[]>)[tag];
  return (
    `<iframe src="${escapeHtml(`${base}embed.html?${query}`)}"\n` +
    `        title="${escapeHtml(title)}" width="100%" height="${heights.at(-1)}"></iframe>\n` +
    `<script src="${base}attention-lab-frames.js" defer></script>`
  );
}

/** Is `text` an origin (scheme, host and port, nothing more), as the framed page requires of parent-origin? */
export function isOrigin(text: string): boolean {
  try {
    const { origin } = new URL(text);
    return origin === text && origin !== 'null';
  } catch {
    return false;
  }
}

/** The widget's name in the configurator's words. */
const nameOf = (messages: Messages, contract: WidgetContract) => messages.text(`name${contract.className}`);

/** Copies `pre`'s text; where the browser refuses, selects it and says so in `status`. */
async function copy(pre: HTMLElement, status: HTMLElement, messages: Messages): Promise<void> {
  try {
    await navigator.clipboard.writeText(pre.textContent ?? '');
    status.textContent = messages.text('copied');
  } catch {
    const range = document.createRange();
    range.selectNodeContents(pre);
    const selection = getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    pre.focus();
    status.textContent = messages.text('copyRefused');
  }
}

/** An output: its heading, the code, a Copy button and the place where copying is said. */
function output(id: string, heading: string, copyLabel: string, messages: Messages) {
  const code = el('code', {});
  const pre = el('pre', { id, tabindex: '0' }, code);
  const status = el('p', { class: 'configurator-status', role: 'status' });
  const note = el('p', { class: 'configurator-note' });
  const button = el('button', { type: 'button', class: 'configurator-copy' }, copyLabel);
  button.addEventListener('click', () => void copy(pre, status, messages));
  const block = el(
    'section',
    { class: 'configurator-output', 'aria-labelledby': `${id}-heading` },
    el('h3', { id: `${id}-heading` }, heading),
    pre,
    el('div', { class: 'configurator-actions' }, button, status),
    note,
  );
  return { block, code, note, status };
}

/**
 * Draws the configurator into `host`; `base` is the address of the build's files (the guide's
 * folder), as the iframe form names them.
 */
export async function renderConfigurator(host: HTMLElement, configs: Configs, base: string): Promise<void> {
  const asked = exampleLanguage();
  const messages = await messagesIn(
    asked ?? languageOf(document.documentElement),
    configuratorMessages,
    commonMessages,
  );
  if (asked) host.lang = asked;

  const picker = el('select', { id: 'configurator-widget' });
  picker.replaceChildren(
    ...CONTRACTS.map((c) =>
      el('option', { value: c.tag }, messages.text('widgetOption', { name: nameOf(messages, c), tag: c.tag })),
    ),
  );
  const form = el('form', { class: 'configurator-controls', novalidate: '' });
  form.addEventListener('submit', (event) => event.preventDefault());
  const previewHost = el('div', { class: 'configurator-preview' });
  const previewNote = el('p', { class: 'configurator-note', hidden: '' });
  const leftOut = el('p', { class: 'configurator-left-out', role: 'status' });
  const elementOut = output(
    'configurator-element',
    messages.text('elementHeading'),
    messages.text('copyElement'),
    messages,
  );
  const iframeOut = output(
    'configurator-iframe',
    messages.text('iframeHeading'),
    messages.text('copyIframe'),
    messages,
  );
  // The frame's own parameter: the one origin that receives its messages (and, for the quiz and
  // the exercises, the only way their answers leave the frame).
  const origin = el('input', {
    id: 'configurator-parent-origin',
    type: 'text',
    inputmode: 'url',
    spellcheck: 'false',
    autocomplete: 'off',
    dir: 'ltr',
    placeholder: 'https://course.example.org',
    'aria-describedby': 'configurator-parent-origin-hint',
  });
  const originError = el('p', { class: 'configurator-error', id: 'configurator-parent-origin-error', hidden: '' });
  iframeOut.code.parentElement!.before(
    el(
      'div',
      { class: 'configurator-row' },
      el('label', { for: origin.id }, el('code', {}, 'parent-origin')),
      origin,
      el('p', { class: 'configurator-hint', id: 'configurator-parent-origin-hint' }, messages.text('parentOriginHint')),
      originError,
    ),
  );
  // The course package's download (configurator-package.ts) fills this.
  const packageArea = el(
    'section',
    {
      id: 'configurator-package',
      class: 'configurator-output',
      'aria-labelledby': 'configurator-package-heading',
      hidden: '',
    },
    el('h3', { id: 'configurator-package-heading' }, messages.text('packageHeading')),
  );

  host.replaceChildren(
    el('div', { class: 'configurator-pick' }, el('label', { for: picker.id }, messages.text('widget')), picker),
    el(
      'div',
      { class: 'configurator-body' },
      form,
      el(
        'section',
        { class: 'configurator-preview-area', 'aria-labelledby': 'configurator-preview-heading' },
        el('h3', { id: 'configurator-preview-heading' }, messages.text('previewHeading')),
        previewNote,
        previewHost,
      ),
    ),
    el('div', { class: 'configurator-outputs' }, leftOut, elementOut.block, iframeOut.block, packageArea),
  );

  let contract = CONTRACTS[0];
  let controls: Control[] = [];
  let preview: HTMLElement | undefined;
  let previewData: string | undefined;

  /** The widget in the preview: made anew when the example data it is given changes. */
  const previewWith = (data: string | undefined) => {
    if (preview && preview.localName === contract.tag && previewData === data) return preview;
    preview = document.createElement(contract.tag);
    previewData = data;
    if (data !== undefined) preview.append(el('script', { type: 'application/json' }, JSON.stringify(EXAMPLES[data])));
    previewHost.replaceChildren(preview);
    return preview;
  };

  const update = () => {
    const texts = new Map<string, string | null>();
    const readAll = () => {
      for (const control of controls) {
        const read = control.read();
        texts.set(control.spec.name, read instanceof AuthorError ? null : read);
      }
    };
    readAll();
    for (const control of controls) control.follow?.(texts);
    readAll();
    const attributes: Record<string, string> = {};
    const refused: string[] = [];
    for (const control of controls) {
      const read = control.read();
      control.mark(read instanceof AuthorError ? read : null);
      if (read instanceof AuthorError) refused.push(control.spec.name);
      else if (read !== null) attributes[control.spec.name] = read;
    }

    // The preview: the author's data cannot load from here, so a widget that takes data shows the example.
    const schema = contract.schema;
    const needsExample = schema !== undefined && (schema !== 'table' || attributes.src !== undefined);
    const widget = previewWith(needsExample ? schema : undefined);
    previewNote.hidden = !needsExample;
    previewNote.textContent = needsExample
      ? messages.text('previewExample', { file: `schemas/examples/${schema}.example.json` })
      : '';
    for (const control of controls) {
      const name = control.spec.name;
      const text = attributes[name];
      if (text === undefined) widget.removeAttribute(name);
      else if (widget.getAttribute(name) !== text) widget.setAttribute(name, text);
    }

    const element = elementHtml(contract.tag, attributes);
    const declared = origin.value.trim();
    const originRefused = declared !== '' && !isOrigin(declared);
    originError.hidden = !originRefused;
    originError.textContent = originRefused ? messages.text('parentOriginRefused', { got: declared.slice(0, 80) }) : '';
    if (originRefused) {
      origin.setAttribute('aria-invalid', 'true');
      origin.setAttribute('aria-describedby', `${originError.id} configurator-parent-origin-hint`);
    } else {
      origin.removeAttribute('aria-invalid');
      origin.setAttribute('aria-describedby', 'configurator-parent-origin-hint');
    }
    const iframe = iframeHtml(
      base,
      contract.tag,
      attributes,
      nameOf(messages, contract),
      originRefused ? undefined : declared,
    );
    elementOut.code.textContent = element;
    iframeOut.code.textContent = iframe;
    elementOut.note.textContent =
      schema !== undefined && schema !== 'table' && attributes.src === undefined
        ? `${messages.text('elementNote')} ${messages.text('elementData', { file: `schemas/${schema}.schema.json` })}`
        : messages.text('elementNote');
    const [narrow, wide] = frameHeights.widths;
    const heights = (frameHeights.heights as Record<string, number[]>)[contract.tag];
    iframeOut.note.textContent = messages.text('iframeHeights', {
      wide,
      narrow,
      narrowHeight: heights[0],
    });
    for (const out of [elementOut, iframeOut]) out.status.textContent = '';
    const configuration: Configuration = { tag: contract.tag, attributes, element, iframe };
    if (originRefused) refused.push('parent-origin');
    leftOut.textContent = refused.length ? messages.text('leftOut', { names: refused.join(', ') }) : '';
    packageArea.dataset.configuration = JSON.stringify(configuration);
    packageArea.dispatchEvent(new CustomEvent('configurator-change', { detail: configuration }));
  };

  /** The form for the widget picked: its own attributes, then those every widget takes. */
  const pick = (tag: string) => {
    contract = CONTRACTS.find((c) => c.tag === tag) ?? CONTRACTS[0];
    const own = contract.attributes.map((spec) =>
      buildControl(contract.tag, spec, configs, messages, contract.attributes),
    );
    const common = COMMON_ATTRIBUTES.map((spec) =>
      buildControl(contract.tag, spec, configs, messages, contract.attributes),
    );
    controls = [...own, ...common];
    const legend = (text: string) => el('legend', {}, text);
    form.replaceChildren(
      el(
        'fieldset',
        {},
        legend(messages.text('legendOwn', { tag: `<${contract.tag}>` })),
        ...(own.length ? own.map((c) => c.row) : [el('p', { class: 'configurator-hint' }, messages.text('noOwn'))]),
        el(
          'p',
          { class: 'configurator-reference' },
          el('a', { href: `#ref-${contract.tag}` }, messages.text('reference', { tag: `<${contract.tag}>` })),
        ),
      ),
      el('fieldset', {}, legend(messages.text('legendCommon')), ...common.map((c) => c.row)),
    );
    update();
  };

  picker.addEventListener('change', () => pick(picker.value));
  form.addEventListener('input', update);
  form.addEventListener('change', update);
  origin.addEventListener('input', update);
  pick(picker.value);
  renderPackageDownload(packageArea, base, messages, asked ?? languageOf(document.documentElement));
}

// The widgets' contracts (contracts.ts) as documentation, in the three forms made from them: the
// rows of the embedding guide's reference tables (guide-reference.ts draws them), the Custom
// Elements Manifest (custom-elements.json, what editors and component catalogues read) and the
// package's TypeScript declarations. The last two are written at build time by
// scripts/build-package.mjs; all three use the rows below, so they cannot disagree.
// Pure functions, no DOM.
import type { Configs } from '../../core';
import {
  attributesOf,
  defaultText,
  defaultValue,
  descriptionOf,
  eventsOf,
  propertyName,
  propertyType,
  typeText,
  valuePhrase,
  type EventSpec,
  type WidgetContract,
} from './contract';
import { CONTRACTS } from './contracts';

export interface AttributeRow {
  name: string;
  /** an HTML global attribute (lang): HTMLElement's own property reflects it */
  global: boolean;
  /** the property that reflects it (camelCase) */
  property: string;
  /** TypeScript notation of what the property reads (undefined aside) */
  propertyType: string;
  /** the property's default as a JavaScript value (JSON); '' when it has none */
  propertyDefault: string;
  /** TypeScript notation of what it is read as */
  type: string;
  /** as HTML writes it; '' when it has none */
  default: string;
  /** what a value must be */
  values: string;
  /** the key in the URL hash under the state-key; '' when the hash does not keep it */
  hashKey: string;
  description: string;
}

export interface EventRow {
  name: string;
  /** "{ query: number[]; … }" */
  detailType: string;
  /** "query (number[]): the query [x, y]; …", '' for none */
  detail: string;
  description: string;
}

export function attributeRows(contract: WidgetContract, configs: Configs): AttributeRow[] {
  return attributesOf(contract).map((spec) => ({
    name: spec.name,
    global: 'global' in spec && spec.global === true,
    property: propertyName(spec.name),
    propertyType: propertyType(spec, configs),
    propertyDefault: JSON.stringify(defaultValue(spec, configs)) ?? '',
    type: typeText(spec, configs),
    default: defaultText(spec, configs) ?? '',
    values: valuePhrase(spec, configs),
    hashKey: spec.hashKey ?? '',
    description: descriptionOf(spec, configs),
  }));
}

const detailType = (event: EventSpec) =>
  event.detail.length ? `{ ${event.detail.map((f) => `${f.name}: ${f.type}`).join('; ')} }` : 'null';

export function eventRows(contract: WidgetContract): EventRow[] {
  return eventsOf(contract).map((event) => ({
    name: event.name,
    detailType: detailType(event),
    detail: event.detail.map((f) => `${f.name} (${f.type}): ${f.description}`).join('; '),
    description: event.description,
  }));
}

/** An attribute's description in custom-elements.json: the guide's description, values and hash key in one text. */
export function manifestAttributeDescription(row: AttributeRow): string {
  return `${row.description} Value: ${row.values}.${row.hashKey ? ` The URL hash keeps it as <state-key>.${row.hashKey}.` : ''}`;
}

/** What every reflecting property does, said once in custom-elements.json and the types. */
export const PROPERTY_NOTE =
  "Reflects the attribute: reads the value the widget uses (the reader's, where they changed it in the widget; else the attribute; else its default), undefined where the attribute does not parse or, for an attribute whose default is the core's, until the core has loaded; setting it writes the attribute (null or undefined removes it; for a boolean, true writes it without a value).";

/** The same for an event, with its detail fields. */
export function manifestEventDescription(row: EventRow): string {
  return row.detail ? `${row.description} Detail: ${row.detail}.` : row.description;
}

/** custom-elements.json (schema version 2.1.0) for the package's entry module. */
export function customElementsManifest(configs: Configs, modulePath: string): object {
  return {
    schemaVersion: '2.1.0',
    readme: 'README.md',
    modules: [
      {
        kind: 'javascript-module',
        path: modulePath,
        description: 'Registers every attention-lab widget and adds their stylesheet to the page.',
        declarations: CONTRACTS.map((contract) => ({
          kind: 'class',
          customElement: true,
          name: contract.className,
          tagName: contract.tag,
          description:
            contract.description +
            (contract.schema ? ` Author data: schemas/${contract.schema}.schema.json.` : '') +
            ` Each attribute has a property, its name in camelCase (fieldName). ${PROPERTY_NOTE}`,
          superclass: { name: 'HTMLElement' },
          attributes: attributeRows(contract, configs).map((row) => ({
            name: row.name,
            fieldName: row.property,
            type: { text: row.type },
            ...(row.default ? { default: row.default } : {}),
            description: manifestAttributeDescription(row),
          })),
          events: eventRows(contract).map((row) => ({
            name: row.name,
            type: { text: `CustomEvent<${row.detailType}>` },
            description: manifestEventDescription(row),
          })),
          members: [
            ...attributeRows(contract, configs)
              .filter((row) => !row.global)
              .map((row) => ({
                kind: 'field',
                name: row.property,
                type: { text: `${row.propertyType} | undefined` },
                ...(row.propertyDefault ? { default: row.propertyDefault } : {}),
                description: row.description,
                attribute: row.name,
                reflects: true,
              })),
            ...(contract.properties ?? []).map((p) => ({
              kind: 'field',
              name: p.name,
              type: { text: p.type },
              description: p.description,
            })),
          ],
        })),
        exports: CONTRACTS.map((contract) => ({
          kind: 'custom-element-definition',
          name: contract.tag,
          declaration: { name: contract.className, module: modulePath },
        })),
      },
    ],
  };
}

const pascal = (name: string) =>
  name
    .replace(/^attn-/, '')
    .split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

/** The name of an event's detail type: "QuizAnsweredDetail", or with the class in front where several widgets share the event. */
function detailTypeName(contract: WidgetContract, event: EventSpec): string {
  const shared = CONTRACTS.filter((c) => c.events.some((e) => e.name === event.name)).length > 1;
  return `${shared ? contract.className : ''}${pascal(event.name)}Detail`;
}

const doc = (text: string, indent = '') => `${indent}/** ${text.replace(/\*\//g, '*\\/')} */\n`;

/** The package's attention-lab.d.ts: an element interface per widget, its events' detail types, the tag and event maps. */
export function typeDeclarations(configs: Configs, version: string): string {
  const out: string[] = [
    `// attention-lab ${version}: the widgets' types, generated from their contracts at build time.\n`,
    `import type { CueRouteLabel, ProbeIntervention, ProbeInterventionResult, XapiAgent, XapiStatement } from './public-types';
import type { CueAnalysis, CueRoute } from './core-types';
export type * from './public-types';
export type { CueAnalysis, CueRoute, RouteTest } from './core-types';

/**
 * Your own wording of some messages of one namespace (a widget's, or "common") in one language,
 * used by every widget drawn from then on; a language no catalog ships becomes one the widgets
 * speak. A string takes the message's arguments as {name}; a function gets them all (plurals).
 * The keys are those of messages/en/<namespace>.json in this package.
 */
export declare function overrideMessages(
  language: string,
  namespace: string,
  messages: Record<string, string | ((params: Record<string, unknown>) => string)>,
): void;

/** Where widgets keep the reader's work (persist="on": localStorage; a course package: the LMS). */
export interface ProgressStore {
  /** The value saved under \`key\` (a widget's id, else its tag and place), or undefined. */
  load(key: string): unknown;
  /** Saves \`value\` (JSON-able) under \`key\`; throws when it cannot (the widget says so). */
  save(key: string, value: unknown): void;
  /** Forgets what is saved under \`key\`. */
  remove(key: string): void;
}

/**
 * Makes every widget on the page keep the reader's work in \`store\` (undefined: back to
 * localStorage for widgets with persist="on"). Call it before the widgets draw.
 */
export declare function setProgressStore(store: ProgressStore | undefined): void;

`,
  ];
  const globalEvents = new Map<string, string[]>();
  const tags: string[] = [];
  for (const contract of CONTRACTS) {
    const element = `${contract.className}Element`;
    const map: string[] = [];
    for (const event of contract.events) {
      const name = detailTypeName(contract, event);
      out.push(doc(`detail of ${event.name} from <${contract.tag}>: ${event.description}`));
      out.push(
        `export interface ${name} {\n${event.detail.map((f) => `${doc(f.description, '  ')}  ${f.name}: ${f.type};\n`).join('')}}\n\n`,
      );
      map.push(`  '${event.name}': CustomEvent<${name}>;\n`);
      globalEvents.set(event.name, [...(globalEvents.get(event.name) ?? []), name]);
    }
    map.push(`  'attn-ready': CustomEvent<null>;\n`);
    out.push(`export interface ${contract.className}EventMap extends HTMLElementEventMap {\n${map.join('')}}\n\n`);
    const attributes = attributeRows(contract, configs).map(
      (row) =>
        ` * - ${row.name}${row.default ? ` (default ${row.default})` : ''}: ${manifestAttributeDescription(row)}\n`,
    );
    const reflecting = attributeRows(contract, configs)
      .filter((row) => !row.global)
      .map(
        (row) =>
          doc(`attribute ${row.name}: ${row.description}`, '  ') +
          `  get ${row.property}(): ${row.propertyType} | undefined;\n` +
          `  set ${row.property}(value: ${row.propertyType} | null | undefined);\n`,
      )
      .join('');
    const properties =
      reflecting +
      (contract.properties ?? [])
        .map((p) => `${doc(p.description, '  ')}  ${p.name}?: ${p.type.replace(/ \| undefined$/, '')};\n`)
        .join('');
    out.push(
      `/**\n * <${contract.tag}>: ${contract.description}\n *\n * Attributes (each reflected by the property in camelCase; ${PROPERTY_NOTE}):\n${attributes.join('').replace(/\*\//g, '*\\/')} */\n`,
    );
    out.push(
      `export interface ${element} extends HTMLElement {\n${properties}` +
        `  addEventListener<K extends keyof ${contract.className}EventMap>(type: K, listener: (this: ${element}, event: ${contract.className}EventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;\n` +
        `  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;\n` +
        `  removeEventListener<K extends keyof ${contract.className}EventMap>(type: K, listener: (this: ${element}, event: ${contract.className}EventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;\n` +
        `  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;\n}\n\n`,
    );
    tags.push(`    '${contract.tag}': ${element};\n`);
  }
  const events = [...globalEvents]
    .map(([name, types]) => `    '${name}': CustomEvent<${types.join(' | ')}>;\n`)
    .join('');
  out.push(
    `declare global {\n  interface HTMLElementTagNameMap {\n${tags.join('')}  }\n` +
      `  /** The widgets' events bubble: a page can listen on document. */\n  interface GlobalEventHandlersEventMap {\n${events}    'attn-ready': CustomEvent<null>;\n  }\n}\n`,
  );
  return out.join('');
}

// The widgets' reference in its three forms comes from the same tables (the contracts): the
// embedding guide's reference, as each engine draws it, says what custom-elements.json says,
// attribute by attribute and event by event. Also: the manifest follows the Custom Elements
// Manifest schema, the package carries the same manifest, and the guide's full examples follow
// the data schemas. Run after `npm run build`: node --test tests/engines/reference.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { Validator } from '@cfworker/json-schema';
import { describeEngines, serveSite } from '../support/engines.mjs';

const root = resolve(import.meta.dirname, '../..');
const read = (path) => readFileSync(resolve(root, path), 'utf8');
const manifest = JSON.parse(read('dist/custom-elements.json'));
const DECLARED = manifest.modules[0].declarations;

test('custom-elements.json follows the Custom Elements Manifest schema, and the package carries the same file', () => {
  const schema = JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve('custom-elements-manifest/schema.json'), 'utf8'),
  );
  const result = new Validator(schema, '7', false).validate(manifest);
  assert.deepEqual(result.errors, []);
  assert.equal(manifest.schemaVersion, '2.1.0');
  assert.equal(read('dist-package/custom-elements.json'), read('dist/custom-elements.json'));
  assert.equal(DECLARED.length, 12); // the lesson's seven figures and demos, the quiz, the exercises, the cue trainer, the step-by-step widget and the probe
});

test('the full examples the guide shows follow their schemas', () => {
  for (const name of ['quiz', 'exercises', 'table']) {
    const schema = JSON.parse(read(`web/src/schemas/${name}.schema.json`));
    const example = JSON.parse(read(`web/src/schemas/examples/${name}.example.json`));
    assert.deepEqual(new Validator(schema, '2020-12', false).validate(example).errors, [], name);
  }
});

let site;
before(async () => {
  site = await serveSite();
});
after(() => site?.close());

describeEngines((session) => {
  test("the guide's reference says what custom-elements.json says, attribute by attribute and event by event", async () => {
    const page = await session.browser.open(`${site.url}embed.html`, { width: 1280, height: 900 });
    await page.waitFor(() => document.querySelectorAll('#widget-reference [data-tag]').length);
    // (entries, not an object: WebKit's WebDriver does not keep an object's key order)
    const entries = await page.run(() =>
      [...document.querySelectorAll('#widget-reference section[data-tag]')].map((section) => {
        const rows = (kind) =>
          [...section.querySelectorAll(`table[data-table="${kind}"] tbody tr`)].map((tr) =>
            [...tr.cells].map((td) => td.textContent),
          );
        return [
          section.dataset.tag,
          { attributes: rows('attributes'), events: rows('events'), properties: rows('properties') },
        ];
      }),
    );
    const guide = Object.fromEntries(entries);
    assert.deepEqual(
      entries.map(([tag]) => tag),
      DECLARED.map((d) => d.tagName),
    );
    for (const d of DECLARED) {
      const shown = guide[d.tagName];
      // [attribute, property, type, default, value, URL hash key, description]
      assert.deepEqual(
        shown.attributes.map(([name]) => name),
        d.attributes.map((a) => a.name),
        `${d.tagName}: attributes`,
      );
      d.attributes.forEach((a, i) => {
        const [, property, type, value0, values, hashKey, description] = shown.attributes[i];
        assert.equal(property, a.fieldName, `${d.tagName} ${a.name}: property`);
        assert.equal(type, a.type.text, `${d.tagName} ${a.name}: type`);
        assert.equal(value0, a.default ?? '—', `${d.tagName} ${a.name}: default`);
        const hash = hashKey === '—' ? '' : ` The URL hash keeps it as <state-key>.${hashKey}.`;
        assert.equal(
          a.description,
          `${description} Value: ${values}.${hash}`,
          `${d.tagName} ${a.name}: description, value and hash key`,
        );
      });
      // [event, detail, description]
      assert.deepEqual(
        shown.events.map(([name]) => name),
        d.events.map((e) => e.name),
        `${d.tagName}: events`,
      );
      d.events.forEach((e, i) => {
        const [, detail, description] = shown.events[i];
        assert.equal(
          e.description,
          detail === '—' ? description : `${description} Detail: ${detail}.`,
          `${d.tagName} ${e.name}`,
        );
        const fields = [...e.type.text.matchAll(/(\w+): ([^;}]+)/g)].map((m) => `${m[1]} (${m[2].trim()})`);
        assert.deepEqual(
          detail === '—' ? [] : detail.split('; ').map((f) => f.replace(/:.*$/, '')),
          fields,
          `${d.tagName} ${e.name}: detail fields and types`,
        );
      });
      // the properties that reflect no attribute (those that do are in the attributes' table)
      assert.deepEqual(
        shown.properties.map(([name, type, description]) => ({ name, type, description })),
        d.members
          .filter((m) => !m.attribute)
          .map((m) => ({ name: m.name, type: m.type.text, description: m.description })),
        `${d.tagName}: properties`,
      );
    }
    assert.deepEqual(await page.problems(), []);
  });
});

// Every front door reads its defaults and limits from the core. A test build of the core with
// every default and limit altered (ATTN_ALTERED_CONFIG, see ATTN_PICK in
// core/include/attn/config.hpp) is put behind each door in turn: the facade in node, the CLI's
// --help and its checks, and the widgets and the embedding guide in Chromium. Each must show
// what the altered core says, for every field whose value the alteration changed (comparing
// today's values alone would pass with a copied constant).
//
// Built by scripts/test: build-altered/ (the CLI) and build-wasm-altered/ (the module, shipped
// and test builds; their JS glue is the same as the normal builds', so only the .wasm changes).
//   ATTN_ALTERED_CLI, ATTN_ALTERED_WASM_DIR override where they are.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { facade, root, wasmBinary } from '../wasm/helpers.mjs';
import { closeSite, openSite } from '../support/chromium.mjs';

const cli = path.resolve(root, process.env.ATTN_ALTERED_CLI ?? 'build-altered/cli/attention-lab');
const wasmDir = path.resolve(root, process.env.ATTN_ALTERED_WASM_DIR ?? 'build-wasm-altered/wasm');

const normal = await facade.loadCore({ wasmBinary: wasmBinary() });
const altered = await facade.loadCore({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'test/attention_lab.wasm')) });

const COMMANDS = {
  scaleSweep: 'scale',
  maskDemo: 'masks',
  headsDemo: 'heads',
  pitfall: 'pitfalls',
  cueTrain: 'cue',
  attentionSteps: 'steps',
  intervention: 'intervene',
};
// Flags a command needs before it checks anything else.
const REQUIRED = { intervene: ['--weights', 'no-such-file.bin'] };

/** [config, field, altered default, normal default] for every field, and whether anything of it changed. */
function fieldsOf(name) {
  const a = altered.configs[name],
    n = normal.configs[name];
  return a.fields.map((field, i) => {
    const was = n.fields[i];
    const value = a.defaults[field.key],
      old = n.defaults[field.key];
    const defaultChanged = JSON.stringify(Array.isArray(value) ? value : value) !== JSON.stringify(old);
    const rangeChanged = field.min !== was.min || field.max !== was.max || field.maxCount !== was.maxCount;
    return { field, value, defaultChanged, rangeChanged };
  });
}

const range = (f) => `${f.openMin ? '(' : '['}${f.min}, ${f.max}${f.openMax ? ')' : ']'}`;
const shown = (list) => `[${list.join(',')}]`;

test('the altered build changes most defaults and limits (else this suite would prove nothing)', (t) => {
  let defaults = 0,
    ranges = 0,
    total = 0;
  for (const name of Object.keys(COMMANDS))
    for (const f of fieldsOf(name)) {
      total += 1;
      defaults += f.defaultChanged;
      ranges += f.rangeChanged;
    }
  t.diagnostic(`fields ${total}: default altered in ${defaults}, range altered in ${ranges}`);
  assert.ok(defaults >= total - 4, 'nearly every default is altered');
  assert.ok(ranges >= total / 2, 'most ranges are altered');
  assert.notEqual(altered.limits.maxElements, normal.limits.maxElements);
});

test("the facade: its calls take the altered core's defaults and limits", () => {
  const masks = altered.maskDemo();
  assert.equal(masks.positions, altered.configs.maskDemo.defaults.positions);
  assert.notEqual(masks.positions, normal.maskDemo().positions);
  const sweep = altered.scaleSweep();
  assert.deepEqual(
    sweep.rows.map((r) => r.dk),
    altered.configs.scaleSweep.defaults.dks,
  );
  assert.equal(altered.headsDemo().multi.numHeads, altered.configs.headsDemo.defaults.numHeads);
  assert.equal(altered.halfPrecisionPitfall().positions, altered.configs.pitfall.defaults.positions);
  assert.deepEqual({ ...altered.attentionSteps().config }, altered.configs.attentionSteps.defaults);
  // attention() without options blocks a pair with the core's masked value: with real scores of
  // -5e6 (between the altered -1e6 and the normal -1e9), the blocked key takes all the weight
  // under the altered default and none under the normal one.
  const blocked = (core) => {
    assert.ok(core.configs.attention.defaults.maskedValue > -5e6 === (core === altered));
    const query = facade.mat(1, 1, [5e3]),
      key = facade.mat(2, 1, [-1e3, 1]),
      value = facade.mat(2, 1, [1, 2]);
    const mask = { rows: 1, cols: 2, data: new Uint8Array([1, 0]) };
    return core.attention(query, key, value, { mask }).weights.data[1];
  };
  assert.equal(blocked(altered), 1);
  assert.equal(blocked(normal), 0);
  const model = altered.createCueModel();
  try {
    assert.equal(model.progress().epochs, altered.configs.cueTrain.defaults.epochs);
  } finally {
    model.dispose();
  }
  // A value inside the normal limits but outside the altered ones is refused, in JS names.
  const { max } = altered.configs.maskDemo.fields.find((f) => f.key === 'positions');
  assert.throws(
    () => altered.maskDemo({ positions: max + 1, real: 1 }),
    new RegExp(`^Error: positions must be a whole number in \\[1, ${max}\\], got ${max + 1}$`),
  );
  assert.throws(() => facade.mat(altered.limits.maxElements + 1, 1), /more than the \d+ allowed/);
});

test('the command line: --help shows the altered defaults and ranges, and its checks use them', () => {
  for (const [name, command] of Object.entries(COMMANDS)) {
    const help = execFileSync(cli, [command, '--help'], { encoding: 'utf8' });
    for (const { field, value, defaultChanged, rangeChanged } of fieldsOf(name)) {
      if (field.kind === 'boolean') {
        // A flag that is on by default is offered as the way to turn it off.
        if (defaultChanged)
          assert.match(help, new RegExp(`\\s--${value ? 'no-' : ''}${field.flag}\\b`), `${command}: ${field.flag}`);
        continue;
      }
      const line = help.split('\n').find((l) => l.trimStart().startsWith(`--${field.flag} `));
      assert.ok(line, `${command} --help lists --${field.flag}`);
      if (defaultChanged) {
        const printed = /=(\S+)/.exec(line)?.[1];
        if (Array.isArray(value)) assert.equal(printed, shown(value), `${command} --${field.flag}`);
        else if (field.kind === 'choice') assert.equal(printed, value, `${command} --${field.flag}`);
        else assert.equal(Number(printed), value, `${command} --${field.flag}: default in "${line.trim()}"`);
      }
      if (rangeChanged)
        assert.ok(
          line.includes(`in ${range(field)}`),
          `${command} --${field.flag}: range ${range(field)} in "${line.trim()}"`,
        );
    }
  }
});

test('the command line refuses a value just past each altered upper limit, naming the flag and the altered range', () => {
  let checked = 0;
  for (const [name, command] of Object.entries(COMMANDS))
    for (const { field, rangeChanged } of fieldsOf(name)) {
      if (!rangeChanged || field.kind === 'boolean' || field.kind === 'seed') continue;
      const bad = field.kind === 'number' ? field.max * 1.5 : field.max + 1;
      const run = spawnSync(cli, [command, ...(REQUIRED[command] ?? []), `--${field.flag}`, String(bad)], {
        encoding: 'utf8',
      });
      assert.equal(run.status, 2, `${command} --${field.flag} ${bad}: ${run.stderr}`);
      assert.match(
        run.stderr,
        new RegExp(`--${field.flag}[: ].*in ${range(field).replace(/[[\]()]/g, '\\$&')}`),
        `${command} --${field.flag} ${bad}`,
      );
      checked += 1;
    }
  assert.ok(checked >= 15, `checked ${checked} limits`);
});

// ---- the widgets and the guide, with the altered module served in place of the shipped one ----

let site;
before(async () => {
  site = await openSite({ wasmDir });
});
after(() => closeSite(site));

/** A widget framed alone (embed.html?widget=TAG) once it is ready. */
async function framed(tag) {
  const page = await site.browser.open(`${site.server.url}embed.html?widget=${tag}`, { width: 1280, height: 720 });
  await page.locate(`${tag}[data-ready]`).waitFor({ timeout: 30000 });
  return page;
}

test('the widgets start from the altered defaults', async () => {
  const d = (name) => altered.configs[name].defaults;
  let page = await framed('attn-mask-figure');
  const inputs = page.locate('attn-mask-figure input');
  assert.equal(Number(await inputs.nth(0).value()), d('maskDemo').positions);
  assert.equal(Number(await inputs.nth(1).value()), d('maskDemo').real);
  await page.close();

  page = await framed('attn-heads-figure');
  assert.equal(
    (await page.locate('attn-heads-figure [data-count="multi"]').text()).replace(/,/g, ''),
    String(altered.headsDemo().multi.parameterCount),
  );
  assert.match(await page.locate('attn-heads-figure').text(), new RegExp(`Head 1 of ${d('headsDemo').numHeads}\\b`));
  await page.close();

  page = await framed('attn-scale-figure');
  const label = await page.locate('attn-scale-figure svg[role="img"]').first().attribute('aria-label');
  for (const dk of d('scaleSweep').dks) assert.match(label, new RegExp(`unscaled ${dk}:`));
  await page.close();

  page = await framed('attn-ranked-table');
  assert.equal(Number(await page.locate('attn-ranked-table input').value()), d('scaleSweep').draws);
  await page.close();

  page = await framed('attn-pitfall-demo');
  assert.match(
    await page.locate('attn-pitfall-demo [data-demo="half-precision"] caption').text(),
    new RegExp(`on ${d('pitfall').positions} positions`),
  );
  await page.close();

  page = await framed('attn-cue-trainer');
  assert.equal(Number(await page.locate('::-p-aria(seed)').value()), d('cueTrain').seed);
  assert.equal(Number(await page.locate('::-p-aria(epochs)').value()), d('cueTrain').epochs);
  // Its check is the core's: one epoch past the altered limit is refused next to the field.
  const { max } = altered.configs.cueTrain.fields.find((f) => f.key === 'epochs');
  await page.locate('::-p-aria(epochs)').fill(String(max + 1));
  await page.locate('::-p-aria([name="Train both"][role="button"])').click();
  assert.match(await page.locate('[id^="cue-epochs-error"]').text(), new RegExp(`in \\[1, ${max}\\], got ${max + 1}`));
  await page.close();
});

test('the embedding guide lists the altered defaults and ranges', async () => {
  const page = await site.browser.open(`${site.server.url}embed.html`, { width: 1280, height: 720 });
  const cells = (tag, attribute) =>
    page.locate(
      `#widget-reference section[data-tag="${tag}"] table[data-table="attributes"] tr[data-name="${attribute}"] td`,
    );
  await cells('attn-mask-figure', 'positions').first().waitFor({ timeout: 30000 });
  // [attribute, property, type, default, value, URL hash key, description]
  const expect = async (tag, attribute, config, key) => {
    const field = altered.configs[config].fields.find((f) => f.key === key);
    const value = altered.configs[config].defaults[key];
    const [, , , shownDefault, values, , description] = await cells(tag, attribute).texts();
    assert.equal(shownDefault, Array.isArray(value) ? value.join(',') : String(value), `${tag} ${attribute}: default`);
    assert.ok(
      description.startsWith(field.help.charAt(0).toUpperCase() + field.help.slice(1)),
      `${tag} ${attribute}: the core's help in "${description}"`,
    );
    // A widget may draw less than the core allows, and says so ("At most 32 here: ...").
    const cap = Number(/At most (\d+) here/.exec(description)?.[1] ?? Infinity);
    const accepted = cap < field.max ? { ...field, max: cap, openMax: false } : field;
    assert.ok(values.includes(range(accepted)), `${tag} ${attribute}: ${range(accepted)} in "${values}"`);
  };
  await expect('attn-mask-figure', 'positions', 'maskDemo', 'positions');
  await expect('attn-mask-figure', 'real', 'maskDemo', 'real');
  await expect('attn-heads-figure', 'heads', 'headsDemo', 'numHeads');
  await expect('attn-scale-figure', 'dk', 'scaleSweep', 'dks');
  await expect('attn-ranked-table', 'draws', 'scaleSweep', 'draws');
  await expect('attn-cue-trainer', 'epochs', 'cueTrain', 'epochs');
  await page.close();
});

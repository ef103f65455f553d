// The facade's TypeScript (web/src/core/types.ts) against what the core sends. Every struct the
// bindings register is recorded by the test build of the module (wasm/struct_shapes.hpp) with its
// keys and the JS type each crosses as; every interface of types.ts tagged `@core Name` must have
// exactly those keys, none optional, each of the matching TypeScript type (a nested struct as the
// interface tagged with its name). A field added, renamed or retyped on either side fails here.
//
//   ATTN_TYPES_FILE   another types file to check (to see this suite fail on a planted field)
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

import { loadCore, root } from './helpers.mjs';

const typesFile = path.resolve(root, process.env.ATTN_TYPES_FILE ?? 'web/src/core/types.ts');

// Structs the facade does not hand out as they are: it reads them and returns something of its
// own, so there is no interface to compare (the facade's tests cover what it returns).
const FACADE_READS = {
  ConfigCheck: 'cueTrainConfigError() is read by checkCueConfig()',
  MemoryStats: "memoryStats() adds the test build's counters to it",
  AttentionSteps: "attentionSteps() returns its matrices as Mat, each with the shape the core's config gives",
};

const core = await loadCore();
const shapes = JSON.parse(core.m.structShapes());
const byName = new Map(shapes.map((s) => [s.name, s]));

const program = ts.createProgram([typesFile], { strict: true, target: ts.ScriptTarget.ES2022, noEmit: true });
const checker = program.getTypeChecker();
const source = program.getSourceFile(typesFile);

/** struct name -> the interface declaration tagged `@core struct name` */
const tagged = new Map();
ts.forEachChild(source, (node) => {
  if (!ts.isInterfaceDeclaration(node)) return;
  for (const tag of ts.getJSDocTags(node))
    if (tag.tagName.text === 'core') tagged.set(String(tag.comment).trim(), node);
});
const structOf = new Map([...tagged].map(([struct, node]) => [node.name.text, struct]));

/** Does TypeScript type `type` describe what crosses as `expected` (a struct_shapes type text)? */
function matches(type, expected, config) {
  const text = checker.typeToString(type);
  if (expected === 'number') return (type.flags & ts.TypeFlags.NumberLike) !== 0;
  if (expected === 'boolean') return text === 'boolean';
  if (expected === 'string')
    return type.isUnion()
      ? type.types.every((t) => (t.flags & ts.TypeFlags.StringLiteral) !== 0)
      : (type.flags & ts.TypeFlags.StringLike) !== 0;
  if (/Array$/.test(expected) && !expected.endsWith('[]'))
    // A config's list is also taken from JS, where a plain array is the natural form; a result
    // typed ArrayLike<number> is also read from recorded JSON (plain arrays).
    return (
      type.symbol?.name === expected ||
      (config && expected === 'Int32Array' && text === 'number[]') ||
      (!config && type.symbol?.name === 'ArrayLike')
    );
  if (expected.endsWith('[]'))
    return checker.isArrayType(type) && matches(checker.getTypeArguments(type)[0], expected.slice(0, -2), config);
  return structOf.get(type.symbol?.name) === expected;
}

test('the test build records every struct the bindings register, with their keys', () => {
  assert.ok(shapes.length >= 30, `${shapes.length} structs`);
  for (const shape of shapes)
    for (const [key, type] of shape.fields) assert.ok(!type.includes('(unregistered)'), `${shape.name}.${key}`);
});

test('every struct the core sends has its interface in types.ts, tagged @core', () => {
  const missing = shapes
    .map((s) => s.name)
    .filter((name) => !name.endsWith('Spec') && !tagged.has(name) && !FACADE_READS[name]);
  assert.deepEqual(missing, [], 'structs without an interface tagged @core NAME');
  for (const name of tagged.keys()) assert.ok(byName.has(name), `@core ${name} names no struct of the core`);
});

for (const [struct, node] of tagged) {
  test(`${node.name.text} has the keys and types of the core's ${struct}`, () => {
    const shape = byName.get(struct);
    assert.ok(shape, `no struct ${struct}`);
    const properties = checker.getPropertiesOfType(checker.getTypeAtLocation(node));
    assert.deepEqual(
      properties.map((p) => p.name).sort(),
      shape.fields.map(([key]) => key).sort(),
      `${node.name.text}: keys`,
    );
    for (const [key, expected] of shape.fields) {
      const property = properties.find((p) => p.name === key);
      assert.equal(property.flags & ts.SymbolFlags.Optional, 0, `${node.name.text}.${key} is always sent`);
      const type = checker.getTypeOfSymbol(property);
      assert.ok(
        matches(type, expected, shape.config),
        `${node.name.text}.${key}: the core sends ${expected}, types.ts says ${checker.typeToString(type)}`,
      );
    }
  });
}

test('Configs names each config the core exports, with the interface of its fields', () => {
  const configs = [...source.statements].find((s) => ts.isInterfaceDeclaration(s) && s.name.text === 'Configs');
  const properties = checker.getPropertiesOfType(checker.getTypeAtLocation(configs));
  assert.deepEqual(properties.map((p) => p.name).sort(), Object.keys(core.configs).sort());
  for (const property of properties) {
    const [config] = checker.getTypeArguments(checker.getTypeOfSymbol(property));
    assert.deepEqual(
      checker
        .getPropertiesOfType(config)
        .map((p) => p.name)
        .sort(),
      core.configs[property.name].fields.map((f) => f.key).sort(),
      `Configs.${property.name}: ConfigSpec<${checker.typeToString(config)}>`,
    );
  }
});

test("every config spec's defaults carry the keys its fields list, each of the kind declared", () => {
  const kinds = { boolean: 'boolean', integer: 'number', seed: 'number', number: 'number', choice: 'string' };
  for (const [name, spec] of Object.entries(core.configs)) {
    assert.deepEqual(Object.keys(spec.defaults).sort(), spec.fields.map((f) => f.key).sort(), name);
    for (const field of spec.fields) {
      const value = spec.defaults[field.key];
      if (field.kind === 'integers') assert.ok(Array.isArray(value), `${name}.${field.key}`);
      else assert.equal(typeof value, kinds[field.kind], `${name}.${field.key}`);
    }
  }
});

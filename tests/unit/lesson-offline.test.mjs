// The lesson's precache list (scripts/vite-lesson-offline.ts, lessonFiles): from index.html,
// every file of the bundle a listed file names, through chunks, CSS and the Worker; nothing only
// the guide reaches; a bundle without the lesson's page is refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lessonFiles } from '../../scripts/vite-lesson-offline.ts';

const chunk = (fileName, code) => ({ type: 'chunk', fileName, code });
const asset = (fileName, source) => ({ type: 'asset', fileName, source });
const bundle = (...files) => Object.fromEntries(files.map((file) => [file.fileName, file]));

test('the precache list is the closure of index.html under "a listed file names it"', () => {
  const files = lessonFiles(
    bundle(
      asset(
        'index.html',
        '<script type="module" src="./assets/index-AAAAAAAA.js"></script><link href="./assets/page-BBBBBBBB.css">',
      ),
      chunk('assets/index-AAAAAAAA.js', 'import("./widget-CCCCCCCC.js"); new URL("attention-lab.js", import.meta.url)'),
      chunk('attention-lab.js', 'export {}'),
      asset('assets/page-BBBBBBBB.css', 'body { background: url(./grain-DDDDDDDD.png) }'),
      asset('assets/grain-DDDDDDDD.png', new Uint8Array([137, 80, 78, 71])),
      chunk('assets/widget-CCCCCCCC.js', 'new Worker(new URL("training-worker-EEEEEEEE.js", import.meta.url))'),
      asset('assets/training-worker-EEEEEEEE.js', 'fetch(new URL("attention_lab-FFFFFFFF.wasm", import.meta.url))'),
      asset('assets/attention_lab-FFFFFFFF.wasm', new Uint8Array([0, 97, 115, 109])),
      asset('embed.html', '<script type="module" src="./assets/embed-GGGGGGGG.js"></script>'),
      chunk('assets/embed-GGGGGGGG.js', 'import("./widget-CCCCCCCC.js")'),
      asset('assets/guide-only-HHHHHHHH.svg', '<svg/>'),
    ),
  );
  assert.equal(files[0], 'index.html', 'the page first: the worker answers navigations with it');
  assert.deepEqual(
    files.slice(1).sort(),
    [
      'assets/index-AAAAAAAA.js',
      'assets/page-BBBBBBBB.css',
      'assets/widget-CCCCCCCC.js',
      'attention-lab.js',
      'assets/training-worker-EEEEEEEE.js',
      'assets/attention_lab-FFFFFFFF.wasm',
      'assets/grain-DDDDDDDD.png',
    ].sort(),
  );
});

test('a bundle without the lesson page is refused, naming the page', () => {
  assert.throws(() => lessonFiles(bundle(asset('embed.html', ''))), /no index\.html/);
});

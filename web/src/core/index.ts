// The web side's one door to the C++ core (compiled to WebAssembly from wasm/bind_*.cpp).
//
// Everything here takes and returns plain data: matrices are { rows, cols, data } with
// row-major Float32Array data, masks the same with Uint8Array data (1 = may attend). No
// embind handle ever leaves this folder, and whatever it allocates in the WebAssembly heap it
// frees or reuses. It computes nothing itself: it checks what only JS can get wrong (types,
// lengths, whole numbers that fit the binding), copies inputs into the heap, calls the core
// and copies results out. Every range, every default and every message about them is the
// core's: `core.configs` holds each experiment's defaults and fields as the core declares them,
// and the core's errors arrive as ArgumentErrors (errors.ts) naming the arguments as JS writes
// them, with a code and the numbers involved.
//
// Load it once per page or Worker: `const core = await loadCore()`. A page whose widgets need only
// attention (the soft lookup) may load the smaller attention core instead, `await
// loadAttentionCore()`, without the experiments and the trainer (two modules:
// wasm/CMakeLists.txt). Each module is imported only when loaded, so a bundle holds the glue of
// the ones it loads. Under node, where a module cannot fetch its .wasm, pass { wasmBinary } read
// from the file next to it.
//
// The facade's parts, by job: types.ts (the plain data and the interfaces), matrices.ts (mat,
// maskMat, row), checks.ts, heap.ts (moving data in and out), attention-core.ts and
// whole-core.ts (the two cores' calls), configs.ts (options into the module's configs) and
// load.ts. Its imports name the .js files tsc makes of them: wasm/tsconfig.facade.json compiles
// the facade for node and the browser tests, which load those files as they are.
export type * from './types.js';
export { loadAttentionCore, loadCore } from './load.js';
export { mat, maskMat, row } from './matrices.js';
export { withDefaults } from './configs.js';
export { ArgumentError, type ArgumentErrorFields, type ErrorCode } from './errors.js';

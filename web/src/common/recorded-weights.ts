// Where the recorded runs' trained weights are (raw float32, core/include/attn/cue/probe.hpp),
// for the training Worker to fetch on the first probe. The page's code addresses them and hands
// the address to the Worker with each probe, as it does the .wasm's: a course's bundler that
// takes the npm package in processes the page's modules (and emits the files they address) but
// copies the Worker's file as it is, so an address written in the Worker would point at a file
// the course's build never emitted. The Worker falls back on its own only when none is handed.
const weightUrls = import.meta.glob<string>('../generated/cue-*block.weights.bin', {
  eager: true,
  query: '?url',
  import: 'default',
});

/** The absolute address of the weights of the recorded `blocks`-block model, if this build has them. */
export function recordedWeightsUrl(blocks: number): string | undefined {
  const url = weightUrls[`../generated/cue-${blocks}block.weights.bin`];
  return url === undefined ? undefined : new URL(url, import.meta.url).href;
}

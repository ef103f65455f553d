// A module Worker loading the same ES module build (as the training Worker will).
import { softLookupRow } from './lookup.mjs';

softLookupRow().then(
  (result) => postMessage({ result }),
  (error) => postMessage({ error: String((error && error.stack) || error) }),
);

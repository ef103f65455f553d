// Readers' settings live in the URL hash, one flat list ("#lookup.q=0.40,1.20&table.draws=500"),
// so a copied link reopens the same view. Each entry is STATE-KEY.HASH-KEY=value: a widget's
// state-key attribute, then the hash key its contract gives an attribute, then the value written
// as that attribute would be (base.ts reads it back through the attribute's parser). Only widgets
// given a state-key take part; an embedded widget without one leaves its host page's hash alone.

function parse(): URLSearchParams {
  return new URLSearchParams(location.hash.replace(/^#/, ''));
}

/** hash key -> value, for the entries under `stateKey`. */
export function readState(stateKey: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of parse()) {
    if (name.startsWith(stateKey + '.')) values[name.slice(stateKey.length + 1)] = value;
  }
  return values;
}

/** Sets the entries under `stateKey` (hash key -> value), keeping every other entry. */
export function writeState(stateKey: string, values: Record<string, string>): void {
  const params = parse();
  for (const [name, value] of Object.entries(values)) params.set(`${stateKey}.${name}`, value);
  // Commas are allowed in a URL's fragment: "q=0.40,1.20" reads better than "q=0.40%2C1.20".
  const hash = params.toString().replace(/%2C/g, ',');
  // replaceState: settings are not navigation, so Back still leaves the page.
  history.replaceState(null, '', '#' + hash);
}

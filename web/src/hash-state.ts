// Readers' settings live in the URL hash, one flat serialisable object
// ("#lookup.qx=0.4&table.draws=500"), so a copied link reopens the same view.
// Only widgets given a state-key take part; an embedded widget without one leaves its host
// page's hash alone.

function parse(): URLSearchParams {
  return new URLSearchParams(location.hash.replace(/^#/, ''));
}

export function readState(key: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of parse()) {
    if (name.startsWith(key + '.')) values[name.slice(key.length + 1)] = value;
  }
  return values;
}

export function writeState(key: string, values: Record<string, string | number | boolean>): void {
  const params = parse();
  for (const [name, value] of Object.entries(values)) params.set(`${key}.${name}`, String(value));
  // replaceState: settings are not navigation, so Back still leaves the page.
  history.replaceState(null, '', '#' + params.toString());
}

// A course package (a zip an LMS imports): the author's page made into the package's launch page,
// the widgets' files, the bridge, the author's data files, and the standard's manifest
// (imsmanifest.xml for SCORM 1.2 and 2004 4th edition, cmi5.xml for cmi5). Pure: no node APIs, so that the command
// line (web/src/package/cli.ts, which reads the files) and a page in the browser make the same zip.
import { zipSync, strToU8 } from 'fflate';
import { cmi5Xml } from './cmi5-course';
import type { PackageSettings, Standard } from './session';

/** The packaged page's name: the SCO's launch file. */
export const LAUNCH_FILE = 'index.html';

/** Where the bridge sits in the package (built from web/src/lms/bridge.ts). */
export const BRIDGE_FILE = 'lms/bridge.js';

/** The files of the widgets that every package holds, besides assets/ and lms/ (the package's chunks). */
export const WIDGET_FILES = ['attention-lab.js', 'attention-lab.css'];

/** Each standard's manifest: its file name and text, for the package's settings, file list and launch page. */
const MANIFESTS: Partial<
  Record<Standard, (settings: PackageSettings, files: string[], page: Uint8Array) => [string, string]>
> = {
  scorm12: (settings, files) => ['imsmanifest.xml', scorm12Manifest(settings, files)],
  scorm2004: (settings, files) => ['imsmanifest.xml', scorm2004Manifest(settings, files)],
  cmi5: (settings, _files, page) => [
    'cmi5.xml',
    cmi5Xml({ ...settings, id: courseId(settings.title, page), launch: LAUNCH_FILE }),
  ],
};

/**
 * The cmi5 course's IRI: "urn:attention-lab:" + the title's identifier + a hash of the launch
 * page (FNV-1a, 32 bits), so that two courses of one title but other pages differ in an LMS
 * while the same input makes the same id (and the same zip).
 */
export function courseId(title: string, page: Uint8Array): string {
  let hash = 0x811c9dc5;
  for (const byte of page) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return `urn:${identifier(title).replace(/^attention-lab-/, 'attention-lab:')}:${hash.toString(16).padStart(8, '0')}`;
}

/** The standards this packager writes. */
export const STANDARDS = Object.keys(MANIFESTS) as Standard[];

/**
 * The page's Content-Security-Policy: only the package's own files (the core's WebAssembly
 * compiled from them: 'wasm-unsafe-eval'; the training Worker and images from blob: and data:).
 */
export function packageCsp(standard: Standard): string {
  // cmi5 posts statements to the LMS's endpoint, which only the launch URL names (unknown when
  // the package is made): any https: origin, or the page's own (an LMS serving both).
  const connect = standard === 'cmi5' ? "'self' https:" : "'self'";
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    `connect-src ${connect}`,
    "img-src 'self' data: blob:",
    "worker-src 'self' blob:",
  ].join('; ');
}

const escapeXml = (text: string): string =>
  text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** An XML ID made from the title (a letter first, then letters, digits, "-", "_", "."). */
export function identifier(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^[^A-Za-z]+|-+$/g, '')
    .slice(0, 60);
  return `attention-lab-${slug || 'course'}`;
}

const fileList = (files: string[], indent: string): string =>
  files.map((file) => `${indent}<file href="${escapeXml(file)}"/>`).join('\n');

/** SCORM 1.2's imsmanifest.xml: one SCO launching the page; masteryscore = the pass mark x 100. */
export function scorm12Manifest(settings: PackageSettings, files: string[]): string {
  const id = identifier(settings.title);
  const title = escapeXml(settings.title);
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${id}" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="${id}-org">
    <organization identifier="${id}-org">
      <title>${title}</title>
      <item identifier="${id}-item" identifierref="${id}-sco" isvisible="true">
        <title>${title}</title>
        <adlcp:masteryscore>${Math.round(settings.passMark * 100)}</adlcp:masteryscore>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="${id}-sco" type="webcontent" adlcp:scormtype="sco" href="${LAUNCH_FILE}">
${fileList(files, '      ')}
    </resource>
  </resources>
</manifest>
`;
}

/**
 * SCORM 2004 4th edition's imsmanifest.xml: one SCO launching the page, whose primary objective
 * is satisfied by the measure (the scaled score) at or above the pass mark.
 */
export function scorm2004Manifest(settings: PackageSettings, files: string[]): string {
  const id = identifier(settings.title);
  const title = escapeXml(settings.title);
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${id}" version="1"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
  xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 4th Edition</schemaversion>
  </metadata>
  <organizations default="${id}-org">
    <organization identifier="${id}-org">
      <title>${title}</title>
      <item identifier="${id}-item" identifierref="${id}-sco">
        <title>${title}</title>
        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="${id}-passed" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>${settings.passMark}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
        </imsss:sequencing>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="${id}-sco" type="webcontent" adlcp:scormType="sco" href="${LAUNCH_FILE}">
${fileList(files, '      ')}
    </resource>
  </resources>
</manifest>
`;
}

/** The attn-* elements' tags in an HTML page. */
export const widgetTags = (html: string): string[] => [
  ...new Set([...withoutComments(html).matchAll(/<(attn-[a-z][a-z0-9-]*)[\s>/]/gi)].map((m) => m[1].toLowerCase())),
];

const withoutComments = (html: string): string => html.replace(/<!--[\s\S]*?-->/g, '');

/** Is `url` an address relative to the page (a file the package must hold), not another site's, a data: URL or a fragment? */
const isRelative = (url: string): boolean => url !== '' && !/^([a-z][a-z0-9+.-]*:|\/\/|\/|#|\?)/i.test(url);

/** The widgets' own scripts and stylesheet an author's page may name: the package brings its own. */
const WIDGETS_SCRIPT = /(^|\/)attention-lab(-loader|-frames)?\.(js|css)(\?.*)?$/;

/**
 * The files the page names by relative address (src= on any element, href= on <link>) that the
 * package must hold: the author's quiz and exercise data, images, stylesheets; not the widgets' own.
 * Paths as written (without ?query or #fragment), relative to the page.
 */
export function pageReferences(html: string): string[] {
  const found = new Set<string>();
  for (const [tag] of withoutComments(html).matchAll(/<[a-z][a-z0-9-]*\b[^>]*>/gi)) {
    const link = /^<link\b/i.test(tag);
    for (const m of tag.matchAll(/\s(src|href)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
      if (m[1].toLowerCase() === 'href' && !link) continue;
      const url = (m[2] ?? m[3] ?? m[4]).trim();
      const path = url.replace(/[?#].*$/, '');
      if (isRelative(url) && !WIDGETS_SCRIPT.test(path)) found.add(decodeURI(path).replace(/^\.\//, ''));
    }
  }
  return [...found];
}

/**
 * The author's page as the package's launch page: its own policy, the widgets' scripts and
 * stylesheet and any Content-Security-Policy meta taken out; in their place the package's
 * policy, its settings (read by the bridge) and the bridge, first in <head>.
 */
export function packagedPage(html: string, settings: PackageSettings): string {
  const json = JSON.stringify(settings).replace(/</g, '\\u003c');
  const head = [
    `<meta http-equiv="Content-Security-Policy" content="${packageCsp(settings.standard)}">`,
    `<link rel="stylesheet" href="attention-lab.css">`,
    `<script type="application/json" id="attention-lab-package">${json}</script>`,
    `<script type="module" src="${BRIDGE_FILE}"></script>`,
  ].join('\n');
  const cleaned = html
    .replace(/<meta\b[^>]*http-equiv\s*=\s*["']?content-security-policy["']?[^>]*>\s*/gi, '')
    .replace(/<script\b[^>]*\bsrc\s*=\s*["']?[^"'\s>]*attention-lab(-loader|-frames)?\.js[^>]*>\s*<\/script>\s*/gi, '')
    .replace(/<link\b[^>]*\bhref\s*=\s*["']?[^"'\s>]*attention-lab\.css[^>]*>\s*/gi, '');
  // After <meta charset> when the page has one (it must come first), else first in <head>.
  const charset = /<meta\b[^>]*\bcharset\s*=[^>]*>/i;
  if (charset.test(cleaned)) return cleaned.replace(charset, (tag) => `${tag}\n${head}`);
  if (/<head\b[^>]*>/i.test(cleaned))
    return cleaned.replace(/<head\b[^>]*>/i, (tag) => `${tag}\n<meta charset="utf-8">\n${head}`);
  return `<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">\n${head}\n</head>\n<body>\n${cleaned}\n</body>\n</html>\n`;
}

/** A widget of a generated page: its tag, its attributes ("" for a boolean written bare), and its data file (src) or inline data. */
export interface PageWidget {
  tag: string;
  /** the author's data file, written as src (the package must hold it) */
  src?: string;
  attributes?: Record<string, string>;
  /** the author's data (quiz, exercises, table), written inside the element as <script type="application/json"> */
  data?: unknown;
}

/** `<tag …>` with the widget's attributes, and its inline data when given. */
function widgetHtml({ tag, src, attributes = {}, data }: PageWidget): string {
  const written = Object.entries(src === undefined ? attributes : { ...attributes, src })
    .map(([name, text]) => (text === '' ? ` ${name}` : ` ${name}="${escapeXml(text)}"`))
    .join('');
  if (data === undefined) return `    <${tag}${written}></${tag}>`;
  // "<" escaped in the JSON, so that no text in the data can close the script element.
  const json = JSON.stringify(data, null, 2).replace(/</g, '\\u003c').replace(/\n/g, '\n      ');
  return `    <${tag}${written}>\n      <script type="application/json">\n      ${json}\n      </script>\n    </${tag}>`;
}

/** A page of the given widgets, for a package made without an author's page (the command line's --widget, the configurator). */
export function generatedPage(title: string, widgets: PageWidget[], language = 'en'): string {
  const elements = widgets.map(widgetHtml).join('\n');
  return `<!doctype html>
<html lang="${escapeXml(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeXml(title)}</title>
</head>
<body>
  <main>
    <h1>${escapeXml(title)}</h1>
${elements}
  </main>
</body>
</html>
`;
}

/** What the zip is made of: the author's page and every other file, by its path in the package. */
export interface PackageInput {
  settings: PackageSettings;
  /** the author's page (or a generated one), as HTML */
  page: string;
  /** the widgets' files (attention-lab.js, .css, assets/, lms/) and the author's data files */
  files: Record<string, Uint8Array>;
  /** the zip entries' date (default: now); a fixed one makes the same zip from the same input */
  date?: Date;
}

/** The package's files by path: the launch page, the given files and the manifest. Throws when a standard has no manifest writer. */
export function packageFiles(input: PackageInput): Record<string, Uint8Array> {
  const manifest = MANIFESTS[input.settings.standard];
  if (!manifest)
    throw new Error(`standard "${input.settings.standard}" is not one this packager writes (${STANDARDS.join(', ')})`);
  const files: Record<string, Uint8Array> = {
    [LAUNCH_FILE]: strToU8(packagedPage(input.page, input.settings)),
    ...input.files,
  };
  const [name, text] = manifest(input.settings, Object.keys(files).sort(), files[LAUNCH_FILE]);
  files[name] = strToU8(text);
  return files;
}

/** The zip (bytes) of packageFiles(input), deflated at level 9. */
export function coursePackage(input: PackageInput): Uint8Array {
  const files = packageFiles(input);
  const mtime = input.date ?? new Date();
  return zipSync(Object.fromEntries(Object.entries(files).map(([path, data]) => [path, [data, { level: 9, mtime }]])));
}

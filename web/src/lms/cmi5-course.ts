// cmi5.xml, the course structure an LMS imports with a cmi5 package: one course holding one AU
// (the packaged page), which the learner moves on from once it is completed or passed, passed at
// the package's pass mark (the LMS hands it back as LMS.LaunchData's masteryScore). Pure string
// work (no node or DOM API), so the CLI and the configurator's download both use it.
import type { PackageSettings } from './session';

export const COURSE_STRUCTURE_NS = 'https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd';

/** Text as XML element content or attribute value: &, <, >, " and ' escaped; characters XML 1.0 forbids refused. */
export function xmlText(value: string, what: string): string {
  // eslint-disable-next-line no-control-regex
  const forbidden = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.exec(value);
  if (forbidden)
    throw new Error(
      `cmi5Xml: ${what} holds U+${forbidden[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}, which XML cannot carry`,
    );
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string,
  );
}

/** The AU's id (the activityId an LMS launches it with) for the course `id`: the course's id + "/au". */
export function auId(id: string): string {
  return `${id.replace(/\/+$/, '')}/au`;
}

/**
 * The cmi5.xml of a one-AU course. `id`: the course's IRI (absolute, with a scheme: "https://…"
 * or "urn:…"), unique to this course; `launch`: the page's URL relative to cmi5.xml
 * ("index.html"); `title` and `description` (default: the title) in language `lang` (a BCP 47
 * tag; none: not stated); `passMark` in [0, 1] is the AU's masteryScore. Throws an Error naming
 * the argument that is wrong.
 */
export function cmi5Xml(
  settings: PackageSettings & { id: string; launch: string; description?: string; lang?: string },
): string {
  const { id, launch, title, passMark, lang } = settings;
  if (typeof id !== 'string' || !/^[a-z][a-z0-9+.-]*:\S+$/i.test(id))
    throw new Error(
      `cmi5Xml: id must be an absolute IRI with a scheme ("https://…", "urn:…"), not ${JSON.stringify(id)}`,
    );
  if (typeof launch !== 'string' || !launch.trim() || /\s/.test(launch))
    throw new Error(
      `cmi5Xml: launch must be the page's URL without spaces ("index.html"), not ${JSON.stringify(launch)}`,
    );
  if (typeof title !== 'string' || !title.trim())
    throw new Error(`cmi5Xml: title must be a non-empty text, not ${JSON.stringify(title)}`);
  if (typeof passMark !== 'number' || !(passMark >= 0 && passMark <= 1))
    throw new Error(`cmi5Xml: passMark must be a number from 0 to 1, not ${JSON.stringify(passMark)}`);
  if (lang !== undefined && !/^[a-z]{1,8}(-[a-z0-9]{1,8})*$/i.test(lang))
    throw new Error(`cmi5Xml: lang must be a language tag ("en", "zh-CN"), not ${JSON.stringify(lang)}`);
  const description = settings.description?.trim() ? settings.description : title;
  const langAttr = lang ? ` lang="${lang}"` : '';
  const text = (name: string, value: string, what: string) =>
    `<${name}><langstring${langAttr}>${xmlText(value, what)}</langstring></${name}>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<courseStructure xmlns="${COURSE_STRUCTURE_NS}">`,
    `  <course id="${xmlText(id, 'id')}">`,
    `    ${text('title', title, 'title')}`,
    `    ${text('description', description, 'description')}`,
    '  </course>',
    `  <au id="${xmlText(auId(id), 'id')}" moveOn="CompletedOrPassed" masteryScore="${String(Number(passMark.toFixed(6)))}" launchMethod="AnyWindow">`,
    `    ${text('title', title, 'title')}`,
    `    ${text('description', description, 'description')}`,
    `    <url>${xmlText(launch, 'launch')}</url>`,
    '  </au>',
    '</courseStructure>',
    '',
  ].join('\n');
}

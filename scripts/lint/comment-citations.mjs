import fs from 'node:fs';
import path from 'node:path';

/**
 * Comments point at files in this repository: the screens' facts are in docs/screens.md, the design in
 * docs/architecture.md. This rule refuses comments that cite a document outside the repository, the architecture's
 * old screens section, or a section number no heading carries, and checks that every section of those two documents
 * a comment cites (`screens.md#…`, `architecture.md#…`) is a heading (or an explicit `<a id>`) of that document.
 */

/** Citations no comment may make, with what to write instead. */
export const FORBIDDEN_CITATIONS = [
  {
    pattern: /architecture\.md#screens-and-texts(?![\w-])/u,
    message:
      'cite the screen in docs/screens.md (docs/screens.md#<screen>), not docs/architecture.md#screens-and-texts',
  },
  {
    pattern: /\bSPEC\.md\b/u,
    message: 'the specification is outside this repository: cite docs/screens.md#<screen> instead of SPEC.md',
  },
  {
    pattern: /\bDESIGN\.md\b/u,
    message: 'the design notes are outside this repository: cite a docs/architecture.md section instead of DESIGN.md',
  },
  {
    pattern: /§\s*\d/u,
    message:
      'no heading in this repository is numbered: cite docs/screens.md#<screen> or docs/architecture.md#<section>',
  },
];

/** The documents whose anchors comments may cite, relative to the repository root. */
export const CITED_DOCUMENTS = ['docs/screens.md', 'docs/architecture.md'];

/** `docs/screens.md#booking-wizard` (also without `docs/`): the document's base name and the anchor. */
const CITATION = /\b(screens|architecture)\.md#([\p{L}\p{N}_-]+)/gu;

/** GitHub's heading anchor: lower case, punctuation dropped (letters, digits, `_` and `-` stay), spaces to `-`. */
export function githubSlug(heading) {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The heading's text as GitHub renders it: code spans, links, images and emphasis reduced to their words. */
function headingText(raw) {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__|\*|_)(\S(?:.*?\S)?)\1/g, '$2')
    .trim();
}

/** Every anchor of a Markdown document: its headings' slugs (a repeated one gets -1, -2...) and `<a id|name>`. */
export function markdownAnchors(markdown) {
  const anchors = new Set();
  const seen = new Map();
  let fence = null;
  for (const line of markdown.split('\n')) {
    const fenceMark = /^\s*(```+|~~~+)/.exec(line);
    if (fenceMark) {
      if (fence === null) fence = fenceMark[1][0];
      else if (fenceMark[1][0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (heading) {
      const slug = githubSlug(headingText(heading[1]));
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const explicit of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(explicit[1]);
  }
  return anchors;
}

const anchorCache = new Map();

/** The anchors of docs/screens.md and docs/architecture.md under `root`, read again only when a file changed. */
export function documentAnchors(root) {
  const result = {};
  for (const document of CITED_DOCUMENTS) {
    const file = path.join(root, document);
    let mtime = -1;
    try {
      mtime = fs.statSync(file).mtimeMs;
    } catch {
      // A missing document has no anchors: every citation of it is reported.
    }
    const cached = anchorCache.get(file);
    if (!cached || cached.mtime !== mtime) {
      const anchors = mtime < 0 ? new Set() : markdownAnchors(fs.readFileSync(file, 'utf8'));
      anchorCache.set(file, { mtime, anchors });
    }
    result[path.basename(document)] = anchorCache.get(file).anchors;
  }
  return result;
}

/** @type {import('eslint').Rule.RuleModule} */
export const commentCitations = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Comments cite sections of this repository that exist (docs/screens.md, docs/architecture.md).',
    },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          anchors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      forbidden: 'Comments point at files in this repository: {{advice}}.',
      unknownAnchor: '{{document}} has no section #{{anchor}}: cite one of its headings.',
    },
  },
  create(context) {
    const options = context.options[0] ?? {};
    const sourceCode = context.sourceCode;
    let anchors = null;
    const anchorsOf = (document) => {
      if (anchors === null) {
        anchors = options.anchors
          ? Object.fromEntries(Object.entries(options.anchors).map(([name, list]) => [name, new Set(list)]))
          : documentAnchors(options.root ?? context.cwd);
      }
      return anchors[document] ?? new Set();
    };
    return {
      Program() {
        for (const comment of sourceCode.getAllComments()) {
          for (const { pattern, message } of FORBIDDEN_CITATIONS) {
            if (pattern.test(comment.value)) {
              context.report({ loc: comment.loc, messageId: 'forbidden', data: { advice: message } });
            }
          }
          for (const [, name, anchor] of comment.value.matchAll(CITATION)) {
            if (name === 'architecture' && anchor === 'screens-and-texts') continue; // reported above
            const document = `${name}.md`;
            if (!anchorsOf(document).has(anchor)) {
              context.report({
                loc: comment.loc,
                messageId: 'unknownAnchor',
                data: { document: `docs/${document}`, anchor },
              });
            }
          }
        }
      },
    };
  },
};

export default { rules: { 'comment-citations': commentCitations } };

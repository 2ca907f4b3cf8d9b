import path from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { commentCitations, documentAnchors, githubSlug, markdownAnchors } from './comment-citations.mjs';

RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const root = path.resolve(import.meta.dirname, '../..');
const anchors = {
  'screens.md': ['booking-wizard', 'home'],
  'architecture.md': ['offline-design', 'screens-and-texts'],
};
const options = [{ anchors }];
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

// The cited words are assembled so that this file's own comments never carry them.
const spec = ['SPEC', 'md'].join('.');
const design = ['DESIGN', 'md'].join('.');
const oldSection = ['docs/architecture.md', 'screens-and-texts'].join('#');

describe('comment-citations', () => {
  tester.run('comment-citations', commentCitations, {
    valid: [
      { code: '// The wizard (docs/screens.md#booking-wizard).\nconst a = 1;', options },
      { code: '/** docs/architecture.md#offline-design and screens.md#home */\nconst a = 1;', options },
      { code: '// docs/architecture.md says why; docs/screens.md is the record.\nconst a = 1;', options },
      // Strings are not comments: only what a comment cites is checked.
      { code: `const cited = '${spec} §4 ${oldSection} docs/screens.md#nowhere';`, options },
      { code: 'type T = number; // §-free and SPEC-free\nconst a: T = 1;', options },
    ],
    invalid: [
      { code: `// The screens (${oldSection}).\nconst a = 1;`, options, errors: [{ messageId: 'forbidden' }] },
      {
        code: `/* the old section: architecture.md#screens-and-texts */`,
        options,
        errors: [{ messageId: 'forbidden' }],
      },
      { code: `/** Customer session (${spec}). */\nconst a = 1;`, options, errors: [{ messageId: 'forbidden' }] },
      { code: `// Double booking (${design}).\nconst a = 1;`, options, errors: [{ messageId: 'forbidden' }] },
      { code: '// Waits of 2 s and 4 s (§9).\nconst a = 1;', options, errors: [{ messageId: 'forbidden' }] },
      { code: '// see § 4\nconst a = 1;', options, errors: [{ messageId: 'forbidden' }] },
      {
        code: `// ${spec} §5\nconst a = 1;`,
        options,
        errors: [{ messageId: 'forbidden' }, { messageId: 'forbidden' }],
      },
      {
        code: '// The list (docs/screens.md#reservation-list).\nconst a = 1;',
        options,
        errors: [{ messageId: 'unknownAnchor', data: { document: 'docs/screens.md', anchor: 'reservation-list' } }],
      },
      {
        code: '/**\n * docs/architecture.md#offline-designs\n */\nconst a = 1;',
        options,
        errors: [{ messageId: 'unknownAnchor', data: { document: 'docs/architecture.md', anchor: 'offline-designs' } }],
      },
    ],
  });

  it('reads the real documents from the root it is given', () => {
    const real = documentAnchors(root);
    expect(real['screens.md'].has('booking-wizard')).toBe(true);
    expect(real['architecture.md'].has('offline-design')).toBe(true);
    expect(real['architecture.md'].has('layout-and-boundaries')).toBe(true);
    expect(real['screens.md'].has('no-such-screen')).toBe(false);
  });
});

describe('GitHub anchors', () => {
  it('slugs headings as GitHub does', () => {
    expect(githubSlug('Screens and texts')).toBe('screens-and-texts');
    expect(githubSlug('No-shows and late cancels')).toBe('no-shows-and-late-cancels');
    expect(githubSlug('0005: Where the screens depart')).toBe('0005-where-the-screens-depart');
    expect(githubSlug('reservation-list — 予約一覧 (/reservations)')).toBe('reservation-list--予約一覧-reservations');
  });

  it('collects headings, repeats, explicit anchors, and skips code blocks', () => {
    const markdown = [
      '# Title',
      '## `code` and [link](x.md)',
      '## Repeat',
      '## Repeat',
      '<a id="explicit"></a>',
      '```',
      '## not-a-heading',
      '```',
    ].join('\n');
    expect([...markdownAnchors(markdown)]).toEqual(['title', 'code-and-link', 'repeat', 'repeat-1', 'explicit']);
  });
});

import { createRequire } from 'node:module';

/**
 * jsdom computes every getComputedStyle from scratch: the cascade of the element (cached), then each colour and
 * inherited property resolved up through its ancestors. Name computation (getByRole's `name`), Mantine's floating
 * positioning and user-event's pointer-events check ask it for the same elements again and again between two
 * changes of the page: a quarter of a component test's CPU (docs/BENCHMARKS.md, 2026-11-27).
 *
 * This keeps each answer until jsdom drops its own cascade cache, which it does on any change to an attached node
 * (jsdom/lib/jsdom/living/helpers/style-rules.js invalidateStyleCache, called from Node-impl.js _modified): an
 * answer is reused only while every declaration it was computed from is still the one jsdom would use. The answers
 * are the same objects jsdom returned; nothing reads them as live. Without the internals this relies on (another
 * jsdom), getComputedStyle stays as it is.
 */
export function cacheComputedStyleUntilTheDocumentChanges(window: Window & typeof globalThis): void {
  const requireFromHere = createRequire(import.meta.url);
  let implSymbol: symbol | undefined;
  try {
    ({ implSymbol } = requireFromHere('jsdom/lib/jsdom/living/generated/utils.js') as { implSymbol?: symbol });
  } catch {
    return;
  }
  const documentImpl = implSymbol && (window.document as unknown as Record<symbol, unknown>)[implSymbol];
  if (!documentImpl || typeof documentImpl !== 'object' || !('_styleCache' in documentImpl)) return;
  const jsdomCache = documentImpl as { _styleCache: object | null };

  const { getComputedStyle: compute } = window;
  let answers = new WeakMap<Element, CSSStyleDeclaration>();
  let answersBelongTo: object | null = null;
  // A pseudo-element is not asked for: jsdom implements none and would print "Not implemented" for each (Mantine's
  // ScrollArea asks); the element's own style answers, as it always has in these tests.
  window.getComputedStyle = (element: Element) => {
    // Another document (a DOMParser's, a frame's) keeps its own cascade cache: its elements are not kept here.
    if (element.ownerDocument !== window.document) return compute(element);
    if (jsdomCache._styleCache !== answersBelongTo || answersBelongTo === null) {
      answers = new WeakMap();
      answersBelongTo = null;
    }
    const known = answers.get(element);
    if (known) return known;
    const computed = compute(element);
    // jsdom made (or kept) its cascade cache while computing: the answers are valid as long as that one is.
    answersBelongTo = jsdomCache._styleCache;
    answers.set(element, computed);
    return computed;
  };
}

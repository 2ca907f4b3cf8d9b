import { describe, expect, it } from 'vitest';

// components.ts installs the cache (computed-style-cache.ts) for every component test; these check it never answers
// with a style the page no longer has.
describe('getComputedStyle in the component tests', () => {
  it('answers again from the cache while nothing changed', () => {
    const element = document.createElement('div');
    document.body.append(element);
    expect(getComputedStyle(element)).toBe(getComputedStyle(element));
    element.remove();
  });

  it('sees an inline style, a hidden ancestor and a removed style as soon as they change', () => {
    const outer = document.createElement('section');
    const inner = document.createElement('button');
    outer.append(inner);
    document.body.append(outer);
    expect(getComputedStyle(inner).visibility).toBe('visible');

    outer.style.visibility = 'hidden';
    expect(getComputedStyle(inner).visibility).toBe('hidden');

    inner.style.pointerEvents = 'none';
    expect(getComputedStyle(inner).pointerEvents).toBe('none');

    outer.removeAttribute('style');
    expect(getComputedStyle(inner).visibility).toBe('visible');
    outer.remove();
  });

  it('keeps nothing of another document, whose changes this document does not see', () => {
    getComputedStyle(document.body); // this document's answers are being kept
    const other = document.implementation.createHTMLDocument('other');
    const element = other.createElement('div');
    other.body.append(element);
    expect(getComputedStyle(element).visibility).toBe('visible');
    element.style.visibility = 'hidden';
    expect(getComputedStyle(element).visibility).toBe('hidden');
  });

  it('sees a stylesheet added to the page', () => {
    const element = document.createElement('p');
    element.className = 'faint';
    document.body.append(element);
    expect(getComputedStyle(element).display).toBe('block');
    const sheet = document.createElement('style');
    sheet.textContent = '.faint { display: none }';
    document.head.append(sheet);
    expect(getComputedStyle(element).display).toBe('none');
    sheet.remove();
    element.remove();
  });
});

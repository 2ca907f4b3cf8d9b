import { describe, expect, it } from 'vitest';
import { isStorageFull } from './storage-full';

describe('isStorageFull', () => {
  it('knows a full disk by its code, along the cause chain', () => {
    const enospc = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    const diskFull = Object.assign(new Error('could not extend file'), { code: '53100' });
    expect(isStorageFull(enospc)).toBe(true);
    expect(isStorageFull(Object.assign(new Error('quota'), { code: 'EDQUOT' }))).toBe(true);
    expect(isStorageFull(new Error('Failed query', { cause: diskFull }))).toBe(true);
    expect(isStorageFull(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isStorageFull(new Error('anything'))).toBe(false);
    expect(isStorageFull(null)).toBe(false);
  });
});

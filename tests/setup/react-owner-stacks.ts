import * as React from 'react';

/**
 * React's development build records an owner stack for each element it creates (up to 10,000 a second): an Error
 * with ten frames, for the component stacks of its warnings. In the component tests that was a tenth of the CPU
 * (docs/BENCHMARKS.md, 2026-11-27), for stacks no test reads. The counter it checks
 * (react/cjs/react-jsx-runtime.development.js, `recentlyCreatedOwnerStacks`) is held above the limit, so React
 * uses the stack it keeps for elements past it; warnings are still printed, with a shorter stack. Without that
 * counter (another React), nothing changes.
 */
export function skipReactOwnerStacks(): void {
  const internals = (React as unknown as Record<string, unknown>)
    .__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;
  if (!internals || typeof internals !== 'object' || !('recentlyCreatedOwnerStacks' in internals)) return;
  Object.defineProperty(internals, 'recentlyCreatedOwnerStacks', { get: () => Infinity, set: () => {} });
}

import { setupServer } from 'msw/node';

/**
 * The one mock API of the component tests. Tests add handlers with `server.use(http.get('/api/...', ...))`;
 * any request without a handler fails the test (onUnhandledRequest: 'error', see components.ts).
 */
export const server = setupServer();

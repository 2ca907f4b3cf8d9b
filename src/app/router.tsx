import { createBrowserRouter, RouterProvider } from 'react-router';
import { routes } from './routes';

const router = createBrowserRouter(routes);

/**
 * Resolves once the router has loaded the lazy modules of the page it opened on (see routes.tsx). src/main.tsx
 * waits for it before React's first render, so that the first screen in index.html gives way to the page itself,
 * in one render, instead of to a spinner first (one render and one layout less on a slow phone).
 */
export function routerReady(): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

export function AppRouter() {
  return <RouterProvider router={router} />;
}

import { Center } from '@mantine/core';
import { Outlet, ScrollRestoration } from 'react-router';
import { LoadingState } from '../components/loading-state';

/** The top of the route tree: customer and admin layouts hang below it. */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

/** Shown while the first lazy route module of a page load arrives. */
export function RouteLoading() {
  return (
    <Center mih="60vh">
      <LoadingState />
    </Center>
  );
}

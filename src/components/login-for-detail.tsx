import { Text } from '@mantine/core';
import { MESSAGES } from '#src/shared/messages';
import { LineLoginButton } from './line-login-button';

/** "Log in to see this reservation", and the LINE button that comes back to `returnTo` afterwards. */
export function LoginForDetail({ returnTo }: { returnTo: string }) {
  return (
    <>
      <Text>{MESSAGES.loginRequiredForDetail}</Text>
      <LineLoginButton label="LINEでログインして確認する" options={{ returnTo }} w={{ base: '100%', xs: 320 }} />
    </>
  );
}

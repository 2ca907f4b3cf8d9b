import { Alert, Button, type ButtonProps } from '@mantine/core';
import { useState } from 'react';
import { usePublicConfig } from '../lib/public-config';
import { startLineLogin, type LineLoginOptions } from '../lib/line-login';
import { MESSAGES } from '../shared/messages';

/** LINE's green, darkened so that white text on it reaches WCAG AA (LINE's own #06C755 gives 2.3:1). */
const LINE_GREEN = '#037f35';

export interface LineLoginButtonProps extends Omit<ButtonProps, 'children' | 'onClick'> {
  label?: string;
  options?: LineLoginOptions;
}

/** The one green button of SPEC.md §1: sends the browser to LINE's authorization page. */
export function LineLoginButton({ label = 'LINEでログインして予約する', options, ...props }: LineLoginButtonProps) {
  const config = usePublicConfig();
  const [leaving, setLeaving] = useState(false);

  if (config.isError) {
    return (
      <Alert color="red" title={MESSAGES.initialLoadFailed} w="100%">
        <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void config.refetch()}>
          再読み込み
        </Button>
      </Alert>
    );
  }

  return (
    <Button
      size="lg"
      radius="xl"
      color={LINE_GREEN}
      loading={config.isPending || leaving}
      onClick={() => {
        if (!config.data) return;
        setLeaving(true);
        void startLineLogin(config.data, options).catch((error: unknown) => {
          console.error('LINEログインを開始できませんでした。', error);
          setLeaving(false);
        });
      }}
      {...props}
    >
      {label}
    </Button>
  );
}

import { Button, type ButtonProps } from '@mantine/core';
import { useState } from 'react';
import { usePublicConfig } from '../lib/public-config';
import { startLineLogin, type LineLoginOptions } from '../lib/line-login';
import { MESSAGES } from '../shared/messages';
import { RetryAlert } from './retry-alert';

/** LINE's green, darkened so that white text on it reaches WCAG AA (LINE's own #06C755 gives 2.3:1). */
export const LINE_GREEN = '#037f35';

interface LineLoginButtonProps extends Omit<ButtonProps, 'children' | 'onClick'> {
  label?: string;
  options?: LineLoginOptions;
}

/** The one green button of docs/screens.md#customer-login: sends the browser to LINE's authorization page. */
export function LineLoginButton({ label = 'LINEでログインして予約する', options, ...props }: LineLoginButtonProps) {
  const config = usePublicConfig();
  const [leaving, setLeaving] = useState(false);

  if (config.isError) {
    return <RetryAlert title={MESSAGES.initialLoadFailed} w="100%" onRetry={() => void config.refetch()} />;
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

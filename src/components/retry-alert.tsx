import { Alert, Button, type AlertProps } from '@mantine/core';

interface RetryAlertProps extends Omit<AlertProps, 'color' | 'title' | 'children'> {
  /** What could not be loaded, in the specification's words. */
  title: string;
  onRetry(): void;
}

/** A load that failed: the message, announced at once, and a 再読み込み button that tries again. */
export function RetryAlert({ title, onRetry, ...props }: RetryAlertProps) {
  return (
    <Alert color="red" role="alert" title={title} {...props}>
      <Button variant="light" color="red" size="xs" mt="xs" onClick={onRetry}>
        再読み込み
      </Button>
    </Alert>
  );
}

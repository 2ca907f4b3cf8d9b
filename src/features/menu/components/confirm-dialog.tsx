import { Button, Group, Modal, Text } from '@mantine/core';

/** Mantine's close button has no name of its own. */
const CLOSE_BUTTON = { 'aria-label': '閉じる' };

export interface ConfirmDialogProps {
  opened: boolean;
  message: string;
  confirmLabel: string;
  /** Red for destructive actions. */
  color?: string;
  onConfirm(): void;
  onCancel(): void;
}

/** An in-page confirmation before a change (SPEC.md quotes the questions); the browser's confirm() cannot be styled. */
export function ConfirmDialog({ opened, message, confirmLabel, color, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Modal closeButtonProps={CLOSE_BUTTON} opened={opened} onClose={onCancel} title="確認" centered>
      <Text>{message}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel}>
          戻る
        </Button>
        <Button color={color} onClick={onConfirm} data-autofocus>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}

import { Button, Group, Modal, Text } from '@mantine/core';

export interface ConfirmDialogProps {
  opened: boolean;
  message: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** An in-page confirmation (the browser's confirm() blocks the page and cannot be styled or tested). */
export function ConfirmDialog({ opened, message, confirmLabel, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onCancel} title="確認" centered>
      <Text>{message}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onCancel}>
          キャンセル
        </Button>
        <Button onClick={onConfirm}>{confirmLabel}</Button>
      </Group>
    </Modal>
  );
}

import { Button, Group, Modal, Text, type MantineColor } from '@mantine/core';

interface ConfirmDialogProps {
  opened: boolean;
  /** The question (the specification quotes them word for word: docs/screens.md#texts-catalogue). */
  message: string;
  confirmLabel: string;
  /** 戻る where キャンセル would read as the action itself, as when the action cancels a reservation. */
  cancelLabel?: string;
  /** Red for destructive actions. */
  color?: MantineColor;
  onConfirm(): void;
  onCancel(): void;
}

/** An in-page confirmation before a change: the browser's confirm() blocks the page and cannot be styled or tested. */
export function ConfirmDialog({
  opened,
  message,
  confirmLabel,
  cancelLabel = 'キャンセル',
  color,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onCancel} title="確認" centered>
      <Text>{message}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel}>
          {cancelLabel}
        </Button>
        <Button color={color} onClick={onConfirm} data-autofocus>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}

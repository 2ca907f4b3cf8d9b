import { Button, FileInput, Group, Image, Stack } from '@mantine/core';
import { useEffect, useMemo } from 'react';

interface ImageAttachmentProps {
  file: File | null;
  onChange: (file: File | null) => void;
  disabled?: boolean;
  label?: string;
}

/** An optional image (any image type, docs/screens.md#send-message and docs/screens.md#message-history) with a preview and a remove button. */
export function ImageAttachment({ file, onChange, disabled, label = '画像（任意）' }: ImageAttachmentProps) {
  // One object URL per chosen file, released when the file changes or the form goes away.
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  return (
    <Stack gap="xs">
      <FileInput
        label={label}
        placeholder="画像を選択"
        accept="image/*"
        value={file}
        onChange={onChange}
        disabled={disabled}
        clearable={false}
      />
      {file && preview && (
        <Group align="flex-end" gap="sm">
          <Image src={preview} alt="添付画像のプレビュー" maw={240} mah={240} fit="contain" radius="sm" />
          <Button variant="default" size="xs" onClick={() => onChange(null)} disabled={disabled}>
            画像を削除
          </Button>
        </Group>
      )}
    </Stack>
  );
}

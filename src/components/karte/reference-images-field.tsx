import { Button, CloseButton, FileButton, Group, Stack, Text } from '@mantine/core';
import { MESSAGES } from '#src/shared/messages';
import { REFERENCE_PHOTO_LIMIT } from '#src/shared/schemas/karte';

/**
 * The optional デザインの参考画像 of the booking wizard's confirmation step. The files are only chosen here: they are
 * uploaded after the booking succeeded (uploadReferenceImages), so that a failed upload can never cost the booking.
 */
export function ReferenceImagesField({
  files,
  onChange,
  disabled = false,
}: {
  files: readonly File[];
  onChange(files: File[]): void;
  disabled?: boolean;
}) {
  const full = files.length >= REFERENCE_PHOTO_LIMIT;
  return (
    <Stack gap={6} role="group" aria-labelledby="reference-images-label">
      <Text fw={700} size="sm" id="reference-images-label">
        {MESSAGES.referenceImageLabel}
      </Text>
      <Text size="xs" c="dimmed">
        {MESSAGES.referenceImageHint}
      </Text>
      {files.map((file, index) => (
        <Group key={`${file.name}-${index}`} gap="xs" wrap="nowrap">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {file.name || `画像 ${index + 1}`}
          </Text>
          <CloseButton
            size="sm"
            aria-label={`${MESSAGES.referenceImageRemove}（${file.name || index + 1}）`}
            disabled={disabled}
            onClick={() => onChange(files.filter((_, other) => other !== index))}
          />
        </Group>
      ))}
      <FileButton
        multiple
        accept="image/*"
        onChange={(picked) => onChange([...files, ...picked].slice(0, REFERENCE_PHOTO_LIMIT))}
        disabled={disabled || full}
        inputProps={{ 'aria-label': MESSAGES.referenceImageLabel }}
      >
        {(props) => (
          <Button {...props} variant="default" size="sm" disabled={disabled || full}>
            画像を選ぶ
          </Button>
        )}
      </FileButton>
    </Stack>
  );
}

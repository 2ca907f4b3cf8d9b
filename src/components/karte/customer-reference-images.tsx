import { Alert, Button, FileButton, Image, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { reservationKeys } from '#src/lib/query-keys';
import { MESSAGES } from '#src/shared/messages';
import { REFERENCE_PHOTO_LIMIT } from '#src/shared/schemas/karte';
import { sendReferenceImages, useReferencePhotos } from './reference-images-api';

/**
 * The customer's デザインの参考画像 on their own reservation page: what they sent, and (while the booking is open)
 * a way to add one, e.g. after the upload right after booking failed.
 */
export function CustomerReferenceImages({ reservationNumber, open }: { reservationNumber: string; open: boolean }) {
  const photos = useReferencePhotos(reservationNumber);
  const queryClient = useQueryClient();
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  const list = photos.data ?? [];
  if (!photos.isSuccess || (!open && list.length === 0)) return null;

  const add = async (file: File | null) => {
    if (!file) return;
    setSending(true);
    setFailed(false);
    const outcome = await sendReferenceImages(reservationNumber, [file]);
    setSending(false);
    setFailed(outcome.failed > 0);
    void queryClient.invalidateQueries({ queryKey: reservationKeys.photos(reservationNumber) });
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="reference-images-title">
      <Stack gap="xs">
        <Text fw={700} id="reference-images-title">
          {MESSAGES.referenceImageLabel}
        </Text>
        {list.length > 0 && (
          <SimpleGrid cols={{ base: 3, xs: 4 }} spacing="xs">
            {list.map((photo, index) => (
              <Image
                key={photo.id}
                src={photo.thumbnail_url}
                alt={MESSAGES.karteReferencePhotoAlt(index + 1)}
                radius="sm"
                h={96}
                w="100%"
                fit="cover"
              />
            ))}
          </SimpleGrid>
        )}
        {failed && (
          <Alert color="red" role="alert">
            {MESSAGES.referenceImageUploadFailed}
          </Alert>
        )}
        {open && list.length < REFERENCE_PHOTO_LIMIT && (
          <FileButton
            accept="image/*"
            onChange={(file) => void add(file)}
            inputProps={{ 'aria-label': `${MESSAGES.referenceImageLabel}を追加` }}
          >
            {(props) => (
              <Button {...props} variant="default" size="sm" loading={sending}>
                {MESSAGES.referenceImageLabel}を追加
              </Button>
            )}
          </FileButton>
        )}
      </Stack>
    </Paper>
  );
}

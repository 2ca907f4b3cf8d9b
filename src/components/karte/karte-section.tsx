import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  FileButton,
  Group,
  Image,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { ConfirmDialog } from '#src/components/confirm-dialog';
import { LoadingState } from '#src/components/loading-state';
import { PendingBadge } from '#src/components/pending-badge';
import { RetryAlert } from '#src/components/retry-alert';
import { errorDetail } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { useConnectionState } from '#src/lib/connection-state';
import type { OutboxEntry } from '#src/lib/db';
import { showNotification, toast } from '#src/lib/notify';
import { useOnline } from '#src/lib/online';
import { useOutbox } from '#src/lib/outbox-hooks';
import { isWaiting } from '#src/lib/outbox-state';
import { MESSAGES } from '#src/shared/messages';
import { VISIT_NOTE_MAX_LENGTH, type VisitPhoto } from '#src/shared/schemas/karte';
import { useAddVisitPhoto, useDeleteVisitPhoto, useKarte, useSaveVisitNote } from './karte-api';
import { karteTarget, keptPhotoOf, usePendingVisitNote } from './karte-changes';

/**
 * The カルテ of a reservation on the staff detail screen: the customer's reference images whatever the status, and for
 * a completed visit the note and the photos staff take. A note or photo saved offline waits in the outbox (未送信 /
 * 送信待ち) and is sent once when the connection is back; deletions need the server.
 */
export function KarteSection({ reservationNumber, status }: { reservationNumber: string; status: string }) {
  const karte = useKarte(reservationNumber);
  const connection = useConnectionState();
  const completed = status === 'completed';
  // The カルテ is not kept on the device: without a connection that answers, say so plainly instead of loading
  // and then failing.
  const notKept =
    (karte.isPending && connection !== 'online') ||
    (karte.isError && isApiError(karte.error) && karte.error.isNetworkError);
  const photos = karte.data?.photos ?? [];
  if (!completed && karte.isSuccess && photos.length === 0) return null;

  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="karte-title">
      <Stack gap="md">
        <Title order={2} size="h3" id="karte-title">
          {MESSAGES.karteTitle}
        </Title>
        {notKept ? (
          <Alert color="gray" data-testid="karte-not-kept">
            {MESSAGES.karteNotKeptOffline}
          </Alert>
        ) : karte.isPending ? (
          <LoadingState />
        ) : karte.isError ? (
          <RetryAlert title={MESSAGES.karteLoadFailed} onRetry={() => void karte.refetch()} />
        ) : (
          <>
            <PhotoGrid
              label={MESSAGES.karteReferenceLabel}
              photos={photos.filter((photo) => photo.kind === 'reference')}
              reservationNumber={reservationNumber}
              alt={MESSAGES.karteReferencePhotoAlt}
            />
            {completed && (
              // Keyed by the saved version: a newer note from the server starts the field afresh.
              <VisitNote
                key={karte.data.note_updated_at ?? ''}
                reservationNumber={reservationNumber}
                saved={karte.data.note}
              />
            )}
          </>
        )}
        {completed && (
          <VisitPhotos
            reservationNumber={reservationNumber}
            photos={photos.filter((photo) => photo.kind === 'visit')}
            loaded={karte.isSuccess}
          />
        )}
      </Stack>
    </Paper>
  );
}

function VisitNote({ reservationNumber, saved: stored }: { reservationNumber: string; saved: string }) {
  // A note still waiting in the outbox is the note this device knows.
  const pending = usePendingVisitNote(reservationNumber);
  const [saved, setSaved] = useState(pending.value ?? stored);
  const [note, setNote] = useState(saved);
  const save = useSaveVisitNote(reservationNumber);
  return (
    <Stack gap="xs">
      <Textarea
        label={MESSAGES.karteNoteLabel}
        value={note}
        onChange={(event) => setNote(event.currentTarget.value)}
        rows={4}
        maxLength={VISIT_NOTE_MAX_LENGTH}
      />
      <Group gap="sm">
        <Button
          variant="light"
          disabled={note === saved}
          loading={save.isPending}
          onClick={() =>
            save.mutate(note, {
              onSuccess: (result) => {
                setSaved(note);
                if (result.queued) toast('yellow', MESSAGES.offlineMemoQueued);
                else toast('green', MESSAGES.karteNoteSaved);
              },
              onError: (error) => toast('red', errorDetail(error, MESSAGES.karteSaveFailed)),
            })
          }
        >
          {MESSAGES.karteNoteSave}
        </Button>
        <PendingBadge pending={pending} />
      </Group>
    </Stack>
  );
}

function VisitPhotos({
  reservationNumber,
  photos,
  loaded,
}: {
  reservationNumber: string;
  photos: VisitPhoto[];
  loaded: boolean;
}) {
  const add = useAddVisitPhoto(reservationNumber);
  const { entries } = useOutbox();
  const waiting = useMemo(
    () => entries.filter((entry) => entry.target === karteTarget(reservationNumber) && isWaiting(entry)),
    [entries, reservationNumber],
  );
  useEffect(() => releasePreviews(entries), [entries]);

  const onPick = (file: File | null) => {
    if (!file) return;
    add.mutate(file, {
      onSuccess: (result) =>
        showNotification(
          result.queued
            ? { color: 'orange', title: MESSAGES.kartePhotoPending, message: MESSAGES.kartePhotoQueued }
            : { color: 'green', message: MESSAGES.kartePhotoUploaded },
        ),
      onError: (error) => toast('red', errorDetail(error, MESSAGES.karteSaveFailed)),
    });
  };

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text fw={700}>写真</Text>
        <FileButton
          onChange={onPick}
          accept="image/*"
          capture="environment"
          inputProps={{ 'aria-label': MESSAGES.karteAddPhoto }}
        >
          {(props) => (
            <Button {...props} loading={add.isPending}>
              {MESSAGES.karteAddPhoto}
            </Button>
          )}
        </FileButton>
      </Group>
      {loaded && photos.length === 0 && waiting.length === 0 && (
        <Text size="sm" c="dimmed">
          {MESSAGES.karteNoPhotos}
        </Text>
      )}
      <PhotoGrid photos={photos} reservationNumber={reservationNumber} alt={MESSAGES.karteVisitPhotoAlt} deletable />
      {waiting.length > 0 && (
        <SimpleGrid cols={{ base: 3, xs: 4 }} spacing="xs" data-testid="karte-pending">
          {waiting.map((entry, index) => (
            <Stack key={entry.seq} gap={4} align="center">
              <Image
                src={previewUrlOf(entry)}
                alt={`${MESSAGES.kartePhotoPending} ${index + 1}`}
                radius="sm"
                h={96}
                w="100%"
                fit="cover"
              />
              <Badge color="orange" variant="light">
                {MESSAGES.kartePhotoPending}
              </Badge>
            </Stack>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

function PhotoGrid({
  label,
  photos,
  reservationNumber,
  alt,
  deletable = false,
}: {
  label?: string;
  photos: VisitPhoto[];
  reservationNumber: string;
  alt: (index: number) => string;
  deletable?: boolean;
}) {
  const remove = useDeleteVisitPhoto(reservationNumber);
  const online = useOnline();
  const [asking, setAsking] = useState<number | null>(null);
  if (photos.length === 0) return null;
  return (
    <Stack gap="xs">
      {label && <Text fw={700}>{label}</Text>}
      <SimpleGrid cols={{ base: 3, xs: 4 }} spacing="xs" role="list" aria-label={label ?? '写真'}>
        {photos.map((photo, index) => (
          <Stack key={photo.id} gap={4} role="listitem" pos="relative">
            <a href={photo.url} target="_blank" rel="noreferrer">
              <Image src={photo.thumbnail_url} alt={alt(index + 1)} radius="sm" h={96} w="100%" fit="cover" />
            </a>
            {deletable && (
              <ActionIcon
                color="red"
                variant="filled"
                size="md"
                pos="absolute"
                top={4}
                right={4}
                aria-label={`${MESSAGES.kartePhotoDelete}（${alt(index + 1)}）`}
                disabled={!online}
                onClick={() => setAsking(photo.id)}
              >
                <span aria-hidden="true">×</span>
              </ActionIcon>
            )}
          </Stack>
        ))}
      </SimpleGrid>
      <ConfirmDialog
        opened={asking !== null}
        message={MESSAGES.kartePhotoDeleteQuestion}
        confirmLabel="削除する"
        color="red"
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          const id = asking;
          setAsking(null);
          if (id === null) return;
          remove.mutate(id, {
            onSuccess: () => toast('green', MESSAGES.kartePhotoDeleted),
            onError: (error) => toast('red', errorDetail(error, MESSAGES.adminDeleteFailed)),
          });
        }}
      />
      {!online && deletable && (
        <Alert color="gray" variant="light" p="xs">
          {MESSAGES.offlineUnavailable('写真の削除')}
        </Alert>
      )}
    </Stack>
  );
}

/** Object URLs of queued photos by outbox seq, made once each and revoked once the entry is gone (sent). */
const previewUrls = new Map<number, string>();

function previewUrlOf(entry: OutboxEntry): string | null {
  const photo = keptPhotoOf(entry);
  if (!photo || entry.seq === undefined || typeof URL.createObjectURL !== 'function') return null;
  let url = previewUrls.get(entry.seq);
  if (!url) {
    url = URL.createObjectURL(new Blob([photo.bytes], { type: photo.type }));
    previewUrls.set(entry.seq, url);
  }
  return url;
}

function releasePreviews(entries: readonly OutboxEntry[]) {
  for (const [seq, url] of previewUrls) {
    if (entries.some((entry) => entry.seq === seq)) continue;
    URL.revokeObjectURL(url);
    previewUrls.delete(seq);
  }
}

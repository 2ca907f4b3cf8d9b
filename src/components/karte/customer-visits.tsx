import { Anchor, Image, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { LoadingState } from '#src/components/loading-state';
import { RetryAlert } from '#src/components/retry-alert';
import { paths } from '#src/lib/paths';
import { formatDateTimeJa } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import { useCustomerVisits } from './karte-api';

/** The customer's completed visits, newest first, each with its カルテ note and photo thumbnails. */
export function CustomerVisits({ customerId }: { customerId: number }) {
  const visits = useCustomerVisits(customerId);
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="customer-visits-title">
      <Stack gap="md">
        <Title order={2} size="h3" id="customer-visits-title">
          {MESSAGES.customerVisitsTitle}
        </Title>
        {visits.isPending ? (
          <LoadingState />
        ) : visits.isError ? (
          <RetryAlert title={MESSAGES.customerVisitsLoadFailed} onRetry={() => void visits.refetch()} />
        ) : visits.data.length === 0 ? (
          <Text c="dimmed">{MESSAGES.customerVisitsEmpty}</Text>
        ) : (
          <Stack gap="lg" component="ol" m={0} p={0} style={{ listStyle: 'none' }}>
            {visits.data.map((visit) => (
              <Stack key={visit.reservation_number} gap={6} component="li">
                <Anchor component={Link} to={paths.adminReservation(visit.reservation_number)} fw={700}>
                  {formatDateTimeJa(visit.start_time)}
                </Anchor>
                <Text size="sm">
                  {visit.service_name}（担当 {visit.staff_name}）
                </Text>
                {visit.note && (
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                    {visit.note}
                  </Text>
                )}
                {visit.photos.length > 0 && (
                  <SimpleGrid cols={{ base: 4, xs: 6 }} spacing="xs">
                    {visit.photos.map((photo, index) => (
                      <a key={photo.id} href={photo.url} target="_blank" rel="noreferrer">
                        <Image
                          src={photo.thumbnail_url}
                          alt={
                            photo.kind === 'reference'
                              ? MESSAGES.karteReferencePhotoAlt(index + 1)
                              : MESSAGES.karteVisitPhotoAlt(index + 1)
                          }
                          radius="sm"
                          h={72}
                          w="100%"
                          fit="cover"
                        />
                      </a>
                    ))}
                  </SimpleGrid>
                )}
              </Stack>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

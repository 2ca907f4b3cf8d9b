import { Anchor, Paper, Stack, Text, type PaperProps } from '@mantine/core';
import { usePublicConfig } from '../lib/public-config';

/** The contact details as GET /api/config/ gives them; '' = not given. */
interface SalonContactDetails {
  phone_number: string;
  address: string;
  map_url: string;
  opening_hours_text: string;
}

/** `tel:` wants the digits only (hyphens are for reading). */
export const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

interface SalonContactViewProps extends PaperProps {
  salonName?: string;
  contact: SalonContactDetails;
  /** The heading above the details. */
  title?: string;
}

/** The salon's phone (tap-to-call), address, map link and opening hours; nothing when none is given. */
export function SalonContactView({
  salonName,
  contact,
  title = 'サロンへのお問い合わせ',
  ...paper
}: SalonContactViewProps) {
  // `?? ''`: a config cached by an older version of the app has no contact fields yet.
  const phone = (contact.phone_number ?? '').trim();
  const address = (contact.address ?? '').trim();
  const mapUrl = (contact.map_url ?? '').trim();
  const hours = (contact.opening_hours_text ?? '').trim();
  if (!phone && !address && !mapUrl && !hours) return null;
  return (
    <Paper withBorder p="sm" radius="md" ta="left" w="100%" {...paper}>
      <Stack gap={4} component="section" aria-label={title}>
        <Text fw={700} size="sm">
          {title}
        </Text>
        {salonName && <Text size="sm">{salonName}</Text>}
        {phone && (
          <Text size="sm">
            電話:{' '}
            <Anchor href={telHref(phone)} fw={700} aria-label={`${phone} に電話をかける`}>
              {phone}
            </Anchor>
          </Text>
        )}
        {address && (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            住所: {address}
          </Text>
        )}
        {mapUrl && (
          <Text size="sm">
            <Anchor href={mapUrl} target="_blank" rel="noopener noreferrer">
              地図を開く
            </Anchor>
          </Text>
        )}
        {hours && (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            営業時間: {hours}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** SalonContactView with the details of GET /api/config/ (nothing while it loads or when it fails). */
export function SalonContact(props: Omit<SalonContactViewProps, 'contact' | 'salonName'>) {
  const config = usePublicConfig();
  // An older deployment's config may carry no settings at all.
  if (!config.data?.settings) return null;
  return <SalonContactView salonName={config.data.salon_name} contact={config.data.settings} {...props} />;
}

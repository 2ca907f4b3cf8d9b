import { Alert, Avatar, Button, FileButton, Group, Image, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { errorDetail } from '#src/lib/api-client';
import { toast } from '#src/lib/notify';
import type { StaffUser } from '#src/shared/schemas/staff';
import { useUploadStaffPicture } from '../api/staff-queries';

const ACCEPTED = 'image/jpeg,image/png,image/webp,image/gif';
/** The preview's side: the server keeps the same centre square (server/features/staff/staff-picture.ts). */
const PREVIEW_EDGE = 160;

/**
 * 写真 (社員管理): the owner uploads a staff member's photo from the tablet. The preview shows the square the server
 * keeps (the centre of the image); customers see it on the 指名 step.
 */
export function PictureSection({ user }: { user: StaffUser }) {
  const [chosen, setChosen] = useState<{ file: File; url: string } | null>(null);
  const upload = useUploadStaffPicture(user.id);
  const preview = chosen?.url ?? null;
  // The preview's object URL is given back when another file is chosen or the section goes.
  useEffect(() => (chosen ? () => URL.revokeObjectURL(chosen.url) : undefined), [chosen]);
  const choose = (file: File | null) => {
    upload.reset();
    setChosen(file ? { file, url: URL.createObjectURL(file) } : null);
  };

  const send = () => {
    if (!chosen || upload.isPending) return;
    upload.mutate(chosen.file, {
      onSuccess: () => {
        setChosen(null);
        toast('green', '写真を保存しました。');
      },
    });
  };

  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        写真
      </Title>
      <Text size="sm">お客様が予約で担当者を選ぶ画面に表示されます。中央を正方形に切り抜いて保存します。</Text>
      <Group align="flex-end" gap="md">
        {preview ? (
          <Image
            src={preview}
            alt="選んだ写真（保存される範囲）"
            w={PREVIEW_EDGE}
            h={PREVIEW_EDGE}
            fit="cover"
            radius="md"
          />
        ) : (
          <Avatar src={user.picture_url || null} alt="現在の写真" size={PREVIEW_EDGE / 2} radius="md" />
        )}
        <Stack gap="xs">
          <FileButton onChange={choose} accept={ACCEPTED}>
            {(props) => (
              <Button variant="default" {...props}>
                {preview ? '別の写真を選ぶ' : '写真を選ぶ'}
              </Button>
            )}
          </FileButton>
          {preview && (
            <Group gap="xs">
              <Button onClick={send} loading={upload.isPending}>
                この写真を保存する
              </Button>
              <Button variant="subtle" onClick={() => choose(null)} disabled={upload.isPending}>
                やめる
              </Button>
            </Group>
          )}
        </Stack>
      </Group>
      {upload.isError && (
        <Alert color="red" role="alert">
          {errorDetail(upload.error, '写真を保存できませんでした。')}
        </Alert>
      )}
    </Stack>
  );
}

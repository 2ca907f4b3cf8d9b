import { Switch } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, errorDetail } from '#src/lib/api-client';
import { customerProfileQuery, useCustomerAuth } from '#src/lib/customer-auth';
import { useOnline } from '#src/lib/online';
import { MESSAGES } from '#src/shared/messages';
import type { CustomerProfile, RebookPromptsSetting } from '#src/shared/schemas/auth';

/**
 * The customer's own 再来店のご案内 switch (PUT /api/me/rebook-prompts/), on the detail page of a past visit: the
 * LINE message itself links to that page, so a customer who wants no more of them can stop them there.
 */
export function RebookPromptsSwitch() {
  const { profile } = useCustomerAuth();
  const queryClient = useQueryClient();
  const online = useOnline();
  const save = useMutation({
    mutationFn: (enabled: boolean) =>
      api.put<RebookPromptsSetting>('/api/me/rebook-prompts/', { enabled }, { auth: 'customer' }),
    onSuccess: ({ enabled }) =>
      queryClient.setQueryData<CustomerProfile>(customerProfileQuery.queryKey, (current) =>
        current ? { ...current, rebook_prompts_enabled: enabled } : current,
      ),
  });
  if (!profile) return null;
  const failed = save.isError ? errorDetail(save.error, MESSAGES.serverError) : undefined;
  return (
    <Switch
      label="再来店のご案内をLINEで受け取る"
      description="前回のご来店から日数が経ったころに、ご予約のご案内をお送りします"
      checked={save.isPending ? save.variables : profile.rebook_prompts_enabled !== false}
      disabled={!online || save.isPending}
      error={failed}
      onChange={(event) => save.mutate(event.currentTarget.checked)}
    />
  );
}

import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import { CustomerIncidents, IncidentBadge, ReservationIncidentBadge } from './incident-badge';

describe('incident badge', () => {
  it('shows 要承認 with the reason when the rule held the booking back', () => {
    renderWithProviders(<IncidentBadge noShows={2} lateCancels={1} needsApproval />);
    expect(screen.getByText('要承認')).toBeInTheDocument();
    expect(screen.getByText('無断欠席 2回・直前キャンセル 1回')).toBeInTheDocument();
  });

  it('shows the counts alone when there are some but nothing waits, and nothing for a clean record', () => {
    const { unmount } = renderWithProviders(<IncidentBadge noShows={0} lateCancels={1} />);
    expect(screen.getByText('無断欠席 0回・直前キャンセル 1回')).toBeInTheDocument();
    expect(screen.queryByText('要承認')).not.toBeInTheDocument();
    unmount();
    const clean = renderWithProviders(<IncidentBadge noShows={0} lateCancels={0} />);
    expect(clean.container.querySelector('[data-incidents]')).toBeNull();
  });

  it('shows 要承認 on a reservation only while it is pending; the counts stay after staff confirm it', () => {
    const held = { needs_approval: true, customer_no_show_count: 2, customer_late_cancel_count: 0 };
    const { unmount } = renderWithProviders(<ReservationIncidentBadge reservation={{ ...held, status: 'pending' }} />);
    expect(screen.getByText(MESSAGES.needsApproval)).toBeInTheDocument();
    unmount();
    renderWithProviders(<ReservationIncidentBadge reservation={{ ...held, status: 'confirmed' }} />);
    expect(screen.queryByText(MESSAGES.needsApproval)).not.toBeInTheDocument();
    expect(screen.getByText('無断欠席 2回・直前キャンセル 0回')).toBeInTheDocument();
  });

  it('always states the counts on the customer, zero included, and nothing for an answer without them', () => {
    const { unmount } = renderWithProviders(
      <CustomerIncidents customer={{ no_show_count: 0, late_cancel_count: 0, needs_approval: false }} />,
    );
    expect(screen.getByText('無断欠席 0回・直前キャンセル 0回')).toBeInTheDocument();
    unmount();
    const { unmount: again } = renderWithProviders(
      <CustomerIncidents customer={{ no_show_count: 1, late_cancel_count: 1, needs_approval: true }} />,
    );
    expect(screen.getByText('要承認')).toBeInTheDocument();
    expect(screen.getByText('無断欠席 1回・直前キャンセル 1回')).toBeInTheDocument();
    again();
    // A copy cached offline before the counts existed: no made-up zeros.
    const old = renderWithProviders(<CustomerIncidents customer={{}} />);
    expect(old.container).not.toHaveTextContent('無断欠席');
  });
});

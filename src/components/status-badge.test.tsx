import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../tests/setup/render';
import { StatusBadge } from './status-badge';

describe('status badge', () => {
  it('is never shrunk or ellipsised in a narrow row (phones)', () => {
    renderWithProviders(
      <div style={{ display: 'flex', width: 40 }}>
        <span style={{ flex: 1 }}>山田 花子</span>
        <StatusBadge status="no_show" reading="staff" />
      </div>,
    );
    const label = screen.getByText('無断欠席');
    const root = label.closest('[data-status]') as HTMLElement;
    expect(root).toHaveAttribute('data-status', 'no_show');
    expect(root.style.flexShrink).toBe('0');
    expect(root.style.minWidth).toBe('max-content');
    expect(label.style.overflow).toBe('visible');
    expect(label.style.textOverflow).toBe('clip');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '../../test-utils/providers';
import { ClippedText } from './ClippedText';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('ClippedText', () => {
  it('cuts long text to the limit, keeps the whole in the tooltip and copies it on click', async () => {
    const writes: string[] = [];
    Object.assign(navigator, { clipboard: { writeText: async (s: string) => void writes.push(s) } });
    const long = 'a very long prompt that keeps going and going';
    renderWithProviders(<ClippedText text={long} max={10} />);
    const shown = screen.getByText('a very lon…');
    expect(shown.getAttribute('aria-label')).toBe(long);
    fireEvent.click(shown);
    await vi.waitFor(() => expect(writes).toEqual([long]));
  });
  it('shows short text whole and a dash when empty', () => {
    renderWithProviders(
      <>
        <ClippedText text="短い" />
        <ClippedText text="" />
      </>,
    );
    expect(screen.getByText('短い')).toBeTruthy();
    expect(screen.getByText('-')).toBeTruthy();
  });
});

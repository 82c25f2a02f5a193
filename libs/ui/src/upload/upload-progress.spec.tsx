import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UploadProgress } from './upload-progress';

describe('UploadProgress', () => {
  it('shows the percentage as a named progress bar, kept within 0 to 100', () => {
    const { rerender } = render(<UploadProgress value={42.4} label="Receipt upload" />);
    expect(screen.getByRole('progressbar', { name: 'Receipt upload' })).toHaveAttribute('value', '42');
    expect(screen.getByText('42%')).toBeInTheDocument();
    rerender(<UploadProgress value={130} label="Receipt upload" />);
    expect(screen.getByText('100%')).toBeInTheDocument();
  });
});
